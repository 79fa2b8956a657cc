// What the services screens read, one batch each: a page of the organization's services with
// their recipe sizes; one service with its recipe and, for editors, the variations it may use.

import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import type { UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { anyContains, organizationOf } from "~/db/sql.server";
import { numberedPage, pageOffset } from "~/ui/page-count";
import { SERVICES_PAGE_SIZE } from "./constants";
import type { ServiceListInput } from "./forms";

const s = schema.services;
const l = schema.recipeLines;
const v = schema.productVariations;
const p = schema.products;

const serviceColumns = {
  id: s.id,
  name: s.name,
  code: s.code,
  category: s.category,
  priceCents: s.priceCents,
  durationMinutes: s.durationMinutes,
  active: s.active,
  version: s.version,
};

const ofOrganization = (actor: Actor) => sql`${s.organizationId} = ${organizationOf(actor)}`;

/** Name, code or category containing `q`, ignoring case; LIKE's wildcards in `q` match only themselves. */
function matching(q: string): SQL | undefined {
  if (!q) return undefined;
  return anyContains(q, [s.name, s.code, s.category]);
}

export async function listServices(db: Database, actor: Actor, query: ServiceListInput) {
  // Served by services_org_active_name_idx (organization, active, name).
  const where = and(ofOrganization(actor), eq(s.active, query.status === "active"), matching(query.q));
  const [services, totals] = await db.batch([
    db
      .select({
        ...serviceColumns,
        lines: sql<number>`(SELECT count(*) FROM recipe_lines AS line WHERE line.service_id = ${s.id})`,
      })
      .from(s)
      .where(where)
      .orderBy(asc(s.name), asc(s.id))
      .limit(SERVICES_PAGE_SIZE)
      .offset(pageOffset(query.page, SERVICES_PAGE_SIZE)),
    db.select({ total: count() }).from(s).where(where),
  ]);
  return { services, ...numberedPage(totals, query.page, SERVICES_PAGE_SIZE) };
}

const lineColumns = {
  variationId: l.variationId,
  quantity: l.quantity,
  product: p.name,
  variation: v.name,
  baseUnit: p.baseUnit,
  unitScale: sql<UnitScale>`${p.unitScale}`,
  usable: sql<boolean>`(${v.active} AND ${p.active})`.mapWith(Boolean),
};

/** Recipe lines (of one service, by `where`), by product then variation name. */
function recipeLines(db: Database, where: SQL | undefined) {
  return db
    .select(lineColumns)
    .from(l)
    .innerJoin(v, eq(v.id, l.variationId))
    .innerJoin(p, eq(p.id, v.productId))
    .where(where)
    .orderBy(asc(p.name), asc(v.name));
}

export type RecipeLineRow = Awaited<ReturnType<typeof recipeLines>>[number];

/** A service's recipe as it stands (the caller has already checked the service is the actor's). */
export function recipeOf(db: Database, serviceId: string) {
  return recipeLines(db, eq(l.serviceId, serviceId));
}

/**
 * One service of the actor's organization with its recipe; with `choices`, also the active
 * variations of active products a recipe may use. Null when the service is not there.
 */
export async function serviceDetail(db: Database, actor: Actor, serviceId: string, options: { choices: boolean }) {
  const mine = and(eq(s.id, serviceId), ofOrganization(actor));
  const service = db.select(serviceColumns).from(s).where(mine);
  // Lines of another organization's service never show.
  const recipe = recipeLines(db, and(eq(l.serviceId, serviceId), sql`EXISTS (SELECT 1 FROM ${s} WHERE ${mine})`));
  const [services, lines, choices] = options.choices
    ? await db.batch([service, recipe, variationChoices(db, actor)])
    : [...(await db.batch([service, recipe])), []];
  if (!services[0]) return null;
  return { service: services[0], recipe: lines, choices };
}

/** The active variations of active products, by product then variation name: what a recipe may use. */
function variationChoices(db: Database, actor: Actor) {
  return db
    .select({
      id: v.id,
      product: p.name,
      variation: v.name,
      baseUnit: p.baseUnit,
      unitScale: sql<UnitScale>`${p.unitScale}`,
    })
    .from(v)
    .innerJoin(p, eq(p.id, v.productId))
    .where(and(sql`${p.organizationId} = ${organizationOf(actor)}`, eq(p.active, true), eq(v.active, true)))
    .orderBy(asc(p.name), asc(v.name));
}
