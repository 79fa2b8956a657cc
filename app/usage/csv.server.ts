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

async function* usageRecords(db: Database, actor: ScopedActor, query: UsageQueryInput, pageSize?: number) {
  for await (const page of usagePages(db, actor, query, pageSize)) {
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

/** The filtered log as a CSV download, read `pageSize` rows a query (tests use small pages). */
export function usageCsv(
  db: Database,
  actor: ScopedActor,
  query: UsageQueryInput,
  options: { now?: Date; pageSize?: number } = {},
): Response {
  const day = (options.now ?? new Date()).toISOString().slice(0, 10);
  return csvResponse(`usage-log-${day}`, USAGE_CSV_HEADER, usageRecords(db, actor, query, options.pageSize));
}
