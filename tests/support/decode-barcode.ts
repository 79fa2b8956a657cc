// Reads the barcodes back out of a picture of a label (a PNG, e.g. a Playwright screenshot of one
// `.label`): the texts of its Code 128 and its DataMatrix, each looked for on its own over the
// whole image, so a label carrying both gives both. ZXing's DataMatrix detector searches outward
// from the centre and loses a symbol that sits beside other ink, so when the whole picture gives
// none, each square-ish patch of ink (a DataMatrix's solid L border makes one) is tried alone.
// Node only (pngjs + @zxing/library).
import { createRequire } from "node:module";
import { PNG } from "pngjs";

// @zxing/library ships CommonJS for Node and an ES build only bundlers find: loaded with require,
// it is the same module under vitest, Playwright and plain Node.
const { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } =
  createRequire(import.meta.url)("@zxing/library") as typeof import("@zxing/library");
type BarcodeFormat = import("@zxing/library").BarcodeFormat;
type DecodeHintType = import("@zxing/library").DecodeHintType;

/** The CommonJS build warns for every symbol it does not find (a failed instanceof): not news here. */
function quietly<T>(work: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).startsWith("MultiFormatReader: non-ReaderException")) warn(...args);
  };
  try {
    return work();
  } finally {
    console.warn = warn;
  }
}

export interface DecodedBarcodes {
  code128: string | null;
  dataMatrix: string | null;
}

/** White added around the picture: the detectors need a quiet zone even when the symbol touches the edge. */
const BORDER = 16;

/** Grey levels of the PNG on a white background (transparent pixels are paper), with a white border. */
interface Grey {
  pixels: Uint8ClampedArray;
  width: number;
  height: number;
}

function luminances(png: Buffer): Grey {
  const image = PNG.sync.read(png);
  const width = image.width + 2 * BORDER;
  const height = image.height + 2 * BORDER;
  const pixels = new Uint8ClampedArray(width * height).fill(255);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      const alpha = (image.data[i + 3] ?? 255) / 255;
      const grey =
        ((image.data[i] ?? 0) * 299 + (image.data[i + 1] ?? 0) * 587 + (image.data[i + 2] ?? 0) * 114) / 1000;
      pixels[(y + BORDER) * width + x + BORDER] = grey * alpha + 255 * (1 - alpha);
    }
  }
  return { pixels, width, height };
}

function decodeAs(format: BarcodeFormat, image: Grey): string | null {
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [format]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  const source = new RGBLuminanceSource(image.pixels, image.width, image.height);
  try {
    // The hints go to decode() itself: without them it falls back to every format.
    const result = quietly(() => new MultiFormatReader().decode(new BinaryBitmap(new HybridBinarizer(source)), hints));
    return result.getBarcodeFormat() === format ? result.getText() : null;
  } catch {
    // NotFoundException, ChecksumException, FormatException: no readable symbol of this kind.
    return null;
  }
}

/** Bounding boxes of the connected patches of dark pixels that are roughly square, largest first. */
function squarePatches(image: Grey): { x: number; y: number; width: number; height: number }[] {
  const { pixels, width, height } = image;
  const seen = new Uint8Array(width * height);
  const patches: { x: number; y: number; width: number; height: number }[] = [];
  const stack: number[] = [];
  for (let start = 0; start < pixels.length; start++) {
    if (seen[start] || (pixels[start] ?? 255) >= 128) continue;
    let [minX, minY, maxX, maxY] = [width, height, 0, 0];
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const at = stack.pop() ?? 0;
      const x = at % width;
      const y = (at - x) / width;
      [minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)];
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const next = ny * width + nx;
          if (seen[next] || (pixels[next] ?? 255) >= 128) continue;
          seen[next] = 1;
          stack.push(next);
        }
      }
    }
    const box = { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
    const ratio = box.width / box.height;
    if (box.width >= 10 && box.height >= 10 && ratio > 0.8 && ratio < 1.25) patches.push(box);
  }
  return patches.sort((a, b) => b.width * b.height - a.width * a.height).slice(0, 12);
}

/** A copy of part of the picture, with a white quiet zone of a quarter of its size around it. */
function crop(image: Grey, box: { x: number; y: number; width: number; height: number }): Grey {
  const pad = Math.ceil(Math.max(box.width, box.height) / 4);
  const width = box.width + 2 * pad;
  const height = box.height + 2 * pad;
  const pixels = new Uint8ClampedArray(width * height).fill(255);
  for (let y = 0; y < box.height; y++) {
    const from = (box.y + y) * image.width + box.x;
    pixels.set(image.pixels.subarray(from, from + box.width), (y + pad) * width + pad);
  }
  return { pixels, width, height };
}

export function decodeBarcodes(png: Buffer): DecodedBarcodes {
  const image = luminances(png);
  let dataMatrix = decodeAs(BarcodeFormat.DATA_MATRIX, image);
  for (const patch of dataMatrix === null ? squarePatches(image) : []) {
    dataMatrix = decodeAs(BarcodeFormat.DATA_MATRIX, crop(image, patch));
    if (dataMatrix !== null) break;
  }
  return { code128: decodeAs(BarcodeFormat.CODE_128, image), dataMatrix };
}
