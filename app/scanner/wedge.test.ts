import { describe, expect, it } from "vitest";
import { createBurstWatch, createWedgeDetector, SCAN_PAUSE_MS, typingInField, WEDGE_MAX_GAP_MS } from "./wedge";

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

describe("the burst watch", () => {
  const steps = (watch: ReturnType<typeof createBurstWatch>, keys: string[], gapMs: number, start = 1000) =>
    keys.map((key, index) => watch.key(key, start + index * gapMs));

  it("says a burst has begun on its 4th fast character, with all four, and nothing on the rest", () => {
    const results = steps(createBurstWatch(), [..."V0A1B2C3D4"], 8);
    expect(results.map((r) => r.burst)).toEqual([null, null, null, "V0A1", null, null, null, null, null, null]);
    expect(results.map((r) => r.fresh)).toEqual([true, ...Array(9).fill(false)]);
  });

  it("never sees a burst in a person's typing, and marks each key after a pause as a fresh start", () => {
    const results = steps(createBurstWatch(), [..."V0A1B2C3D4"], WEDGE_MAX_GAP_MS + 1);
    expect(results.every((r) => r.burst === null && r.fresh)).toBe(true);
  });

  it("counts a burst from the last pause: hand-typed keys before it are not in it", () => {
    const watch = createBurstWatch();
    steps(watch, [..."(01)0030"], 120, 0);
    const results = steps(watch, [..."(01)0030"], 5, 5000);
    expect(results[0]?.fresh).toBe(true);
    expect(results[3]?.burst).toBe("(01)");
  });

  it("skips modifier keys, and starts over after an Enter: two scans in a row are two bursts", () => {
    const watch = createBurstWatch();
    const first = steps(watch, ["Shift", "V", "0", "Shift", "A", "1", "Enter"], 5, 0);
    expect(first[0]?.fresh).toBe(true);
    expect(first.map((r) => r.burst).filter(Boolean)).toEqual(["V0A1"]);
    const second = steps(watch, [..."B2C3D4"], 5, 35);
    expect(second.map((r) => r.burst).filter(Boolean)).toEqual(["B2C3"]);
  });
});

describe("the burst watch, through a hiccup", () => {
  it("a pause shorter than SCAN_PAUSE_MS inside a burst does not begin another; a longer one, or an Enter, may", () => {
    const watch = createBurstWatch();
    const at = (key: string, time: number) => watch.key(key, time);
    expect([..."(01)"].map((k, i) => at(k, i * 5).burst).at(-1)).toBe("(01)");
    // 200 ms of a busy phone, then the rest of the code at the scanner's pace.
    expect([..."0030"].map((k, i) => at(k, 215 + i * 5)).some((r) => r.fresh || r.burst)).toBe(false);
    expect(at("Enter", 240).burst).toBeNull();
    const next = [..."V0A1"].map((k, i) => at(k, 245 + i * 5));
    expect(next.map((r) => r.fresh)).toEqual([true, false, false, false]);
    expect(next.map((r) => r.burst)).toEqual([null, null, null, "V0A1"]);
    expect(at("9", 245 + 15 + SCAN_PAUSE_MS + 1).fresh).toBe(true);
  });
});
