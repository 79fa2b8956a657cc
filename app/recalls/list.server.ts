// What the /recalls screen reads, in one batch: the organization's recalls in force and the latest
// lifted ones, and, when a lot is looked up, the organization's serialized variations that hold it
// (a recall quarantines vials; a chain has thousands of variations, so the lot is found first).
// A lot that no variation holds is looked for again as the lots that differ from it only in case
// or spacing ("c7988a1" for C7988A1), so the screen offers what was probably meant.
import { sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { productIdsMatching } from "~/catalog/search.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { lotKey } from "./held.server";
import { recallOf, recallRows } from "./recall.server";

/** Lifted recalls shown: the latest; older ones stay in the activity log and each lot's report. */
export const LIFTED_SHOWN = 50;

/** Variations of a looked-up lot shown: a lot is one manufacturer's batch, so a handful at most. */
export const LOT_HOLDERS_SHOWN = 20;

/** The lot looked up (as printed) and, optionally, a product search (name, SKU or code) to narrow it. */
export interface LotLookup {
  lot: string;
  product: string;
}

export interface LotHolder {
  id: string;
  name: string;
  productId: string;
  productName: string;
  /** A recall of this lot of the variation is in force: nothing to mark. */
  recalled: boolean;
}

/**
 * The organization's serialized variations with items of `lot`, names first, at most
 * LOT_HOLDERS_SHOWN. Read from items by lot (items_lot_idx), then each variation and product by
 * id: CROSS JOIN keeps that order, else the planner walks the organization's products instead.
 */
function lotHolders(db: Database, actor: Actor, { lot, product }: LotLookup) {
  return db.all<Omit<LotHolder, "recalled"> & { recalled: number }>(sql`SELECT v.id, v.name,
      p.id AS productId, p.name AS productName,
      EXISTS (SELECT 1 FROM lot_recalls AS r WHERE r.variation_id = v.id AND r.lot = ${lot}
        AND r.lifted_at IS NULL) AS recalled
    FROM (SELECT DISTINCT i.variation_id AS id FROM items AS i WHERE i.lot = ${lot}) AS held
      CROSS JOIN product_variations AS v ON v.id = held.id CROSS JOIN products AS p ON p.id = v.product_id
    WHERE p.organization_id = ${organizationOf(actor)} AND p.tracking = 'serialized'
      ${product ? sql`AND p.id IN ${productIdsMatching(actor, product)}` : sql``}
    ORDER BY lower(p.name), p.id, lower(v.name), v.id LIMIT ${LOT_HOLDERS_SHOWN}`);
}

/** Near lots offered for a lot not found: a mistyped lot has a handful of spellings at most. */
const NEAR_LOTS_SHOWN = 10;

/**
 * The lots of the organization's serialized variations (narrowed to the product search) equal to
 * `lot` but for case and spacing. Read only when the lookup found nothing: it walks the lot index
 * whole (no index finds "any case"), then checks each candidate lot by lot.
 */
async function lotsLike(db: Database, actor: Actor, { lot, product }: LotLookup): Promise<string[]> {
  const rows = await db.all<{ lot: string }>(sql`SELECT DISTINCT i.lot FROM items AS i
    WHERE i.lot IS NOT NULL AND i.lot <> ${lot} AND ${lotKey(sql`i.lot`)} = ${lotKey(sql`${lot}`)}
      AND EXISTS (SELECT 1 FROM items AS o CROSS JOIN product_variations AS v ON v.id = o.variation_id
        CROSS JOIN products AS p ON p.id = v.product_id
        WHERE o.lot = i.lot AND p.organization_id = ${organizationOf(actor)} AND p.tracking = 'serialized'
          ${product ? sql`AND p.id IN ${productIdsMatching(actor, product)}` : sql``})
    ORDER BY i.lot LIMIT ${NEAR_LOTS_SHOWN}`);
  return rows.map((r) => r.lot);
}

const holderOf = (h: Omit<LotHolder, "recalled"> & { recalled: number }): LotHolder => ({
  ...h,
  recalled: Boolean(h.recalled),
});

/** The variations holding a lot, and when none does, the lots that differ from it only in case or spacing. */
export async function findLot(db: Database, actor: Actor, lookup: LotLookup) {
  const holders = (await lotHolders(db, actor, lookup)).map(holderOf);
  return { holders, nearLots: holders.length ? [] : await lotsLike(db, actor, lookup) };
}

export async function recallsScreen(db: Database, actor: Actor, lookup: LotLookup | null = null) {
  const organization = organizationOf(actor);
  const [inForce, lifted, holders] = await db.batch([
    recallRows(db, sql`r.organization_id = ${organization} AND r.lifted_at IS NULL`, 500),
    recallRows(db, sql`r.organization_id = ${organization} AND r.lifted_at IS NOT NULL`, LIFTED_SHOWN),
    // No lot asked: an empty answer, kept in the batch so it stays one round trip either way.
    lookup ? lotHolders(db, actor, lookup) : db.all<never>(sql`SELECT 1 WHERE 0`),
  ]);
  return {
    inForce: inForce.map(recallOf),
    lifted: lifted.map(recallOf),
    holders: holders.map(holderOf),
    // A lot looked up and not found: a second read, for what was probably meant.
    nearLots: lookup && holders.length === 0 ? await lotsLike(db, actor, lookup) : [],
  };
}
