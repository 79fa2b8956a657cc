// What /audit reads, in one round trip: the count open at the location (in progress or sent back),
// else the newest one closed there; the newest lines counted by me and by others (with what the
// system expected unless the count is blind), and how many there are (a shelf counted again after the
// count was sent back replaces the earlier ones); bulk products and sizes in
// scope matching a search (for the bulk entry); and what a new count may cover (the categories, and
// the products chosen so far with those matching a product search). Each statement finds the open
// count by the location's one-open index, so nothing waits for the session to be read first.
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { formatQuantity, type UnitScale } from "~/catalog/format";
import { productIdsMatching } from "~/catalog/search.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { current, onHandHere, pairAfter, VIAL_AFTER } from "./report.server";
import { IN_SCOPE, OPEN, SESSION_COLUMNS, type SessionRow } from "./session.server";

/** Lines each list on the count page shows, newest first (the review shows them all). */
export const LINES_SHOWN = 50;
/** Bulk matches a search shows. */
export const MATCHES_SHOWN = 20;
/** Products a product search offers for a new count's scope. */
export const PRODUCT_MATCHES_SHOWN = 30;
/** Products a new count's scope may name (the form's limit too). */
export const PRODUCTS_PICKED_MAX = 200;

export interface ShownLine {
  id: string;
  what: string;
  detail: string;
  counted: string;
  expected: string | null;
  found: string | null;
  countedBy: string | null;
  countedAt: number;
}

export interface CountScreenInput {
  /** The bulk entry's search. */
  search: string;
  /** A new count's product search, and the products chosen so far. */
  productSearch: string;
  picked: readonly string[];
}

const units = (n: number, r: { unitScale: UnitScale; baseUnit: string }) => formatQuantity(n, r.unitScale, r.baseUnit);
const num = (v: unknown) => Number(v ?? 0);

