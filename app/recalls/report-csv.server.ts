// A recall report as a CSV download: one record per use, then one per unused vial (the Kind column
// says which), streamed in chunks through the one CSV writer. The report itself is one batch, as
// the screen reads it: a lot's uses and vials are bounded by what one lot holds.
import { csvResponse } from "~/http/csv.server";
import { STATE_NAMES } from "~/stock/state-badge";
import { showInstant } from "~/ui/dates";
import type { RecallReport } from "./report.server";

export const REPORT_CSV_HEADER = [
  "Kind",
  "Product",
  "Variation",
  "Lot",
  "Location",
  "Used at (UTC)",
  "Used at (location time)",
  "Patient reference",
  "Units",
  "Service",
  "Provider",
  "Recorded by",
  "Vial label",
  "State",
  "Units left",
  "Expiration date",
] as const;

/** Records sent per chunk of the stream. */
const CHUNK = 500;

function* chunks<T>(list: readonly T[]): Generator<readonly T[]> {
  for (let at = 0; at < list.length; at += CHUNK) yield list.slice(at, at + CHUNK);
}

async function* records(report: RecallReport) {
  const lot = [report.productName, report.variationName, report.lot];
  const where = (l: { name: string; code: string }) => `${l.name} (${l.code})`;
  const none = (n: number) => Array<null>(n).fill(null);
  for (const uses of chunks(report.uses)) {
    yield uses.map((u) => [
      "use",
      ...lot,
      where(u.location),
      u.usedAt.toISOString(),
      showInstant(u.usedAt, u.location.timeZone)?.title ?? "",
      u.patientRef,
      u.unitsText,
      u.serviceName,
      u.provider,
      u.recordedBy,
      u.labelCode,
      ...none(3),
    ]);
  }
  for (const vials of chunks(report.vials)) {
    yield vials.map((v) => [
      "unused vial",
      ...lot,
      where(v.location),
      ...none(7),
      v.labelCode,
      STATE_NAMES[v.state],
      v.unitsText,
      v.expirationDate,
    ]);
  }
}

export function recallReportCsv(report: RecallReport): Response {
  return csvResponse(`recall-report-${report.lot}`, REPORT_CSV_HEADER, records(report));
}
