// The activity log as a CSV download: the filtered rows the reader may see, streamed page by page
// (activityPages), each with its words, the link's address and the raw action code as stored.
import type { ScopedActor } from "~/access/actor";
import { describeActivity } from "~/activity/words";
import type { Database } from "~/db/client.server";
import { csvResponse } from "~/http/csv.server";
import { showInstant } from "~/ui/dates";
import { activityPages } from "./list.server";
import type { ActivityQueryInput } from "./query";

export const ACTIVITY_CSV_HEADER = [
  "At (UTC)",
  "At (location time)",
  "User",
  "Location",
  "What happened",
  "Link",
  "Action code",
  "Entity",
  "Entity id",
] as const;

async function* activityRecords(
  db: Database,
  actor: ScopedActor,
  query: ActivityQueryInput,
  timeZone: string,
  pageSize?: number,
) {
  for await (const page of activityPages(db, actor, query, pageSize)) {
    yield page.map((e) => {
      const { text, href } = describeActivity(e);
      return [
        e.at.toISOString(),
        showInstant(e.at, e.location?.timeZone ?? timeZone)?.title ?? "",
        e.userName,
        e.location ? `${e.location.name} (${e.location.code})` : "",
        text,
        href,
        e.action,
        e.entity,
        e.entityId,
      ];
    });
  }
}

/** The filtered log as a CSV download, read `pageSize` rows a query (tests use small pages). */
export function activityCsv(
  db: Database,
  actor: ScopedActor,
  query: ActivityQueryInput,
  options: { now?: Date; pageSize?: number; timeZone?: string } = {},
): Response {
  const day = (options.now ?? new Date()).toISOString().slice(0, 10);
  return csvResponse(
    `activity-log-${day}`,
    ACTIVITY_CSV_HEADER,
    activityRecords(db, actor, query, options.timeZone ?? "UTC", options.pageSize),
  );
}
