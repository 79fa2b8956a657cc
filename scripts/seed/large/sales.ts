// Issue 24: the large chain's year of sales, 500,000 lines at scale 1, as the sales import would
// have left them: one completed import per location, a sale item per service (each given a recipe
// from the draws booked under it, if it has none), a few retail variations (their SALE movements
// booked against the stock on hand, the rest recorded short) and a few items nobody mapped yet.
// Set-based: each table is one INSERT … SELECT over a recursive sequence, so the lines cost seconds,
// and the step runs on its own over an existing data set (npm run seed:large -- --sales-only).
import type Database from "libsql";
import { PROVIDERS } from "./stock";

export const LARGE_SALES_LINES = 500_000;
/** Days of sales, up to the data set's `now`. */
export const SALES_DAYS = 365;
const RETAIL_ITEMS = 12;
const UNMAPPED_NAMES = ["Gift wrap", "Parking validation", "Consultation fee", "Loyalty redemption", "Misc. retail"];
/** The row keys the seed's lines carry: never a hash an import makes (hex), so a real import never collides. */
export const SEED_ROW_KEY = "seed-large|";

export interface SalesCounts {
  lines: number;
  serviceLines: number;
  retailLines: number;
  unmappedLines: number;
  refunds: number;
  recipes: number;
  saleItems: number;
  bookedMovements: number;
  shortLines: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Writes the sales into `db` (the large set, migrated with the imports tables), inside one
 * transaction. Refuses a data set that already has the seed's lines (run it once).
 */
export function writeSales(db: Database.Database, options: { scale: number; now: number }): SalesCounts {
  const lines = Math.max(1, Math.round(LARGE_SALES_LINES * options.scale));
  const now = options.now;
  const one = <T>(text: string, ...args: unknown[]) => db.prepare(text).get(...args) as T;
  const run = (text: string, ...args: unknown[]) => Number(db.prepare(text).run(...args).changes);
  const already = one<{ n: number }>("SELECT count(*) AS n FROM sales_lines WHERE row_key LIKE ?", `${SEED_ROW_KEY}%`);
  if (already.n > 0) throw new Error(`The data set already has ${already.n} seeded sales lines: nothing written.`);
  const org = one<{ id: string } | undefined>("SELECT id FROM organizations ORDER BY created_at LIMIT 1");
  if (!org) throw new Error("No organization in the data set.");
  const owner = one<{ id: string }>(
    "SELECT u.id FROM users u WHERE u.email = 'owner@large.clinic' UNION ALL SELECT id FROM users LIMIT 1",
  );

  db.exec("BEGIN");
  try {
    // Recipes: a service without one uses its most drawn variation, the draws' average a treatment.
    const recipes = run(
      `INSERT INTO recipe_lines (service_id, variation_id, quantity)
       SELECT serviceId, variationId, max(1, cast(round(average) AS integer)) FROM (
         SELECT u.service_id AS serviceId, u.variation_id AS variationId, avg(u.units) AS average,
           row_number() OVER (PARTITION BY u.service_id ORDER BY count(*) DESC, u.variation_id) AS rank
         FROM usage_entries AS u WHERE u.service_id IS NOT NULL GROUP BY u.service_id, u.variation_id)
       WHERE rank = 1 AND serviceId IN (SELECT s.id FROM services s WHERE s.organization_id = ?1
         AND NOT EXISTS (SELECT 1 FROM recipe_lines r WHERE r.service_id = s.id))`,
      org.id,
    );

    // One completed import per location, the lines' job.
    run(
      `INSERT INTO import_jobs (id, organization_id, kind, location_id, status, source, file_name, format, file_hash,
         original_key, rows_key, rows_bytes, headers, mapping, time_zone, byte_offset, rows_done, rows_total, imported,
         created_by, created_at, queued_at, started_at, finished_at)
       SELECT 'seed-sales-' || l.code, ?1, 'sales', l.id, 'completed', 'square', 'large-seed-sales-' || l.code || '.csv',
         'csv', lower(hex(zeroblob(32))), 'seed/sales/' || l.code, 'seed/sales/' || l.code, 0, '[]', '{}', l.timezone,
         0, 0, 0, 0, ?2, ?3, ?3, ?3, ?3
       FROM locations l WHERE l.organization_id = ?1`,
      org.id,
      owner.id,
      now,
    );

    // Sale items: every service by its name, a few bulk variations sold as retail by SKU, a few unknown.
    const at = now - SALES_DAYS * DAY_MS;
    let saleItems = run(
      `INSERT OR IGNORE INTO sale_items (organization_id, item_key, name, sku, kind, service_id, created_at)
       SELECT ?1, 'name:' || lower(name), name, NULL, 'service', id, ?2 FROM services WHERE organization_id = ?1`,
      org.id,
      at,
    );
    saleItems += run(
      `INSERT OR IGNORE INTO sale_items (organization_id, item_key, name, sku, kind, variation_id, created_at)
       SELECT ?1, 'sku:' || v.sku, p.name || ' ' || v.name, v.sku, 'retail', v.id, ?2
       FROM product_variations v JOIN products p ON p.id = v.product_id
       WHERE p.organization_id = ?1 AND p.tracking = 'bulk' AND v.sku IS NOT NULL AND v.active = 1
       ORDER BY v.id LIMIT ${RETAIL_ITEMS}`,
      org.id,
      at,
    );
    for (const name of UNMAPPED_NAMES) {
      saleItems += run(
        `INSERT OR IGNORE INTO sale_items (organization_id, item_key, name, kind, created_at) VALUES (?1, ?2, ?3, 'unmapped', ?4)`,
        org.id,
        `name:${name.toLowerCase()}`,
        name,
        at,
      );
    }

    // The lines: n = 1..lines, each field a different multiplicative hash of n (deterministic).
    // 92% services, 6% retail, 2% unmapped; 2% of service lines are refunds (negative).
    db.exec(`CREATE TEMP TABLE seed_locations AS SELECT row_number() OVER (ORDER BY code) - 1 AS k, id,
      'seed-sales-' || code AS jobId FROM locations WHERE organization_id = '${org.id.replace(/'/g, "''")}'`);
    db.exec(`CREATE TEMP TABLE seed_items AS SELECT kind, row_number() OVER (PARTITION BY kind ORDER BY id) - 1 AS k,
      id, service_id AS serviceId FROM sale_items WHERE organization_id = '${org.id.replace(/'/g, "''")}'
      AND kind IN ('service', 'retail', 'unmapped')`);
    db.exec("CREATE TEMP TABLE seed_providers (k INTEGER PRIMARY KEY, name TEXT)");
    for (const [k, name] of PROVIDERS.entries())
      db.prepare("INSERT INTO temp.seed_providers VALUES (?, ?)").run(k, name);
    const locations = one<{ n: number }>("SELECT count(*) AS n FROM temp.seed_locations").n;
    const kinds = Object.fromEntries(
      (
        db.prepare("SELECT kind, count(*) AS n FROM temp.seed_items GROUP BY kind").all() as {
          kind: string;
          n: number;
        }[]
      ).map((r) => [r.kind, r.n]),
    );
    const inserted = run(
      `INSERT INTO sales_lines (organization_id, row_key, job_id, row_number, location_id, sold_at, sale_item_id,
         quantity, net_cents, transaction_ref, provider)
       WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?2),
       hashed AS (SELECT n, (n * 2654435761) % 4294967296 AS h1, (n * 2246822519 + 3266489917) % 4294967296 AS h2,
         (n * 3266489917 + 668265263) % 4294967296 AS h3 FROM seq),
       picked AS (SELECT n, h1, h2, h3, n % ${locations} AS loc,
         CASE WHEN h1 % 100 < 92 THEN 'service' WHEN h1 % 100 < 98 THEN 'retail' ELSE 'unmapped' END AS kind FROM hashed)
       SELECT ?1, '${SEED_ROW_KEY}' || p.n, l.jobId, p.n / ${locations} + 1, l.id,
         ?3 - (p.h3 % ${SALES_DAYS * 86_400}) * 1000 - p.n % 1000,
         i.id,
         CASE WHEN p.kind = 'service' AND p.h2 % 50 = 0 THEN -1 WHEN p.kind = 'retail' THEN 1 + p.h2 % 2 ELSE 1 END,
         (CASE WHEN p.kind = 'service' AND p.h2 % 50 = 0 THEN -1 ELSE 1 END)
           * coalesce((SELECT s.price_cents FROM services s WHERE s.id = i.serviceId), 4500 * (1 + p.h2 % 2)),
         'T' || (p.n * 7 + 100000),
         CASE WHEN p.kind = 'service' THEN (SELECT name FROM temp.seed_providers WHERE k = p.h2 % ${PROVIDERS.length}) END
       FROM picked p
       JOIN temp.seed_locations l ON l.k = p.loc
       JOIN temp.seed_items i ON i.kind = p.kind AND i.k = p.h2 % (CASE p.kind WHEN 'service' THEN ${kinds.service ?? 1}
         WHEN 'retail' THEN ${kinds.retail ?? 1} ELSE ${kinds.unmapped ?? 1} END)`,
      org.id,
      lines,
      now,
    );

    // Retail lines take their packages from the stock on hand, oldest first: a SALE movement of
    // what there was, the rest recorded short (sold with none on hand), as the import books them
    // (app/imports/bookings.server.ts: booked_units is the SALE movement's signed quantity).
    db.exec(`CREATE TEMP TABLE seed_bookings AS
      WITH retail AS (
        SELECT sl.id AS lineId, sl.location_id AS locationId, si.variation_id AS variationId, sl.sold_at AS soldAt,
          sl.job_id AS jobId, sl.quantity * v.units_per_package AS units,
          coalesce(sum(sl.quantity * v.units_per_package) OVER (PARTITION BY sl.location_id, si.variation_id
            ORDER BY sl.sold_at, sl.id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before,
          coalesce((SELECT on_hand FROM stock_levels s WHERE s.location_id = sl.location_id
            AND s.variation_id = si.variation_id), 0) AS onHand
        FROM sales_lines sl JOIN sale_items si ON si.id = sl.sale_item_id AND si.kind = 'retail'
        JOIN product_variations v ON v.id = si.variation_id
        WHERE sl.row_key LIKE '${SEED_ROW_KEY}%')
      SELECT lineId, locationId, variationId, soldAt, jobId, units,
        max(0, min(units, onHand - before)) AS booked FROM retail`);
    const bookedMovements = run(
      `INSERT INTO stock_movements (id, occurred_at, location_id, variation_id, quantity, type, reference_type, reference_id)
       SELECT printf('seed-sale-%012d', lineId), soldAt, locationId, variationId, -booked, 'SALE', 'import', jobId
       FROM temp.seed_bookings WHERE booked > 0`,
    );
    run(
      `INSERT INTO sale_bookings (line_id, variation_id, booked_units, short_units, booked_at)
       SELECT lineId, variationId, -booked, units - booked, soldAt FROM temp.seed_bookings`,
    );
    run(
      `UPDATE stock_levels SET on_hand = on_hand - b.booked, updated_at = ?1
       FROM (SELECT locationId, variationId, sum(booked) AS booked FROM temp.seed_bookings GROUP BY 1, 2) AS b
       WHERE stock_levels.location_id = b.locationId AND stock_levels.variation_id = b.variationId AND b.booked > 0`,
      now,
    );
    const shortLines = one<{ n: number }>("SELECT count(*) AS n FROM temp.seed_bookings WHERE booked < units").n;

    // The jobs' counts, as the worker would have left them.
    run(
      `UPDATE import_jobs SET rows_total = c.n, rows_done = c.n, imported = c.n, unmapped = c.u
       FROM (SELECT sl.job_id AS jobId, count(*) AS n, total(si.kind = 'unmapped') AS u FROM sales_lines sl
         JOIN sale_items si ON si.id = sl.sale_item_id WHERE sl.row_key LIKE '${SEED_ROW_KEY}%' GROUP BY sl.job_id) AS c
       WHERE import_jobs.id = c.jobId`,
    );
    const byKind = Object.fromEntries(
      (
        db
          .prepare(
            `SELECT si.kind AS kind, count(*) AS n, total(sl.quantity < 0) AS refunds FROM sales_lines sl
             JOIN sale_items si ON si.id = sl.sale_item_id WHERE sl.row_key LIKE '${SEED_ROW_KEY}%' GROUP BY si.kind`,
          )
          .all() as { kind: string; n: number; refunds: number }[]
      ).map((r) => [r.kind, r]),
    );
    for (const t of ["seed_locations", "seed_items", "seed_providers", "seed_bookings"])
      db.exec(`DROP TABLE temp.${t}`);
    db.exec("COMMIT");
    return {
      lines: inserted,
      serviceLines: byKind.service?.n ?? 0,
      retailLines: byKind.retail?.n ?? 0,
      unmappedLines: byKind.unmapped?.n ?? 0,
      refunds: Number(byKind.service?.refunds ?? 0),
      recipes,
      saleItems,
      bookedMovements,
      shortLines,
    };
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
