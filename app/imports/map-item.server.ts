// Unknown items and their mapping (issue 24 item 2). A point-of-sale item no code, SKU, GTIN or
// name recognised is kept as `unmapped`, its rows imported all the same; mapping it to a service, a
// bulk-tracked retail variation, or "not stock" (ignored) is ONE update of its sale_items row, so
// every line already imported follows it (reconciliation joins lines through sale_items). A job's
// `unmapped` count stays what it was at import (history). Lines of an item mapped retail are booked
// from stock by the next worker run (bookings.server.ts).
import { sql } from "drizzle-orm";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { can } from "~/access/permissions";
import { changeWithActivity } from "~/activity/change.server";
import { productMatching } from "~/catalog/search.server";
import type { Database } from "~/db/client.server";
import { anyContains, organizationOf } from "~/db/sql.server";
import { type Outcome, refusalsOf } from "~/outcome";
import { MapSaleItemBody, type MapSaleItemInput } from "./map-form";

export const { messages: MAP_ITEM_REFUSALS, refuse } = refusalsOf({
  invalid: "Check the mapping and try again.",
  not_found: "That sold item does not exist in your organization.",
  service_unavailable: "That service is archived or not in your catalogue. Choose an active service.",
  variation_unavailable: "That product variation is archived or not in your catalogue. Choose an active one.",
  tracked_by_vial: "That product is tracked vial by vial: its vials are drawn at the cart, not sold off the shelf.",
});

/** Unknown items a page lists. */
export const UNKNOWN_ITEMS_PAGE_SIZE = 25;

interface Target {
  id: string;
  label: string;
  active: number;
  tracking?: string;
  productName?: string;
}

/** Maps a sold item to a service, a bulk-tracked retail variation, or nothing (not stock). */
export async function mapSaleItem(
  db: Database,
  actor: ScopedActor,
  input: MapSaleItemInput,
): Promise<Outcome<{ saleItemId: number }>> {
  const read = MapSaleItemBody.safeParse(input);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  if (!can(actor, "WRITE_IMPORTS", actor.locationId)) return refuse("forbidden");
  const { saleItemId, kind, targetId } = read.data;
  const org = organizationOf(actor);
  const [items, services, variations] = await db.batch([
    db.all<{ id: number }>(sql`SELECT id FROM sale_items WHERE id = ${saleItemId} AND organization_id = ${org}`),
    db.all<Target>(sql`SELECT id, name AS label, active FROM services
      WHERE id = ${targetId} AND organization_id = ${org}`),
    db.all<Target>(sql`SELECT v.id, p.name || ' · ' || v.name AS label, v.active AND p.active AS active, p.tracking,
        p.name AS productName
      FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
      WHERE v.id = ${targetId} AND p.organization_id = ${org}`),
  ]);
  if (!items[0]) return refuse("not_found");
  let target: SQLTarget;
  if (kind === "service") {
    const service = services[0];
    if (!service || !Number(service.active)) return refuse("service_unavailable");
    target = {
      label: service.label,
      set: sql`kind = 'service', service_id = ${service.id}, variation_id = NULL`,
      guard: sql`EXISTS (SELECT 1 FROM services AS s WHERE s.id = ${service.id} AND s.organization_id = ${org} AND s.active = 1)`,
    };
  } else if (kind === "retail") {
    const variation = variations[0];
    if (!variation || !Number(variation.active)) return refuse("variation_unavailable");
    if (variation.tracking !== "bulk")
      return refuse(
        "tracked_by_vial",
        `${variation.productName} is tracked vial by vial: draw its vials at the cart, where each one is scanned, rather than selling it off the shelf.`,
      );
    target = {
      label: variation.label,
      set: sql`kind = 'retail', service_id = NULL, variation_id = ${variation.id}`,
      guard: sql`EXISTS (SELECT 1 FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
        WHERE v.id = ${variation.id} AND p.organization_id = ${org} AND p.tracking = 'bulk' AND p.active = 1 AND v.active = 1)`,
    };
  } else {
    target = { label: "not stock", set: sql`kind = 'ignored', service_id = NULL, variation_id = NULL`, guard: sql`1` };
  }
  const guard = sql`i.id = ${saleItemId} AND i.organization_id = ${org} AND ${target.guard}`;
  const { updated } = await changeWithActivity(db, {
    from: sql`sale_items AS i`,
    guard,
    activity: {
      userId: actor.id,
      locationId: activityLocation(actor),
      action: "map_sale_item",
      entity: "sale_item",
      entityId: String(saleItemId),
      summary: sql`json_object('name', i.name, 'target', ${target.label}, 'was', i.kind)`,
    },
    update: db.all<{ id: number }>(sql`UPDATE sale_items AS i SET ${target.set}, mapped_by = ${actor.id},
        mapped_at = ${Date.now()} WHERE ${guard} RETURNING id`),
    readBack: db.all<{ id: number }>(sql`SELECT id FROM sale_items WHERE id = ${saleItemId}`),
  });
  if (updated.length !== 1)
    return refuse(
      kind === "service" ? "service_unavailable" : kind === "retail" ? "variation_unavailable" : "not_found",
    );
  return { ok: true, saleItemId };
}

