// The barcode round trip the e2e test relies on: pictures of label codes, drawn by bwip-js (its
// Node build makes PNGs; the app draws the same symbols as SVG), read back by the ZXing helper.
import bwipjs from "bwip-js/node";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { newLabelCode } from "../../app/stock/label-code";
import { decodeBarcodes } from "../support/decode-barcode";

const png = (bcid: "code128" | "datamatrix", text: string) => bwipjs.toBuffer({ bcid, text, scale: 3 });

/** Two PNGs side by side on white, as a label carrying both symbologies looks. */
function sideBySide(left: Buffer, right: Buffer): Buffer {
  const a = PNG.sync.read(left);
  const b = PNG.sync.read(right);
  const gap = 40;
  const out = new PNG({ width: a.width + gap + b.width, height: Math.max(a.height, b.height) });
  out.data.fill(255);
  PNG.bitblt(a, out, 0, 0, a.width, a.height, 0, 0);
  PNG.bitblt(b, out, 0, 0, b.width, b.height, a.width + gap, 0);
  return PNG.sync.write(out);
}

describe("decodeBarcodes", () => {
  it("reads a Code 128 and a DataMatrix of a label code back", async () => {
    expect(decodeBarcodes(await png("code128", "V7K3M9Q2XA"))).toEqual({ code128: "V7K3M9Q2XA", dataMatrix: null });
    expect(decodeBarcodes(await png("datamatrix", "V7K3M9Q2XA"))).toEqual({ code128: null, dataMatrix: "V7K3M9Q2XA" });
  });

  it("reads both symbols of one picture, for new label codes", async () => {
    for (let i = 0; i < 5; i++) {
      const code = newLabelCode();
      const label = sideBySide(await png("datamatrix", code), await png("code128", code));
      expect(decodeBarcodes(label)).toEqual({ code128: code, dataMatrix: code });
    }
  });

  it("finds nothing in a blank picture", () => {
    const blank = new PNG({ width: 200, height: 100 });
    blank.data.fill(255);
    expect(decodeBarcodes(PNG.sync.write(blank))).toEqual({ code128: null, dataMatrix: null });
  });
});
