// A service's recipe: which variations one service consumes, in base units. Each change (add,
// change or remove a line, or save the whole recipe) is one batch holding its update_recipe row.
//
// Quantities arrive as typed (e.g. "0.5 mL" = 5/10) and become base units in SQL with the product's
// scale, so the scale read and the write are the same statement. The batch logs first, under the
// full guard (service, every line usable, something really changes, and for a whole-recipe save
// the version the form was loaded at); every later statement runs only if that row was written,
// which is what makes the lines, the version bump and the activity row all or nothing.
import { and, eq, type SQL, sql } from "drizzle-orm";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canWriteCatalog } from "~/access/may-change";
import { logActivityWhere } from "~/activity/log.server";
import { quantityStep, type TypedQuantity } from "~/catalog/amounts";
import type { UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { type RecipeLineRow, recipeOf } from "./list.server";
import { refuse, type ServiceRefused } from "./outcome";

export interface RecipeLineInput {
  variationId: string;
  quantity: TypedQuantity;
}

/** A refusal about one line names its position among the lines given (for the form's rows). */
export type RecipeRefused = ServiceRefused & { line?: number };
export type RecipeOutcome = { ok: true; changed: boolean; version: number; recipe: RecipeLineRow[] } | RecipeRefused;

type Change =
  | { kind: "add" | "update"; line: RecipeLineInput }
  | { kind: "remove"; variationId: string }
  | { kind: "replace"; version: number; lines: readonly RecipeLineInput[] };

/** The typed lines as rows: (variation_id, mantissa, divisor, unit, position). */
function typedLines(lines: readonly RecipeLineInput[]): SQL {
  if (lines.length === 0) {
    return sql`SELECT NULL AS variation_id, NULL AS mantissa, NULL AS divisor, NULL AS unit, NULL AS position WHERE 0`;
  }
  const rows = lines.map(
    (l, i) => sql`(${l.variationId}, ${l.quantity.mantissa}, ${l.quantity.divisor}, ${l.quantity.unit}, ${i})`,
  );
  return sql`SELECT column1 AS variation_id, CAST(column2 AS INTEGER) AS mantissa, CAST(column3 AS INTEGER) AS divisor,
    column4 AS unit, CAST(column5 AS INTEGER) AS position FROM (VALUES ${sql.join(rows, sql`, `)})`;
}

/**
 * The typed lines resolved against the actor's catalogue: product, base units, and each rule a
 * line must pass (the variation exists here, it and its product are active, the quantity is whole
 * in base units, the typed unit if any is the product's).
 */
function resolvedLines(actor: ScopedActor, lines: readonly RecipeLineInput[]): SQL {
  return sql`(SELECT i.variation_id, i.position, p.name AS product, p.name || ' · ' || v.name AS label,
      p.base_unit AS unit, p.unit_scale AS scale, (p.id IS NOT NULL) AS found,
      coalesce(v.active AND p.active, 0) AS usable,
      coalesce((i.mantissa * p.unit_scale) % i.divisor = 0, 0) AS whole,
      coalesce(i.unit IS NULL OR lower(i.unit) = lower(p.base_unit), 0) AS unit_ok,
      (i.mantissa * p.unit_scale) / i.divisor AS quantity
    FROM (${typedLines(lines)}) AS i
    LEFT JOIN product_variations AS v ON v.id = i.variation_id
    LEFT JOIN products AS p ON p.id = v.product_id AND p.organization_id = ${organizationOf(actor)})`;
}

const VALID = sql`(r.found AND r.usable AND r.whole AND r.unit_ok)`;

interface ResolvedRow {
  variation_id: string;
  position: number;
  product: string | null;
  label: string | null;
  unit: string | null;
  scale: UnitScale | null;
  found: number;
  usable: number;
  whole: number;
  unit_ok: number;
  quantity: number | null;
}

/** The current lines of the service, (variation_id, label, quantity), narrowed by `keep`. */
function currentLines(serviceId: string, keep: SQL): SQL {
  return sql`SELECT l.variation_id, p.name || ' · ' || v.name AS label, l.quantity FROM recipe_lines AS l
    JOIN product_variations AS v ON v.id = l.variation_id JOIN products AS p ON p.id = v.product_id
    WHERE l.service_id = ${serviceId} AND ${keep}`;
}

const asJsonLines = (rows: SQL) =>
  sql`json((SELECT json_group_array(json_object('variationId', x.variation_id, 'variation', x.label,
    'quantity', x.quantity)) FROM (${rows}) AS x))`;

function lineRefusal(row: ResolvedRow): RecipeRefused {
  const line = row.position;
  const product = row.product ?? "";
  const unit = row.unit ?? "";
  const scale = row.scale ?? 1;
  if (!row.found) return { ...refuse("variation_unavailable"), line };
  if (!row.usable) {
    return {
      ...refuse("variation_unavailable", `${row.label} is archived. Choose an active product variation.`),
      line,
    };
  }
  if (!row.unit_ok) {
    return { ...refuse("unit_mismatch", `${product} is measured in ${unit}: enter the quantity in ${unit}.`), line };
  }
  const places = String(scale).length - 1;
  const advice = scale === 1 ? "enter a whole number" : `use at most ${places} decimal place${places === 1 ? "" : "s"}`;
  return { ...refuse("quantity_step", `${product} is measured in ${quantityStep(scale, unit)}: ${advice}.`), line };
}

async function changeRecipe(
  db: Database,
  actor: ScopedActor,
  serviceId: string,
  change: Change,
): Promise<RecipeOutcome> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const lines = change.kind === "replace" ? change.lines : change.kind === "remove" ? [] : [change.line];
  if (new Set(lines.map((l) => l.variationId)).size !== lines.length) return refuse("duplicate_line");
  // The one variation a single-line change touches; a whole-recipe save touches them all.
  const touched =
    change.kind === "replace" ? null : change.kind === "remove" ? change.variationId : change.line.variationId;

  const resolved = resolvedLines(actor, lines);
  const startedAt = Date.now();
  const hasLine = sql`EXISTS (SELECT 1 FROM recipe_lines WHERE service_id = ${serviceId} AND variation_id = ${touched})`;
  const differs = {
    add: sql`NOT ${hasLine}`,
    update: sql`EXISTS (SELECT 1 FROM recipe_lines AS l JOIN ${resolved} AS r ON r.variation_id = l.variation_id
      WHERE l.service_id = ${serviceId} AND l.quantity <> r.quantity)`,
    remove: hasLine,
    replace: sql`(EXISTS (SELECT variation_id, quantity FROM recipe_lines WHERE service_id = ${serviceId}
        EXCEPT SELECT variation_id, quantity FROM ${resolved})
      OR EXISTS (SELECT variation_id, quantity FROM ${resolved}
        EXCEPT SELECT variation_id, quantity FROM recipe_lines WHERE service_id = ${serviceId}))`,
  }[change.kind];
  const kept = touched === null ? sql`0` : sql`l.variation_id <> ${touched}`;
  const guard = sql`services.id = ${serviceId} AND services.organization_id = ${organizationOf(actor)}
    ${change.kind === "replace" ? sql`AND services.version = ${change.version}` : sql``}
    AND NOT EXISTS (SELECT 1 FROM ${resolved} AS r WHERE NOT ${VALID}) AND ${differs}`;
  // True only after this batch's activity row (the one for the next version) was written.
  const logged = sql`EXISTS (SELECT 1 FROM activity_log AS mark WHERE mark.at >= ${startedAt}
    AND mark.action = 'update_recipe' AND mark.entity_id = ${serviceId}
    AND json_extract(mark.summary, '$.version') = (SELECT version + 1 FROM services WHERE id = ${serviceId}))`;

  const s = schema.services;
  const [, , , bumped, services, resolvedRows, recipe] = await db.batch([
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: activityLocation(actor),
        action: "update_recipe",
        entity: "service",
        entityId: serviceId,
        summary: sql`json_object('code', code, 'change', ${change.kind}, 'version', version + 1,
          'before', ${asJsonLines(sql`${currentLines(serviceId, sql`1`)} ORDER BY 2`)},
          'after', ${asJsonLines(sql`${currentLines(serviceId, kept)}
            UNION ALL SELECT r.variation_id, r.label, r.quantity FROM ${resolved} AS r ORDER BY 2`)})`,
      },
      sql`FROM services WHERE ${guard}`,
    ),
    db.run(sql`DELETE FROM recipe_lines WHERE service_id = ${serviceId}
      AND ${touched === null ? sql`1` : sql`variation_id = ${touched}`} AND ${logged}`),
    db.run(sql`INSERT INTO recipe_lines (service_id, variation_id, quantity)
      SELECT ${serviceId}, r.variation_id, r.quantity FROM ${resolved} AS r WHERE ${logged}`),
    db
      .update(s)
      .set({ version: sql`${s.version} + 1`, updatedAt: new Date() })
      .where(and(eq(s.id, serviceId), logged))
      .returning({ version: s.version }),
    // Read after the change, in the same transaction: they explain a refusal, or show the result.
    db
      .select({ version: s.version })
      .from(s)
      .where(and(eq(s.id, serviceId), sql`${s.organizationId} = ${organizationOf(actor)}`)),
    db.all<ResolvedRow>(sql`SELECT * FROM ${resolved} AS r ORDER BY r.position`),
    recipeOf(db, serviceId),
  ]);

  const service = services[0];
  if (!service) return refuse("not_found");
  if (bumped[0]) return { ok: true, changed: true, version: bumped[0].version, recipe };
  if (change.kind === "replace" && service.version !== change.version) return refuse("changed_meanwhile");
  const invalid = resolvedRows.find((r) => !(r.found && r.usable && r.whole && r.unit_ok));
  if (invalid) return lineRefusal(invalid);
  // Every rule held, so nothing needed changing, or the line the change names is not (or is) there.
  const present = recipe.find((l) => l.variationId === touched);
  if (change.kind === "add") {
    const label = present ? `${present.product} · ${present.variation}` : "That product variation";
    return { ...refuse("line_exists", `${label} is already in this recipe. Change its quantity instead.`), line: 0 };
  }
  if (change.kind !== "replace" && !present) return { ...refuse("no_line"), line: 0 };
  return { ok: true, changed: false, version: service.version, recipe };
}

export function addRecipeLine(
  db: Database,
  actor: ScopedActor,
  input: { serviceId: string } & RecipeLineInput,
): Promise<RecipeOutcome> {
  const { serviceId, ...line } = input;
  return changeRecipe(db, actor, serviceId, { kind: "add", line });
}

export function updateRecipeLine(
  db: Database,
  actor: ScopedActor,
  input: { serviceId: string } & RecipeLineInput,
): Promise<RecipeOutcome> {
  const { serviceId, ...line } = input;
  return changeRecipe(db, actor, serviceId, { kind: "update", line });
}

export function removeRecipeLine(
  db: Database,
  actor: ScopedActor,
  input: { serviceId: string; variationId: string },
): Promise<RecipeOutcome> {
  return changeRecipe(db, actor, input.serviceId, { kind: "remove", variationId: input.variationId });
}

/** Replaces the whole recipe with `lines`, if the service is still at `version`. */
export function saveRecipe(
  db: Database,
  actor: ScopedActor,
  input: { serviceId: string; version: number; lines: readonly RecipeLineInput[] },
): Promise<RecipeOutcome> {
  return changeRecipe(db, actor, input.serviceId, { kind: "replace", version: input.version, lines: input.lines });
}
