// What the vendor screens read, one batch each: a page of the organization's vendors with search
// and the active/archived filter, and one vendor with the products it supplies by default.

import { and, asc, count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { anyContains, organizationOf } from "~/db/sql.server";
import { numberedPage, pageOffset } from "~/ui/page-count";
import { VENDOR_PRODUCTS_SHOWN, VENDORS_PAGE_SIZE, type VendorStatusFilter } from "./constants";

const v = schema.vendors;
const p = schema.products;

const vendorColumns = {
  id: v.id,
  name: v.name,
  accountNumber: v.accountNumber,
  contactName: v.contactName,
  email: v.email,
  phone: v.phone,
  leadTimeDays: v.leadTimeDays,
  notes: v.notes,
  active: v.active,
  version: v.version,
};

const inOrganization = (actor: Actor) => sql`${v.organizationId} = ${organizationOf(actor)}`;

/** Name, account number, contact or email containing `q`, ignoring case; LIKE's wildcards match only themselves. */
function matching(q: string): SQL | undefined {
  if (!q) return undefined;
  return anyContains(q, [v.name, v.accountNumber, v.contactName, v.email]);
}

function withStatus(status: VendorStatusFilter): SQL | undefined {
  if (status === "all") return undefined;
  return eq(v.active, status === "active");
}

export async function listVendors(
  db: Database,
  actor: Actor,
  query: { q: string; status: VendorStatusFilter; page: number },
) {
  const where = and(inOrganization(actor), withStatus(query.status), matching(query.q));
  const [vendors, totals] = await db.batch([
    db
      .select({
        ...vendorColumns,
        // Spelled out: inside the subquery a bare column name would mean the product's.
        products: sql<number>`(SELECT count(*) FROM products AS supplied WHERE supplied.default_vendor_id = vendors.id)`,
      })
      .from(v)
      .where(where)
      .orderBy(desc(v.active), asc(v.name), asc(v.id))
      .limit(VENDORS_PAGE_SIZE)
      .offset(pageOffset(query.page, VENDORS_PAGE_SIZE)),
    db.select({ total: count() }).from(v).where(where),
  ]);
  return { vendors, ...numberedPage(totals, query.page, VENDORS_PAGE_SIZE) };
}

export type VendorRow = Awaited<ReturnType<typeof listVendors>>["vendors"][number];

/** One vendor of the actor's organization with the products whose default vendor it is; null when not there. */
export async function vendorDetail(db: Database, actor: Actor, vendorId: string) {
  const supplied = and(eq(p.defaultVendorId, vendorId), sql`${p.organizationId} = ${organizationOf(actor)}`);
  const [found, totals, products] = await db.batch([
    db
      .select(vendorColumns)
      .from(v)
      .where(and(eq(v.id, vendorId), inOrganization(actor))),
    db.select({ total: count() }).from(p).where(supplied),
    db
      .select({ id: p.id, name: p.name, sku: p.sku, category: p.category, active: p.active })
      .from(p)
      .where(supplied)
      .orderBy(desc(p.active), asc(p.name), asc(p.id))
      .limit(VENDOR_PRODUCTS_SHOWN),
  ]);
  const vendor = found[0];
  if (!vendor) return null;
  return { vendor, products, productCount: totals[0]?.total ?? 0 };
}

/**
 * The vendors a product form offers as its default vendor: the active ones, plus the one it already
 * has if that one was archived since (products keep their vendor). A query, to put in a batch.
 */
export function vendorChoices(db: Database, actor: Actor, keep: string | null = null) {
  return db
    .select({ id: v.id, name: v.name, active: v.active })
    .from(v)
    .where(and(inOrganization(actor), keep ? sql`(${v.active} = 1 OR ${v.id} = ${keep})` : eq(v.active, true)))
    .orderBy(asc(v.name), asc(v.id));
}
