import { describe, expect, it } from "vitest";
import { offlinePageHtml, titleOf } from "./offline-page";

const NOW = new Date("2026-11-27T14:14:00Z");

describe("offlinePageHtml", () => {
  it("links to each saved screen with its title and age", () => {
    const html = offlinePageHtml(
      "/scan",
      [
        { href: "/inventory", title: "Inventory", savedAt: new Date("2026-11-27T14:02:00Z") },
        { href: "/inventory/01HX?tab=a&b=1", title: "Vial 01HX", savedAt: new Date("2026-11-27T11:00:00Z") },
      ],
      NOW,
    );
    expect(html).toContain('<a href="/inventory">Inventory</a> <span class="age">saved 12 min ago</span>');
    expect(html).toContain(
      '<a href="/inventory/01HX?tab=a&amp;b=1">Vial 01HX</a> <span class="age">saved 3 h ago</span>',
    );
    expect(html).toContain("/scan has not been opened on this device");
    expect(html).not.toContain("<script");
  });

  it("says when nothing is saved, and escapes what it repeats", () => {
    const html = offlinePageHtml("/inventory/<x>", [], NOW);
    expect(html).toContain("no saved copy of any screen yet");
    expect(html).toContain("/inventory/&lt;x&gt;");
    expect(html).not.toContain("<x>");
  });
});

describe("titleOf", () => {
  it("reads a page's title, or nothing", () => {
    expect(titleOf('<html><head><title data-x="1"> Inventory · Clinic </title></head>')).toBe("Inventory · Clinic");
    expect(titleOf("<title></title>")).toBeNull();
    expect(titleOf("<p>none</p>")).toBeNull();
  });
});
