// What /audit reads, in few round trips: the count open at the location (in progress or sent back),
// else the newest one closed there; the lines counted by me and by others (newest first, with what
// the system expected unless the count is blind); bulk products and sizes in scope matching a search
// (for the bulk entry); and what a new count may cover (the categories and products).
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { formatQuantity, type UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { readReport } from "./report.server";
import { IN_SCOPE, SESSION_COLUMNS, type SessionRow } from "./session.server";

/** Lines each list on the count page shows (the review shows them all). */
export const LINES_SHOWN = 100;
/** Bulk matches a search shows. */
export const MATCHES_SHOWN = 20;

export interface ShownLine {
  id: string;
  what: string;
  detail: string;
  counted: string;
  expected: string | null;
  found: string | null;
  countedBy: string | null;
  countedAt: number;
  mine: boolean;
}

const units = (n: number, r: { unitScale: UnitScale; baseUnit: string }) => formatQuantity(n, r.unitScale, r.baseUnit);

export async function countScreen(db: Database, actor: ScopedActor, locationId: string, search: string) {
  const organization = organizationOf(actor);
  const [open, latest, categories, products] = await db.batch([
    db.all<SessionRow>(sql`SELECT ${SESSION_COLUMNS} FROM audit_sessions AS s JOIN locations AS l ON l.id = s.location_id
      WHERE s.location_id = ${locationId} AND s.status IN ('in_progress', 'rejected')`),
    db.all<SessionRow>(sql`SELECT ${SESSION_COLUMNS} FROM audit_sessions AS s JOIN locations AS l ON l.id = s.location_id
      WHERE s.location_id = ${locationId} ORDER BY s.started_at DESC, s.id DESC LIMIT 1`),
    db.all<{ category: string }>(sql`SELECT DISTINCT category FROM products
      WHERE organization_id = ${organization} AND active = 1 ORDER BY category`),
    db.all<{ id: string; name: string }>(sql`SELECT id, name FROM products
      WHERE organization_id = ${organization} AND active = 1 ORDER BY lower(name), id`),
  ]);
  const session = open[0] ?? null;
  if (!session) return { session: null, latest: latest[0] ?? null, categories, products, lines: [], matches: [] };
  const report = await readReport(db, session, { linesOnly: true });
  const blind = Boolean(Number(session.blind));
  const lines: ShownLine[] = [
    ...report.vials.map((v) => ({
      id: v.lineId,
      what: `${v.product} · ${v.variation}`,
      detail: `Vial ${v.labelCode}${v.lot ? ` · lot ${v.lot}` : ""}`,
      counted: units(v.counted, v),
      expected: blind || v.found ? null : units(v.expected, v),
      found: v.found
        ? v.itemLocationId !== session.locationId
          ? `Found: the system has it at ${v.itemLocationCode}`
          : `Found: the system has it as ${v.state.replace("_", " ")}`
        : null,
      countedBy: v.countedBy,
      countedAt: v.countedAt,
      mine: v.countedById === actor.id,
    })),
    ...report.bulk.flatMap((b) =>
      b.lines.map((l) => ({
        id: l.lineId,
        what: `${b.product} · ${b.variation}`,
        detail: `Bulk${l.lot ? ` · lot ${l.lot}` : ""}`,
        counted: units(l.quantity, b),
        expected: blind ? null : `${units(b.expected, b)} in all`,
        found: null,
        countedBy: l.countedBy,
        countedAt: l.countedAt,
        mine: l.countedById === actor.id,
      })),
    ),
  ].sort((a, b) => b.countedAt - a.countedAt || (a.id < b.id ? 1 : -1));
  const q = search.trim().toLowerCase();
  const matches = q
    ? await db.all<{ variationId: string; product: string; variation: string; baseUnit: string }>(sql`SELECT
          v.id AS variationId, p.name AS product, v.name AS variation, p.base_unit AS baseUnit
        FROM audit_sessions AS s, products AS p JOIN product_variations AS v ON v.product_id = p.id
        WHERE s.id = ${session.id} AND p.organization_id = ${organization} AND p.tracking = 'bulk' AND v.active = 1
          AND ${IN_SCOPE} AND (instr(lower(p.name), ${q}) > 0 OR instr(lower(v.name), ${q}) > 0
            OR instr(lower(coalesce(v.sku, '')), ${q}) > 0)
        ORDER BY lower(p.name), lower(v.name), v.id LIMIT ${MATCHES_SHOWN}`)
    : [];
  return {
    session,
    latest: latest[0] ?? null,
    categories,
    products,
    lines: lines.slice(0, LINES_SHOWN * 2),
    lineCount: lines.length,
    matches,
  };
}
