import { describe, expect, it } from "vitest";
import { BUILT_IN_PROFILE, type LabelProfile } from "./options";
import { type LabelItem, labelLines } from "./texts";
import { labelZpl, zplDocument, zplFieldData } from "./zpl.server";

const TWO_BY_ONE: LabelProfile = {
  ...BUILT_IN_PROFILE,
  output: "zpl",
  widthTenthMm: 508,
  heightTenthMm: 254,
  dpi: 203,
  symbology: "both",
  copies: 2,
};

const BOTOX: LabelItem = {
  labelCode: "V7K3M9Q2XA",
  product: "Botox® Cosmetic",
  variation: "100 U vial",
  lot: "C3_21~X^Y",
  expirationDate: "2027-03-31",
  receivedAt: new Date("2026-11-05T23:30:00Z"),
  timeZone: "America/New_York",
};

const label = (item: LabelItem, profile: LabelProfile) => ({
  labelCode: item.labelCode,
  lines: labelLines(item, profile.fields),
});

describe("labelZpl", () => {
  it("writes a 2 × 1 in label at 203 dpi exactly: size, home, both barcodes, six text lines, copies", () => {
    // 50.8 × 25.4 mm at 8 dots/mm is 406 × 203 dots; a 1.27 mm margin is 10 dots. Code 128 of ten
    // characters is 145 modules: 2 dots each fit 386 dots with quiet zones, centred 48 dots in.
    expect(labelZpl(TWO_BY_ONE, label(BOTOX, TWO_BY_ONE))).toBe(
      [
        "^XA",
        "^CI28",
        "^PW406",
        "^LL203",
        "^LH10,10",
        "^FO48,110^BY2^BCN,73,N,N,N,A^FH^FDV7K3M9Q2XA^FS",
        "^FO4,4^BXN,4,200^FH^FDV7K3M9Q2XA^FS",
        "^FO78,0^A0N,14,14^FB308,1,0,L^FH^FDBotox_C2_AE Cosmetic^FS",
        "^FO78,17^A0N,14,14^FB308,1,0,L^FH^FD100 U vial^FS",
        "^FO78,34^A0N,14,14^FB308,1,0,L^FH^FDLot C3_5F21_7EX_5EY^FS",
        "^FO78,51^A0N,14,14^FB308,1,0,L^FH^FDExp Mar 31, 2027^FS",
        "^FO78,68^A0N,14,14^FB308,1,0,L^FH^FDRcvd Nov 5, 2026^FS",
        "^FO78,85^A0N,14,14^FB308,1,0,L^FH^FDV7K3M9Q2XA^FS",
        "^PQ2",
        "^XZ",
      ].join("\n"),
    );
  });

  it("counts dots at the printer's resolution: 203 and 300 dpi", () => {
    const size = (profile: LabelProfile) => {
      const zpl = labelZpl(profile, label(BOTOX, profile));
      return [/\^PW(\d+)/.exec(zpl)?.[1], /\^LL(\d+)/.exec(zpl)?.[1]].map(Number);
    };
    expect(size(TWO_BY_ONE)).toEqual([406, 203]);
    expect(size({ ...TWO_BY_ONE, dpi: 300 })).toEqual([600, 300]);
    expect(size(BUILT_IN_PROFILE)).toEqual([457, 254]);
    expect(size({ ...BUILT_IN_PROFILE, dpi: 300 })).toEqual([676, 376]);
    // At 300 dpi the Code 128 modules are 3 dots (0.25 mm), not 2.
    expect(labelZpl({ ...TWO_BY_ONE, dpi: 300 }, label(BOTOX, TWO_BY_ONE))).toContain("^BY3^BCN,");
  });

  it("moves the label home by the offsets, never past the label's edge", () => {
    const home = (x: number, y: number) =>
      /\^LH(\d+),(\d+)/
        .exec(labelZpl({ ...TWO_BY_ONE, offsetXTenthMm: x, offsetYTenthMm: y }, label(BOTOX, TWO_BY_ONE)))
        ?.slice(1)
        .map(Number);
    expect(home(0, 0)).toEqual([10, 10]);
    expect(home(25, -5)).toEqual([30, 6]); // +2.5 mm = 20 dots; -0.5 mm = -4 dots
    expect(home(-100, 100)).toEqual([0, 90]); // -10 mm stops at the edge; +10 mm = 80 dots
  });

  it("draws only the symbology asked for", () => {
    const only = (symbology: LabelProfile["symbology"]) =>
      labelZpl({ ...TWO_BY_ONE, symbology }, label(BOTOX, TWO_BY_ONE));
    expect(only("code128")).toContain("^BC");
    expect(only("code128")).not.toContain("^BX");
    expect(only("datamatrix")).toContain("^BX");
    expect(only("datamatrix")).not.toContain("^BC");
  });

  it("drops the lines that do not fit a vial label and cuts a long one before it would wrap", () => {
    const vial: LabelProfile = { ...TWO_BY_ONE, widthTenthMm: 381, heightTenthMm: 127, copies: 1 };
    const item = { ...BOTOX, product: "Juvederm Voluma XC with Lidocaine, 2 syringes of 1 mL" };
    const zpl = labelZpl(vial, label(item, vial));
    const texts = [...zpl.matchAll(/\^A0N[^\n]*\^FD([^^]*)\^FS/g)].map((m) => m[1]);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.length).toBeLessThan(6);
    expect(item.product.startsWith(texts[0] ?? "")).toBe(true);
    expect(texts[0]?.length).toBeLessThan(item.product.length);
    expect(zpl).toContain("^PQ1");
  });
});

describe("zplFieldData", () => {
  it("escapes the command characters and the hex indicator, and sends other characters as UTF-8 bytes", () => {
    expect(zplFieldData("A^B~C_D")).toBe("A_5EB_7EC_5FD");
    expect(zplFieldData("Crème 5 µg")).toBe("Cr_C3_A8me 5 _C2_B5g");
    expect(zplFieldData("tab\there")).toBe("tab_09here");
    expect(zplFieldData("V7K3M9Q2XA")).toBe("V7K3M9Q2XA");
  });
});

describe("zplDocument", () => {
  it("puts one ^XA … ^XZ format per label, in order", () => {
    const second = { ...BOTOX, labelCode: "V0000000001" };
    const zpl = zplDocument(TWO_BY_ONE, [label(BOTOX, TWO_BY_ONE), label(second, TWO_BY_ONE)]);
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    expect(zpl.match(/\^XZ/g)).toHaveLength(2);
    expect(zpl.indexOf("V7K3M9Q2XA")).toBeLessThan(zpl.indexOf("V0000000001"));
    expect(zpl.endsWith("^XZ\n")).toBe(true);
  });
});
