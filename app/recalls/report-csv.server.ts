// A recall report as a CSV download: one record per use, then one per unused vial (the Kind column
// says which), streamed in chunks through the one CSV writer. The report itself is one batch, as
// the screen reads it: a lot's uses and vials are bounded by what one lot holds.
import { csvResponse } from "~/http/csv.server";
import { showInstant } from "~/ui/dates";
import { STATE_NAMES } from "~/vials/state-badge";
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

const CHUNK = 500;

async function* records(report: RecallReport) {
  const lotColumns = [report.productName, report.variationName, report.lot];
  for (let at = 0; at < report.uses.length; at += CHUNK) {
    yield report.uses
      .slice(at, at + CHUNK)
      .map((u) => [
        "use",
        ...lotColumns,
        `${u.location.name} (${u.location.code})`,
        u.usedAt.toISOString(),
        showInstant(u.usedAt, u.location.timeZone)?.title ?? "",
        u.patientRef,
        u.unitsText,
        u.serviceName,
        u.provider,
        u.recordedBy,
        u.labelCode,
        null,
        null,
        null,
      ]);
  }
  for (let at = 0; at < report.vials.length; at += CHUNK) {
    yield report.vials
      .slice(at, at + CHUNK)
      .map((v) => [
        "unused vial",
        ...lotColumns,
        `${v.location.name} (${v.location.code})`,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
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
