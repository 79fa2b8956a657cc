// The print sheet on screen and on paper: one `.label` per sticker, exactly the profile's size,
// barcodes inline as the server drew them. Browser-safe: it only places what the loader sent.
import type { CSSProperties } from "react";

/** A box on the label, in millimetres from its top-left corner. */
export interface Placed {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface SheetLabel {
  labelCode: string;
  code128: (Placed & { svg: string }) | null;
  dataMatrix: (Placed & { svg: string }) | null;
  lines: (Placed & { text: string })[];
  fontMm: number;
}

const at = (p: Placed): CSSProperties => ({
  position: "absolute",
  left: `${p.left}mm`,
  top: `${p.top}mm`,
  width: `${p.width}mm`,
  height: `${p.height}mm`,
});

export function LabelSheet({
  sheet,
}: {
  sheet: { widthMm: number; heightMm: number; copies: number; labels: SheetLabel[]; css: string };
}) {
  const copies = Array.from({ length: sheet.copies }, (_, i) => i);
  return (
    <>
      {/* Rendered on the server, so the print dialog has the sticker size before any script runs. */}
      <style
        // biome-ignore lint/security/noDangerouslySetInnerHtml: CSS made on the server from the profile's numbers; as text React would escape its ">"
        dangerouslySetInnerHTML={{ __html: sheet.css }}
      />
      <div className="label-sheet flex flex-wrap gap-3">
        {sheet.labels.flatMap((label) =>
          copies.map((copy) => (
            <div
              key={`${label.labelCode}-${copy}`}
              className="label relative overflow-hidden bg-white text-black outline outline-1 outline-slate-300 outline-dashed"
              data-label-code={label.labelCode}
              style={{ width: `${sheet.widthMm}mm`, height: `${sheet.heightMm}mm` }}
            >
              <div className="label-content absolute inset-0">
                {label.code128 && (
                  <div
                    data-barcode="code128"
                    style={at(label.code128)}
                    // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG drawn by bwip-js on the server from the label code
                    dangerouslySetInnerHTML={{ __html: label.code128.svg }}
                  />
                )}
                {label.dataMatrix && (
                  <div
                    data-barcode="datamatrix"
                    style={at(label.dataMatrix)}
                    // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG drawn by bwip-js on the server from the label code
                    dangerouslySetInnerHTML={{ __html: label.dataMatrix.svg }}
                  />
                )}
                {label.lines.map((line, i) => (
                  <div
                    // The lines of one label never reorder.
                    // biome-ignore lint/suspicious/noArrayIndexKey: fixed order
                    key={i}
                    className="overflow-hidden text-ellipsis whitespace-nowrap font-sans"
                    style={{ ...at(line), fontSize: `${label.fontMm}mm`, lineHeight: `${line.height}mm` }}
                  >
                    {line.text}
                  </div>
                ))}
              </div>
            </div>
          )),
        )}
      </div>
    </>
  );
}
