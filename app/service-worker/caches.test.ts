import { describe, expect, it } from "vitest";
import { buildAssets, cacheNames, cachesToDrop, DOCUMENT_REFRESH_MS, documentDue, worthSaving } from "./caches";

describe("cachesToDrop", () => {
  it("drops this app's caches of other builds and keeps this build's and everyone else's", () => {
    const existing = [
      "clinic-pages-old",
      "clinic-assets-old",
      ...Object.values(cacheNames("new")),
      "someone-elses-cache",
    ];
    expect(cachesToDrop(existing, "new")).toEqual(["clinic-pages-old", "clinic-assets-old"]);
  });
});

describe("buildAssets", () => {
  it("keeps the build's own files and the shell's icons once each, without their query, and nothing else", () => {
    const origin = "https://clinic.example";
    expect(
      buildAssets(
        [
          "https://clinic.example/assets/index-A1.js",
          "/assets/index-A1.js?v=2",
          "/assets/tailwind-B2.css",
          "/favicon.svg",
          "/robots.txt",
          "https://clinic.example/inventory.data",
          "https://cdn.example/assets/x.js",
          "http://[bad",
        ],
        origin,
      ),
    ).toEqual([
      "https://clinic.example/assets/index-A1.js",
      "https://clinic.example/assets/tailwind-B2.css",
      "https://clinic.example/favicon.svg",
    ]);
  });
});

describe("worthSaving", () => {
  it("keeps only a whole 200 from this origin that was not redirected", () => {
    expect(worthSaving({ status: 200, type: "basic", redirected: false })).toBe(true);
    expect(worthSaving({ status: 200, type: "basic", redirected: true })).toBe(false);
    expect(worthSaving({ status: 202, type: "basic", redirected: false })).toBe(false);
    expect(worthSaving({ status: 503, type: "basic", redirected: false })).toBe(false);
    expect(worthSaving({ status: 0, type: "opaqueredirect", redirected: false })).toBe(false);
    expect(worthSaving({ status: 200, type: "opaque", redirected: false })).toBe(false);
  });
});

describe("documentDue", () => {
  const now = new Date("2026-11-27T14:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  it("fetches a screen's document when none is saved, or the saved one is old", () => {
    expect(documentDue(null, now)).toBe(true);
    expect(documentDue("not a time", now)).toBe(true);
    expect(documentDue(ago(DOCUMENT_REFRESH_MS), now)).toBe(true);
  });

  it("leaves a recent one, and takes a copy from the future (a clock set back) as old", () => {
    expect(documentDue(ago(DOCUMENT_REFRESH_MS - 1), now)).toBe(false);
    expect(documentDue(ago(0), now)).toBe(false);
    expect(documentDue(ago(-60_000), now)).toBe(true);
  });
});
