// The usage log as a CSV download: the filtered entries, streamed page by page (usagePages).
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { csvResponse } from "~/http/csv.server";
import { showInstant } from "~/ui/dates";
import { usagePages } from "./list.server";
import type { UsageQueryInput } from "./query";

export const USAGE_CSV_HEADER = [
  "Used at (UTC)",
  "Used at (location time)",
  "Location",
  "Product",
  "Variation",
  "Lot",
  "Vial label",
  "Units",
  "Service",
  "Provider",
  "Patient reference",
  "Recorded by",
] as const;

async function* usageRecords(db: Database, actor: ScopedActor, query: UsageQueryInput) {
  for await (const page of usagePages(db, actor, query)) {
    yield page.map((e) => [
      e.usedAt.toISOString(),
      showInstant(e.usedAt, e.location.timeZone)?.title ?? "",
      `${e.location.name} (${e.location.code})`,
      e.productName,
      e.variationName,
      e.lot,
      e.labelCode,
      e.unitsText,
      e.serviceName,
      e.provider,
      e.patientRef,
      e.recordedBy,
    ]);
  }
}

export function usageCsv(db: Database, actor: ScopedActor, query: UsageQueryInput, now = new Date()): Response {
  return csvResponse(`usage-log-${now.toISOString().slice(0, 10)}`, USAGE_CSV_HEADER, usageRecords(db, actor, query));
}
