// The dashboard's recent activity (READ_ACTIVITY): the newest rows of the activity log the reader
// may see (app/activity-log, its rule of who sees which rows), each in words with its link
// (app/activity/words.ts), as the log shows them.
import type { ScopedActor } from "~/access/actor";
import { describeActivity } from "~/activity/words";
import { recentActivityQuery } from "~/activity-log/list.server";
import type { Database } from "~/db/client.server";

/** Rows the widget (and GET /api/dashboard/recent-activity) shows; the log lists the rest. */
export const RECENT_ACTIVITY_SIZE = 10;

export interface RecentActivity {
  id: string;
  at: number;
  /** What happened, in words, and where it lives in the app (null: no page). */
  text: string;
  href: string | null;
  action: string;
  userName: string | null;
  location: { code: string; name: string; timeZone: string } | null;
}

export function recentActivityQueries(db: Database, actor: ScopedActor) {
  const { statement, entries } = recentActivityQuery(db, actor, RECENT_ACTIVITY_SIZE);
  return {
    statements: [statement] as const,
    read: (results: readonly unknown[]): RecentActivity[] =>
      entries(results[0] as Parameters<typeof entries>[0]).map((entry) => {
        const words = describeActivity(entry);
        return {
          id: entry.id,
          at: entry.at.getTime(),
          text: words.text,
          href: words.href,
          action: entry.action,
          userName: entry.userName,
          location: entry.location,
        };
      }),
  };
}
