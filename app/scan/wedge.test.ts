import { describe, expect, it } from "vitest";
import { createWedgeDetector, typingInField, WEDGE_MAX_GAP_MS } from "./wedge";

/** Feeds `keys`, `gapMs` apart, from `start`; answers what the detector returned for each. */
function feed(detector: ReturnType<typeof createWedgeDetector>, keys: string[], gapMs: number, start = 1000) {
  return keys.map((key, index) => detector.key(key, start + index * gapMs));
}

const typed = (code: string) => [...code, "Enter"];

describe("the keyboard-wedge detector", () => {
  it("reads a fast burst ended by Enter as a scan", () => {
    const results = feed(createWedgeDetector(), typed("V0A1B2C3D4"), 8);
    expect(results.slice(0, -1).every((r) => r === null)).toBe(true);
    expect(results.at(-1)).toBe("V0A1B2C3D4");
  });

  it("ignores a person typing, one key every 120 ms", () => {
    expect(feed(createWedgeDetector(), typed("V0A1B2C3D4"), 120).at(-1)).toBeNull();
  });

  it("accepts gaps up to the limit and refuses one just over it", () => {
    expect(feed(createWedgeDetector(), typed("ABCD1234"), WEDGE_MAX_GAP_MS).at(-1)).toBe("ABCD1234");
    expect(feed(createWedgeDetector(), typed("ABCD1234"), WEDGE_MAX_GAP_MS + 1).at(-1)).toBeNull();
  });

  it("needs at least 4 characters, the shortest barcode", () => {
    expect(feed(createWedgeDetector(), typed("ABC"), 5).at(-1)).toBeNull();
    expect(feed(createWedgeDetector(), typed("ABCD"), 5).at(-1)).toBe("ABCD");
  });

  it("starts over after a pause: keys typed before a scan are not part of it", () => {
    const detector = createWedgeDetector();
    feed(detector, ["x", "y"], 5, 0);
    expect(feed(detector, typed("V0A1B2C3D4"), 5, 2000).at(-1)).toBe("V0A1B2C3D4");
  });

  it("skips modifier keys between characters and reads two scans in a row", () => {
    const detector = createWedgeDetector();
    expect(feed(detector, ["Shift", "V", "0", "Shift", "A", "1", "Enter"], 5, 0).at(-1)).toBe("V0A1");
    expect(feed(detector, typed("B2C3D4E5"), 5, 500).at(-1)).toBe("B2C3D4E5");
  });

  it("an Enter alone, or a slow Enter after a scan-like burst, is nothing", () => {
    const detector = createWedgeDetector();
    expect(detector.key("Enter", 0)).toBeNull();
    feed(detector, [..."ABCD1234"], 5, 1000);
    expect(detector.key("Enter", 1000 + 7 * 5 + 400)).toBeNull();
  });
});

describe("typingInField", () => {
  const element = (matches: boolean) => ({ closest: () => (matches ? {} : null) }) as unknown as EventTarget;
  it("leaves the keys of inputs, text areas and selects to them", () => {
    expect(typingInField(element(true))).toBe(true);
    expect(typingInField(element(false))).toBe(false);
    expect(typingInField(null)).toBe(false);
  });
});