export async function countScreen(db: Database, actor: ScopedActor, locationId: string, input: CountScreenInput) {
  const organization = organizationOf(actor);
  const open = sql`s.location_id = ${locationId} AND ${OPEN}`;
  const picked = input.picked.slice(0, PRODUCTS_PICKED_MAX);
  const productQ = input.productSearch.trim();
  const q = input.search.trim().toLowerCase();
  // The newest lines of the open count counted by me (or by others), each with what the system
  // expected when it was counted: a vial's units now less what it moved since; a product and size
  // in bulk, on hand now less what moved of it here since its newest line (in all, every shelf).
  // Led by the line index in its order (the count found by the location's one-open index, as a
  // value), so the LIMIT stops the walk and only the lines shown work out their expectations.
  const openId = sql`(SELECT o.id FROM audit_sessions AS o WHERE o.location_id = ${locationId}
    AND o.status IN ('in_progress', 'rejected'))`;
  const newest = (index: "audit_lines_session_counter_idx" | "audit_lines_session_counted_idx", whose: SQL) =>
    db.all<Record<string, unknown>>(sql`SELECT a.id, a.item_id AS itemId, a.lot AS lineLot, a.quantity AS counted,
        a.found, a.counted_at AS countedAt,
        (SELECT u.first_name || ' ' || u.last_name FROM users AS u WHERE u.id = a.counted_by) AS countedBy,
        p.name AS product, v.name AS variation, p.unit_scale AS unitScale, p.base_unit AS baseUnit,
        i.label_code AS labelCode, i.lot, i.state, i.location_id AS itemLocationId, il.code AS itemLocationCode,
        CASE WHEN a.item_id IS NOT NULL THEN i.units_remaining - ${VIAL_AFTER}
          ELSE ${onHandHere(sql`a.variation_id`)} - ${pairAfter(
            sql`a.variation_id`,
            sql`(SELECT max(b.ledger_position) FROM audit_lines AS b WHERE b.session_id = s.id
              AND b.variation_id = a.variation_id AND b.item_id IS NULL)`,
          )} END AS expected
      FROM audit_lines AS a INDEXED BY ${sql.raw(index)} JOIN audit_sessions AS s ON s.id = a.session_id
        JOIN product_variations AS v ON v.id = a.variation_id JOIN products AS p ON p.id = v.product_id
        LEFT JOIN items AS i ON i.id = a.item_id LEFT JOIN locations AS il ON il.id = i.location_id
      WHERE a.session_id = ${openId} AND ${whose} AND (a.item_id IS NOT NULL OR ${current(openId)})
      ORDER BY a.counted_at DESC, a.id DESC LIMIT ${LINES_SHOWN}`);
  const [sessions, latest, categories, products, mine, others, lineCount, matches] = await db.batch([
    db.all<SessionRow>(sql`SELECT ${SESSION_COLUMNS} FROM audit_sessions AS s JOIN locations AS l ON l.id = s.location_id
      WHERE ${open}`),
    db.all<SessionRow>(sql`SELECT ${SESSION_COLUMNS} FROM audit_sessions AS s JOIN locations AS l ON l.id = s.location_id
      WHERE s.location_id = ${locationId} ORDER BY s.started_at DESC, s.id DESC LIMIT 1`),
    // What a new count may cover: read only while none is open (led by a row that is there only then).
    db.all<{ category: string }>(sql`SELECT DISTINCT category
      FROM (SELECT 1 WHERE NOT EXISTS ${openId}) AS startable CROSS JOIN products
      WHERE organization_id = ${organization} AND active = 1 ORDER BY category`),
    // The products chosen so far, then those a product search matches (none read without either).
    db.all<{ id: string; name: string; picked: number }>(sql`SELECT id, name,
        id IN (SELECT value FROM json_each(${JSON.stringify(picked)})) AS picked
      FROM (SELECT 1 WHERE ${picked.length > 0 || productQ !== "" ? sql`NOT EXISTS ${openId}` : sql`0`}) AS startable
        CROSS JOIN products
      WHERE organization_id = ${organization} AND active = 1
        AND (id IN (SELECT value FROM json_each(${JSON.stringify(picked)}))
          OR (${productQ} <> '' AND id IN ${productIdsMatching(actor, productQ)}))
      ORDER BY picked DESC, lower(name), id LIMIT ${picked.length + PRODUCT_MATCHES_SHOWN}`),
    newest("audit_lines_session_counter_idx", sql`a.counted_by = ${actor.id}`),
    newest("audit_lines_session_counted_idx", sql`a.counted_by IS NOT ${actor.id}`),
    db.all<{ n: number }>(sql`SELECT count(*) AS n FROM audit_lines AS a
      WHERE a.session_id = ${openId} AND (a.item_id IS NOT NULL OR ${current(openId)})`),
    db.all<{ variationId: string; product: string; variation: string; baseUnit: string }>(sql`SELECT
          v.id AS variationId, p.name AS product, v.name AS variation, p.base_unit AS baseUnit
        FROM audit_sessions AS s, products AS p JOIN product_variations AS v ON v.product_id = p.id
        WHERE ${open} AND ${q} <> '' AND p.organization_id = ${organization} AND p.tracking = 'bulk' AND v.active = 1
          AND ${IN_SCOPE} AND (instr(lower(p.name), ${q}) > 0 OR instr(lower(v.name), ${q}) > 0
            OR instr(lower(coalesce(v.sku, '')), ${q}) > 0)
        ORDER BY lower(p.name), lower(v.name), v.id LIMIT ${MATCHES_SHOWN}`),
  ]);
  const session = sessions[0] ?? null;
  const blind = Boolean(num(session?.blind));
  const shown = (r: Record<string, unknown>): ShownLine => {
    const scale = { unitScale: num(r.unitScale) as UnitScale, baseUnit: String(r.baseUnit) };
    const vial = r.itemId !== null;
    const found = vial && Boolean(num(r.found));
    const lot = (vial ? r.lot : r.lineLot) as string | null;
    return {
      id: String(r.id),
      what: `${r.product} · ${r.variation}`,
      detail: vial ? `Vial ${r.labelCode}${lot ? ` · lot ${lot}` : ""}` : `Bulk${lot ? ` · lot ${lot}` : ""}`,
      counted: units(num(r.counted), scale),
      expected:
        blind || found ? null : vial ? units(num(r.expected), scale) : `${units(num(r.expected), scale)} in all`,
      found: found
        ? r.itemLocationId !== locationId
          ? `Found: the system has it at ${r.itemLocationCode}`
          : `Found: the system has it as ${String(r.state).replace("_", " ")}`
        : null,
      countedBy: (r.countedBy as string | null) ?? null,
      countedAt: num(r.countedAt),
    };
  };
  return {
    session,
    latest: latest[0] ?? null,
    categories,
    products: products.map((p) => ({ id: p.id, name: p.name, picked: Boolean(num(p.picked)) })),
    mine: session ? mine.map(shown) : [],
    others: session ? others.map(shown) : [],
    lineCount: num(lineCount[0]?.n),
    matches: session ? matches : [],
  };
}