interface SQLTarget {
  label: string;
  set: ReturnType<typeof sql>;
  guard: ReturnType<typeof sql>;
}

export interface UnknownItem {
  id: number;
  name: string;
  sku: string | null;
  gtin: string | null;
  lines: number;
  units: number;
}

/**
 * The statements of a page of the organization's unknown items, the most sold first, each with its
 * lines and units sold (net of refunds), counted by the lines' (sale item, …) index: for a page's
 * one batch (unknownItemsOf reads them).
 */
export function unknownItemsQueries(db: Database, actor: ScopedActor, page: number) {
  const org = organizationOf(actor);
  const offset = (Math.max(1, Math.floor(page)) - 1) * UNKNOWN_ITEMS_PAGE_SIZE;
  return [
    // One pass over each unknown item's lines, read from their item index (which carries the quantity).
    db.all<UnknownItem>(sql`SELECT i.id, i.name, i.sku, i.gtin, count(l.id) AS lines,
        coalesce(sum(l.quantity), 0) AS units
      FROM sale_items AS i LEFT JOIN sales_lines AS l INDEXED BY sales_lines_item_location_sold_idx
        ON l.sale_item_id = i.id
      WHERE i.organization_id = ${org} AND i.kind = 'unmapped'
      GROUP BY i.id ORDER BY lines DESC, lower(i.name), i.id LIMIT ${UNKNOWN_ITEMS_PAGE_SIZE} OFFSET ${offset}`),
    db.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM sale_items WHERE organization_id = ${org} AND kind = 'unmapped'`,
    ),
  ] as const;
}

/** The organization's unknown items, a page at a time (see unknownItemsQueries). */
export async function unknownItems(
  db: Database,
  actor: ScopedActor,
  page: number,
): Promise<{ items: UnknownItem[]; total: number }> {
  if (!can(actor, "READ_IMPORTS", actor.locationId)) return { items: [], total: 0 };
  const [items, totals] = await db.batch(unknownItemsQueries(db, actor, page));
  return unknownItemsOf(items, totals);
}

export function unknownItemsOf(items: UnknownItem[], totals: { n: number }[]): { items: UnknownItem[]; total: number } {
  return {
    items: items.map((i) => ({ ...i, id: Number(i.id), lines: Number(i.lines), units: Number(i.units) })),
    total: Number(totals[0]?.n ?? 0),
  };
}

/** Choices a mapping page lists of each kind (a search narrows them). */
export const MAPPING_CHOICES = 30;

/**
 * The one item a mapping page is about (of the actor's organization, with its lines and units), and
 * what it may become: active services, and active bulk-tracked variations (retail), each whose name
 * or code contains `q` (a variation also by its product's search: SKU, GTIN, barcode typed whole),
 * the first MAPPING_CHOICES by name. Without `q`, the services only: a catalogue's thousands of
 * variations are found by searching, never listed whole.
 */
export function mappingChoicesQueries(db: Database, actor: ScopedActor, saleItemId: number, q: string) {
  const org = organizationOf(actor);
  const services = q ? sql`AND ${anyContains(q, [sql`s.name`, sql`s.code`])}` : sql``;
  return [
    db.all<UnknownItem & { kind: string }>(sql`SELECT i.id, i.name, i.sku, i.gtin, i.kind,
        (SELECT count(*) FROM sales_lines AS l WHERE l.sale_item_id = i.id) AS lines,
        (SELECT coalesce(sum(l.quantity), 0) FROM sales_lines AS l WHERE l.sale_item_id = i.id) AS units
      FROM sale_items AS i WHERE i.id = ${saleItemId} AND i.organization_id = ${org}`),
    db.all<{ id: string; name: string; code: string }>(sql`SELECT s.id, s.name, s.code FROM services AS s
      WHERE s.organization_id = ${org} AND s.active = 1 ${services}
      ORDER BY s.name, s.id LIMIT ${MAPPING_CHOICES}`),
    db.all<{ id: string; name: string; sku: string | null }>(
      q
        ? // products unaliased: productMatching names its columns by the table's own name.
          sql`SELECT v.id, products.name || ' · ' || v.name AS name, v.sku
          FROM products JOIN product_variations AS v ON v.product_id = products.id
          WHERE products.organization_id = ${org} AND products.tracking = 'bulk' AND products.active = 1
            AND v.active = 1 AND (${productMatching(q)} OR ${anyContains(q, [sql`v.name`])})
          ORDER BY products.name, v.name, v.id LIMIT ${MAPPING_CHOICES}`
        : sql`SELECT NULL AS id, NULL AS name, NULL AS sku WHERE 0`,
    ),
  ] as const;
}
