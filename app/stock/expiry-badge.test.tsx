import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ExpiryBadge, type ExpiryItem } from "./expiry-badge";

const NOW = new Date("2026-11-22T12:00:00Z");
const H = 60 * 60 * 1000;
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

/** The badge as a user reads it: band, and its words with tags removed. */
function read(item: ExpiryItem, timeZone?: string) {
  const html = renderToString(<ExpiryBadge item={item} now={NOW} timeZone={timeZone} />);
  const text = html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return { html, text, band: html.match(/data-band="(\w+)"/)?.[1], recalled: html.includes("data-recalled") };
}

// An in-use vial opened `startedAgoH` hours ago with `leftH` hours left: its band is the share of life left.
const inUse = (startedAgoH: number, leftH: number): ExpiryItem => ({
  state: "in_use",
  expirationDate: "2027-06-30",
  startedAt: at(-startedAgoH * H),
  expiresAt: at(leftH * H),
});

describe("ExpiryBadge", () => {
  it.each([
    ["safe", inUse(4, 20), "Use-By Deadline 20h 0m left"],
    ["caution", inUse(14, 10), "Use-By Deadline 10h 0m left"],
    ["warning", inUse(20, 4), "Use-By Deadline 4h 0m left"],
    ["critical", inUse(22, 2), "Use-By Deadline 2h 0m left"],
    ["safe", inUse(1, 51), "Use-By Deadline 2d 3h left"],
  ])("an in-use vial in band %s shows its time left", (band, item, text) => {
    const badge = read(item);
    expect(badge.band).toBe(band);
    expect(badge.text).toBe(text);
  });

  it("a passed Use-By Deadline is red and names the deadline in the location's zone", () => {
    const badge = read({ ...inUse(30, -6), location: { timeZone: "America/New_York" } });
    expect(badge.band).toBe("expired");
    expect(badge.html).toContain("bg-red-100");
    expect(badge.text).toBe("Use-By Deadline Nov 22, 1:00 EST");
    // An explicit zone wins over the item's.
    expect(read({ ...inUse(30, -6), location: { timeZone: "America/New_York" } }, "UTC").text).toBe(
      "Use-By Deadline Nov 22, 6:00 UTC",
    );
  });

  it("a sealed vial shows its manufacturer expiration date; a passed one is expired", () => {
    const sealed = { state: "sealed", receivedAt: "2026-01-01T00:00:00Z" };
    expect(read({ ...sealed, expirationDate: "2027-11-01" }, "UTC").text).toBe(
      "Manufacturer Expiration Nov 1, 2027 · 344 days left",
    );
    expect(read({ ...sealed, expirationDate: "2027-11-01" }).band).toBe("safe");
    expect(read({ ...sealed, expirationDate: "2026-11-25" }).band).toBe("critical");
    const passed = read({ ...sealed, expirationDate: "2026-11-20" }, "UTC");
    expect([passed.band, passed.text]).toEqual([
      "expired",
      "Manufacturer Expiration Nov 20, 2026 · Expired 2 days ago",
    ]);
  });

  it("gives one lot's date one colour and one count of days at every location (ADR 0019)", () => {
    const lot = { state: "sealed", expirationDate: "2026-12-04" };
    const downtown = read({ ...lot, receivedAt: "2026-10-20T14:00:00Z", location: { timeZone: "America/New_York" } });
    const westside = read({ ...lot, receivedAt: "2025-12-01T09:00:00Z", location: { timeZone: "America/Chicago" } });
    expect(downtown.band).toBe("critical");
    expect(westside.band).toBe(downtown.band);
    expect(downtown.text).toBe("Manufacturer Expiration Dec 4, 2026 · 12 days left");
    expect(westside.text).toBe(downtown.text);
  });

  it("an item with no expiration date reads as expired, and says the date is missing", () => {
    expect(read({ state: "sealed", receivedAt: "2026-01-01T00:00:00Z", expirationDate: null }).text).toBe(
      "Expired No expiration date",
    );
  });

  it("each band has its own colour, with dark text on a light tint", () => {
    const tones = new Set(
      [inUse(4, 20), inUse(14, 10), inUse(20, 4), inUse(22, 2), inUse(30, -6)].map(
        (item) => read(item).html.match(/data-band="\w+" class="([^"]+)"/)?.[1],
      ),
    );
    expect(tones.size).toBe(5);
    for (const tone of tones) expect(tone).toMatch(/bg-\w+-100 text-\w+-9\d0/);
  });

  it("a recalled vial shows a red Recalled badge before its expiry", () => {
    const badge = read({ ...inUse(4, 20), recalled: true });
    expect(badge.recalled).toBe(true);
    expect(badge.text).toBe("Recalled Use-By Deadline 20h 0m left");
    expect(read(inUse(4, 20)).recalled).toBe(false);
  });
});
