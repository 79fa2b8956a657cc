// The categories of an organization's active products, for a list's category filter. Read by
// skipping from one category to the next along products_org_category_idx (a seek and the first
// active product's row each: a handful of categories, a few hundred steps) instead of a DISTINCT
// over every product (4,900 on the large set: 50 K steps).
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";

export function activeCategoriesQuery(db: Database, organization: SQL) {
  const after = (past: SQL) => sql`(SELECT p.category FROM products AS p INDEXED BY products_org_category_idx
    WHERE p.organization_id = ${organization} AND p.active = 1 AND ${past} ORDER BY p.category LIMIT 1)`;
  return db.all<{ category: string }>(sql`WITH RECURSIVE cats(category) AS (
      SELECT ${after(sql`1`)}
      UNION ALL SELECT ${after(sql`p.category > c.category`)} FROM cats AS c WHERE c.category IS NOT NULL)
    SELECT category FROM cats WHERE category IS NOT NULL`);
}
