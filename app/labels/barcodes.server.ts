// Barcodes as SVG strings, drawn on the server by bwip-js (its generic build runs in Workers); the
// browser only receives the markup, never the library.
import { code128, datamatrix, drawingSVG } from "bwip-js/generic";

export interface BarcodeSvg {
  svg: string;
  /** Modules across the symbol (bars for Code 128, cells for DataMatrix). */
  modules: number;
}

/** The SVG fills the box the page gives it; each symbol's box keeps its modules whole printer dots. */
function fitted(svg: string, label: string, stretch: boolean): string {
  const attributes = [
    'width="100%"',
    'height="100%"',
    stretch ? 'preserveAspectRatio="none"' : "",
    'shape-rendering="crispEdges"',
    'role="img"',
    `aria-label="${label}"`,
  ].filter(Boolean);
  return svg.replace("<svg ", `<svg ${attributes.join(" ")} `).trim();
}

const viewBoxWidth = (svg: string) => Number(/viewBox="0 0 (\d+(?:\.\d+)?) /.exec(svg)?.[1] ?? 0);

/** At scale 1 bwip-js draws one unit per Code 128 module; the bars stretch to the box's height. */
export function code128Svg(text: string): BarcodeSvg {
  const svg = code128({ bcid: "code128", text, scale: 1, height: 10 }, drawingSVG());
  return { svg: fitted(svg, `Code 128: ${escapeAttribute(text)}`, true), modules: viewBoxWidth(svg) };
}

/** At scale 1 bwip-js draws DataMatrix cells two units wide. */
export function dataMatrixSvg(text: string): BarcodeSvg {
  const svg = datamatrix({ bcid: "datamatrix", text, scale: 1 }, drawingSVG());
  return { svg: fitted(svg, `DataMatrix: ${escapeAttribute(text)}`, false), modules: viewBoxWidth(svg) / 2 };
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
