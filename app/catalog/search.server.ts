// Finding catalogue rows from another list: the product search every list shares (inventory,
// stock levels, usage log, recalls, products), and the one product or variation a list is filtered
// to. Shared by every domain that lists stock, so it lives with the catalogue, not in a feature.

import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { checkBarcode } from "~/catalog/barcode";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { anyContains, organizationOf, valueList } from "~/db/sql.server";
import { gtinCandidates } from "./gtin";

const p = schema.products;

/**
 * Products whose name, SKU or manufacturer contains `q`, or with a variation whose GTIN, SKU or
 * barcode is `q` (typed or scanned into the search box).
 */
export function productMatching(q: string): SQL | undefined {
  if (!q) return undefined;
  const barcode = checkBarcode(q);
  const gtins = gtinCandidates(q.replace(/\s+/g, ""));
  const codes: SQL[] = [sql`lower(v.sku) = ${q.toLowerCase()}`];
  if (gtins.length) codes.push(sql`v.gtin IN (${valueList(gtins)})`);
  if (barcode.valid) codes.push(sql`v.id IN (SELECT b.variation_id FROM barcodes AS b WHERE b.code = ${barcode.code})`);
  // The variations are found once, each code through its own index, not looked for under every product.
  return sql`(${anyContains(q, [p.name, p.sku, p.manufacturer])}
    OR ${p.id} IN (SELECT v.product_id FROM product_variations AS v WHERE ${sql.join(codes, sql` OR `)}))`;
}

/**
 * The ids of the actor's products that a list's product search `q` matches (name, SKU or
 * manufacturer containing it, or a variation's code typed whole), as a subquery for `IN`.
 */
export function productIdsMatching(actor: Actor, q: string): SQL {
  return sql`(SELECT ${p.id} FROM ${p} WHERE ${p.organizationId} = ${organizationOf(actor)} AND ${productMatching(q) ?? sql`1`})`;
}

/**
 * The ids of the variations of one product (an id) or of the products a subquery names (e.g.
 * `productIdsMatching`), as a subquery for a list filtering its rows by variation.
 */
export function variationIdsOf(products: string | SQL): SQL {
  const which = typeof products === "string" ? sql`= ${products}` : sql`IN ${products}`;
  return sql`(SELECT id FROM product_variations WHERE product_id ${which})`;
}

/**
 * The one product or variation a list is filtered to by id (a link from its page, or the API's
 * filter), by name, as ProductFilter shows it: at most one row, none when neither id is given.
 */
export function chosenProduct(db: Database, actor: Actor, filter: { productId?: string; variationId?: string }) {
  const organization = organizationOf(actor);
  return db.all<{ name: "productId" | "variationId"; id: string; label: string }>(
    filter.variationId
      ? sql`SELECT 'variationId' AS name, v.id, p.name || ' · ' || v.name AS label
          FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
          WHERE v.id = ${filter.variationId} AND p.organization_id = ${organization}`
      : sql`SELECT 'productId' AS name, id, name AS label FROM products
          WHERE id = ${filter.productId ?? ""} AND organization_id = ${organization}`,
  );
}
