// CSV downloads (the usage log, a recall report): streamed a page at a time, never built whole in
// memory, each value quoted as RFC 4180 says and neutralised against spreadsheet formula injection
// (a patient reference or a note typed as "=HYPERLINK(...)" must stay text when the file is opened).

import { attachmentHeaders } from "./download.server";

/** A value a spreadsheet would run as a formula: starts with = + - @, or a tab or carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One value as a CSV field: formula starts prefixed with ', quoted when it holds , " or a line break. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record, with its CRLF. */
export function csvLine(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/**
 * A CSV download streamed from `pages`: the header line first, then each page's lines as the
 * reader asks for them (backpressure: the next page is read only once the last one is taken).
 */
export function csvResponse(
  name: string,
  header: readonly string[],
  pages: AsyncIterable<readonly (readonly (string | number | null | undefined)[])[]>,
): Response {
  const encoder = new TextEncoder();
  const iterator = pages[Symbol.asyncIterator]();
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        // A BOM so spreadsheet programs read the file as UTF-8 (names with accents).
        controller.enqueue(encoder.encode(`\uFEFF${csvLine(header)}`));
        return;
      }
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value.map(csvLine).join("")));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, { headers: attachmentHeaders(name, "csv", "text/csv; charset=utf-8", "export") });
}
