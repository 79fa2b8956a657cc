// The counts of the locations a reader reaches, newest first, a keyset page at a time (ADR 0018),
// optionally of one status: the review list (/admin/audits) and GET /api/audit-sessions.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { Permission } from "~/access/permissions";
import type { Database } from "~/db/client.server";
import { CursorParams, cappedCountSql, type Keyset, keysetList } from "~/db/keyset.server";
import { z } from "~/forms/zod";
import { AUDIT_STATUSES, type AuditStatus, SESSIONS_PAGE_SIZE } from "./constants";
import { SESSION_COLUMNS, type SessionRow, sessionReached } from "./session.server";

export const SessionListQuery = z.object({
  status: z
    .enum(["", ...AUDIT_STATUSES], { error: `Choose a status: ${AUDIT_STATUSES.join(", ")}.` })
    .optional()
    .transform((v): AuditStatus | null => (v ? v : null)),
  pageSize: z.coerce
    .number({ error: "Ask for 1 to 100 counts a page." })
    .int("Ask for 1 to 100 counts a page.")
    .min(1, "Ask for 1 to 100 counts a page.")
    .max(100, "Ask for 1 to 100 counts a page.")
    .default(SESSIONS_PAGE_SIZE),
  ...CursorParams,
});
export type SessionListInput = z.output<typeof SessionListQuery>;

export interface ListedSession extends SessionRow {
  lines: number;
}

const PAGES = keysetList<ListedSession>(
  [
    { sql: sql`s.started_at`, type: "integer", desc: true },
    { sql: sql`s.id`, type: "text", desc: true },
  ],
  (row) => [Number(row.startedAt), row.id],
);

export function sessionKeyset(query: SessionListInput): Keyset | null {
  return PAGES.keyset(query);
}

export async function listSessions(
  db: Database,
  actor: ScopedActor,
  permission: Permission,
  query: SessionListInput,
  keyset: Keyset,
) {
  const status = query.status ? sql`AND s.status = ${query.status}` : sql``;
  const past = PAGES.where(keyset);
  const where = sql`WHERE ${sessionReached(actor, permission)} ${status}`;
  const [rows, counted] = await db.batch([
    db.all<ListedSession>(sql`SELECT ${SESSION_COLUMNS},
        (SELECT count(*) FROM audit_lines AS a WHERE a.session_id = s.id) AS lines
      FROM audit_sessions AS s JOIN locations AS l ON l.id = s.location_id
      ${where} ${past ? sql`AND ${past}` : sql``}
      ORDER BY ${PAGES.orderBy(keyset)} LIMIT ${PAGES.limit(keyset)}`),
    db.all<{ total: number }>(cappedCountSql(sql`FROM audit_sessions AS s ${where}`)),
  ]);
  return PAGES.page(rows, counted[0]?.total, keyset, (row) => row);
}
