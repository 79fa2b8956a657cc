import { describe, expect, it } from "vitest";
import { code128Svg, dataMatrixSvg } from "./barcodes.server";
import { BUILT_IN_PROFILE, type LabelProfile } from "./options";
import { labelSheet } from "./sheet.server";
import { type LabelItem, sampleLabelItem } from "./texts";

const ITEM: LabelItem = {
  labelCode: "V7K3M9Q2XA",
  product: "Botox",
  variation: "100 U vial",
  lot: "C3521",
  expirationDate: "2027-03-31",
  receivedAt: new Date("2026-11-05T12:00:00Z"),
  timeZone: "America/New_York",
};

describe("barcode SVGs", () => {
  it("draws Code 128 with one viewBox unit per module, stretched to its box", () => {
    const { svg, modules } = code128Svg("V7K3M9Q2XA");
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg).toContain('preserveAspectRatio="none"');
    expect(svg).toContain('aria-label="Code 128: V7K3M9Q2XA"');
    expect(modules).toBe(145);
  });

  it("draws DataMatrix square, keeping its aspect", () => {
    const { svg, modules } = dataMatrixSvg("V7K3M9Q2XA");
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg).not.toContain("preserveAspectRatio");
    expect(svg).toContain("<path");
    expect(modules).toBe(14);
  });
});

describe("labelSheet", () => {
  const sheet = (profile: Partial<LabelProfile>, items: LabelItem[] = [ITEM]) =>
    labelSheet({ ...BUILT_IN_PROFILE, ...profile }, items);

  it("gives each label the SVGs of the profile's symbology", () => {
    const both = sheet({ symbology: "both" }).labels[0];
    expect(both?.code128?.svg).toContain("<svg");
    expect(both?.dataMatrix?.svg).toContain("<svg");
    const code128 = sheet({ symbology: "code128" }).labels[0];
    expect(code128?.code128?.svg).toContain("<svg");
    expect(code128?.dataMatrix).toBeNull();
    const dataMatrix = sheet({ symbology: "datamatrix" }).labels[0];
    expect(dataMatrix?.dataMatrix?.svg).toContain("<svg");
    expect(dataMatrix?.code128).toBeNull();
  });

  it("places the texts of the chosen fields in the profile's order, dates as 'MMM d, yyyy'", () => {
    const label = sheet({ fields: ["label_code", "expiry", "received", "lot"] }).labels[0];
    expect(label?.lines.map((l) => l.text)).toEqual([
      "V7K3M9Q2XA",
      "Exp Mar 31, 2027",
      "Rcvd Nov 5, 2026",
      "Lot C3521",
    ]);
    const bare = sheet({ fields: ["lot", "expiry"] }, [{ ...ITEM, lot: null, expirationDate: null }]).labels[0];
    expect(bare?.lines.map((l) => l.text)).toEqual(["No lot", "No expiration date"]);
  });

  it("prints the day an item was received at its location, not in UTC", () => {
    // 22:00 on Nov 5 in New York is already Nov 6 in UTC: the receipt's page says Nov 5, so does the label.
    const evening = { ...ITEM, receivedAt: new Date("2026-11-06T03:00:00Z") };
    const label = sheet({ fields: ["received"] }, [evening]).labels[0];
    expect(label?.lines.map((l) => l.text)).toEqual(["Rcvd Nov 5, 2026"]);
    const tokyo = sheet({ fields: ["received"] }, [{ ...evening, timeZone: "Asia/Tokyo" }]).labels[0];
    expect(tokyo?.lines.map((l) => l.text)).toEqual(["Rcvd Nov 6, 2026"]);
  });

  it("sizes the page to the sticker with no margin, one label a page, the offsets applied in print", () => {
    const { css, widthMm, heightMm } = sheet({ offsetXTenthMm: 15, offsetYTenthMm: -5 });
    expect([widthMm, heightMm]).toEqual([57.2, 31.8]);
    expect(css).toContain("@page { size: 57.2mm 31.8mm; margin: 0; }");
    expect(css).toContain("break-after: page");
    expect(css).toMatch(/translate\(1\.50?\d*mm, -0\.50?\d*mm\)/);
  });

  it("keeps a Code 128 module a whole number of printer dots", () => {
    const label = sheet({ dpi: 203 }).labels[0];
    const dotMm = 25.4 / 203;
    const moduleDots = (label?.code128?.width ?? 0) / 145 / dotMm;
    expect(Math.abs(moduleDots - Math.round(moduleDots))).toBeLessThan(0.01);
    expect(Math.round(moduleDots)).toBe(2);
  });

  it("marks the test-print sample as a sample in every text", () => {
    const sample = sampleLabelItem(new Date("2026-11-05T12:00:00Z"));
    const label = sheet({}, [sample]).labels[0];
    expect(label?.lines[0]?.text).toMatch(/SAMPLE/);
    expect(label?.lines.find((l) => l.text.startsWith("Lot"))?.text).toBe("Lot SAMPLE");
    expect(sample.expirationDate).toBe("2027-11-01");
  });
});
