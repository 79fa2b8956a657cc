// What every count verb and screen reads first: the session as it stands, at a location the actor
// reaches with a permission (a session elsewhere is simply not there), and the SQL of its scope.
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { Permission } from "~/access/permissions";
import { locationsFor } from "~/access/scope.server";
import type { Database } from "~/db/client.server";
import type { AuditScope, AuditStatus } from "./constants";

export interface SessionRow {
  id: string;
  locationId: string;
  locationCode: string;
  locationName: string;
  timezone: string;
  organizationId: string;
  status: AuditStatus;
  scope: AuditScope;
  scopeCategory: string | null;
  scopeProductIds: string | null;
  blind: number;
  startedBy: string | null;
  startedByName: string | null;
  startedAt: number;
  submittedBy: string | null;
  submittedByName: string | null;
  submittedAt: number | null;
  reviewedBy: string | null;
  reviewedByName: string | null;
  reviewedAt: number | null;
  reviewNote: string | null;
}

const who = (column: string) =>
  sql.raw(`(SELECT u.first_name || ' ' || u.last_name FROM users AS u WHERE u.id = s.${column})`);

/** The columns of a SessionRow, read from the session aliased `s` and its location `l`. */
export const SESSION_COLUMNS = sql`s.id, s.location_id AS locationId, l.code AS locationCode, l.name AS locationName,
  l.timezone, l.organization_id AS organizationId, s.status, s.scope, s.scope_category AS scopeCategory,
  s.scope_product_ids AS scopeProductIds, s.blind, s.started_by AS startedBy, ${who("started_by")} AS startedByName,
  s.started_at AS startedAt, s.submitted_by AS submittedBy, ${who("submitted_by")} AS submittedByName,
  s.submitted_at AS submittedAt, s.reviewed_by AS reviewedBy, ${who("reviewed_by")} AS reviewedByName,
  s.reviewed_at AS reviewedAt, s.review_note AS reviewNote`;

/** SQL: the session aliased `s` is at a location `actor` reaches with `permission`. */
export function sessionReached(actor: ScopedActor, permission: Permission): SQL {
  return locationsFor(actor, permission).where(sql`s.location_id`);
}

/** The session `id` if it is at a location `actor` reaches with `permission`, as a query for a batch. */
export function sessionQuery(db: Database, actor: ScopedActor, permission: Permission, id: string) {
  return db.all<SessionRow>(sql`SELECT ${SESSION_COLUMNS}
    FROM audit_sessions AS s JOIN locations AS l ON l.id = s.location_id
    WHERE s.id = ${id} AND ${sessionReached(actor, permission)}`);
}

export async function readSession(
  db: Database,
  actor: ScopedActor,
  permission: Permission,
  id: string,
): Promise<SessionRow | null> {
  if (!id || id.length > 100) return null;
  const [row] = await sessionQuery(db, actor, permission, id);
  return row ?? null;
}

/** SQL: the product aliased `p` is in the scope of the session aliased `s`. */
export const IN_SCOPE = sql`(s.scope = 'all' OR (s.scope = 'category' AND p.category = s.scope_category)
  OR (s.scope = 'products' AND p.id IN (SELECT value FROM json_each(s.scope_product_ids))))`;

/** SQL: the session aliased `s` is open for counting (a count sent back is counted again). */
export const OPEN = sql`s.status IN ('in_progress', 'rejected')`;

/** The highest rowid of the stock ledger now: a counted line's position (ADR 0031). */
export const LEDGER_POSITION = sql`(SELECT coalesce(max(rowid), 0) FROM stock_movements)`;

/** What a session's scope says, in words: "Everything", "Category Neurotoxins", "3 products". */
export function scopeWords(row: Pick<SessionRow, "scope" | "scopeCategory" | "scopeProductIds">): string {
  if (row.scope === "category") return `Category ${row.scopeCategory ?? ""}`;
  if (row.scope === "products") {
    const n = (JSON.parse(row.scopeProductIds ?? "[]") as unknown[]).length;
    return `${n} product${n === 1 ? "" : "s"}`;
  }
  return "Everything";
}
