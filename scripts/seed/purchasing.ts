// The demo purchase orders: at Downtown, a draft to Henry Schein (supplies, still being filled) and
// a submitted order to Allergan Aesthetics (toxins, on order), so /purchase-orders shows both
// kinds on `npm start`. Numbered PO-{year}-0001 and -0002 of the seed's year; each line's unit
// cost and SKU are the variation's, its expected date the vendor's lead time from the seed day.
// Runs inside the demo seed's one batch, after the catalogue (it finds vendors and variations by
// name inside the organization).
import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { v7 as uuidv7 } from "uuid";
import type * as schema from "../../db/schema/index";

type Statement = BatchItem<"sqlite">;
type AnyLibsqlDatabase = LibSQLDatabase<typeof schema>;

export interface PurchasingSeedTarget {
  organizationId: string;
  locationIds: ReadonlyMap<string, string>;
  userIds: ReadonlyMap<string, string>;
  now?: Date;
}

interface SeedOrder {
  vendor: string;
  status: "draft" | "submitted";
  note: string | null;
  daysAgo: number;
  lines: readonly { product: string; variation: string; packages: number; vendorSku?: string }[];
}

const DEMO_ORDERS: readonly SeedOrder[] = [
  {
    vendor: "Allergan Aesthetics",
    status: "submitted",
    note: "Deliver before 10 am: the fridge is checked on arrival.",
    daysAgo: 1,
    lines: [
      { product: "Botox Cosmetic", variation: "100 U vial", packages: 6 },
      { product: "Botox Cosmetic", variation: "50 U vial", packages: 4 },
      { product: "Juvederm Ultra XC", variation: "1 mL syringe", packages: 10 },
    ],
  },
  {
    vendor: "Henry Schein",
    status: "draft",
    note: null,
    daysAgo: 0,
    lines: [
      { product: "Alcohol prep pads", variation: "Box of 200", packages: 4, vendorSku: "HS-112-2235" },
      { product: "Gauze 2x2", variation: "Pack of 200", packages: 2, vendorSku: "HS-100-4471" },
    ],
  },
];

const required = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`purchasing seed: no ${what}`);
  return value;
};

export function purchasingSeedStatements(db: AnyLibsqlDatabase, target: PurchasingSeedTarget): Statement[] {
  const { organizationId } = target;
  const now = target.now ?? new Date();
  const year = now.getUTCFullYear();
  const downtown = required(target.locationIds.get("DTN"), "location DTN");
  const admin = required(target.userIds.get("admin@demo.clinic"), "user admin@demo.clinic");
  const vendorOf = (name: string): SQL =>
    sql`(SELECT id FROM vendors WHERE organization_id = ${organizationId} AND name = ${name})`;
  const statements: Statement[] = [];
  DEMO_ORDERS.forEach((order, n) => {
    const id = uuidv7();
    const sequence = n + 1;
    const number = `PO-${year}-${String(sequence).padStart(4, "0")}`;
    const at = now.getTime() - order.daysAgo * 24 * 60 * 60 * 1000;
    const submitted = order.status === "submitted";
    statements.push(
      db.run(sql`INSERT INTO purchase_orders (id, organization_id, location_id, vendor_id, year, sequence, number,
          status, revision, version, note, created_by, created_at, updated_at, submitted_by, submitted_at)
        VALUES (${id}, ${organizationId}, ${downtown}, ${vendorOf(order.vendor)}, ${year}, ${sequence}, ${number},
          'draft', 0, 1, ${order.note}, ${admin}, ${at}, ${at}, NULL, NULL)`),
    );
    for (const line of order.lines) {
      // The vendor's lead time from the order's day (UTC: a seed has no clinic clock).
      statements.push(
        db.run(sql`INSERT INTO purchase_order_lines (id, order_id, variation_id, packages_ordered, units_per_package,
            unit_cost_cents, packages_received, vendor_sku, expected_on, created_at, updated_at)
          SELECT ${uuidv7()}, ${id}, v.id, ${line.packages}, v.units_per_package, coalesce(v.cost_cents, p.cost_cents, 0),
            0, coalesce(${line.vendorSku ?? null}, v.sku, p.sku),
            date(${new Date(at).toISOString().slice(0, 10)}, '+' || coalesce(d.lead_time_days, 0) || ' days'), ${at}, ${at}
          FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
          JOIN vendors AS d ON d.id = ${vendorOf(order.vendor)}
          WHERE p.organization_id = ${organizationId} AND p.name = ${line.product} AND v.name = ${line.variation}`),
      );
    }
    statements.push(
      db.run(sql`INSERT INTO activity_log (id, at, user_id, location_id, action, entity, entity_id, summary)
        VALUES (${uuidv7()}, ${at}, ${admin}, ${downtown}, 'create_purchase_order', 'purchase_order', ${id},
          json_object('number', ${number}, 'vendor', ${order.vendor}, 'lines', ${order.lines.length}))`),
    );
    if (submitted) {
      const sentAt = at + 15 * 60 * 1000;
      statements.push(
        db.run(sql`UPDATE purchase_orders SET status = 'submitted', submitted_by = ${admin}, submitted_at = ${sentAt},
            updated_at = ${sentAt}, version = version + 1
          WHERE id = ${id}`),
        db.run(sql`INSERT INTO activity_log (id, at, user_id, location_id, action, entity, entity_id, summary)
          VALUES (${uuidv7()}, ${sentAt}, ${admin}, ${downtown}, 'submit_purchase_order', 'purchase_order', ${id},
            json_object('number', ${number}, 'vendor', ${order.vendor}, 'lines', ${order.lines.length}))`),
      );
    }
  });
  return statements;
}
