// The recipes import (/recipes-import, and POST /api/imports kind=recipes): a file of service ×
// product variation × quantity per service, shown as a difference against today's recipes, then
// applied all at once or not at all.
//
// The file is the whole recipe of each service it names: a line the service has today and the file
// does not list is removed; services the file does not name are left as they are. Services are
// found by code (as the services form writes codes) or else by name; variations by SKU or else by
// GTIN (never a GTIN repaired); a quantity is in the product's unit, converted exactly to base units
// with the product's scale, as the recipe editor does. Applying is one batch: the import_recipes
// row is written first, under the guard (the job is still a preview, every named service is at the
// version the preview read, every variation is still usable), and every later statement runs only
// if that row exists: the lines, each service's update_recipe row and version, and the job's status.
import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { v7 as uuidv7 } from "uuid";
import { activityLocation, type ScopedActor, timeZoneHere } from "~/access/actor";
import { canWriteCatalog } from "~/access/may-change";
import { can } from "~/access/permissions";
import { logActivity, logActivityWhere } from "~/activity/log.server";
import { formatQuantity, isUnitScale, type UnitScale } from "~/catalog/format";
import { gtinCandidates } from "~/catalog/gtin";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { sha256Hex } from "~/sha256";
import { parseCsv } from "./parse/csv";
import { readGtin } from "./parse/gtin";
import { toCsv, xlsxRows } from "./parse/xlsx";
import {
  RECIPES_FILE_MESSAGES,
  RECIPES_LIMITS,
  type RecipeFileRow,
  type RecipeRowProblem,
  readRecipeRows,
} from "./recipes";
import { type Outcome, type RecipesRefused, refuse } from "./recipes-outcome";

export interface RecipeDiffLine {
  variationId: string;
  /** "Botox Cosmetic · 100 U vial" */
  label: string;
  /** Base units per service, before and after (null: not in that recipe). */
  before: number | null;
  after: number | null;
  /** As people read them: "20 U", "0.5 mL". */
  beforeText: string | null;
  afterText: string | null;
}

export interface ServiceDiff {
  serviceId: string;
  code: string;
  name: string;
  version: number;
  added: RecipeDiffLine[];
  changed: RecipeDiffLine[];
  removed: RecipeDiffLine[];
  unchanged: number;
  /** The service's whole recipe as the file gives it (what applying writes). */
  lines: { variationId: string; label: string; quantity: number }[];
}

export interface RecipesPreview {
  job: { id: string; fileName: string; status: string; createdAt: Date; rows: number; applied: number };
  services: ServiceDiff[];
  errors: RecipeRowProblem[];
  /** Lines added, changed or removed. */
  changes: number;
  /** A digest of the versions the preview read (every named service's): applying is refused if any moved since. */
  versions: string;
}

/** Who may import recipes: imports (WRITE_IMPORTS) and the catalogue (recipes are catalogue objects). */
export function canImportRecipes(actor: ScopedActor): boolean {
  return can(actor, "WRITE_IMPORTS", actor.locationId) && canWriteCatalog(actor);
}

function formatOf(fileName: string): "csv" | "xlsx" | null {
  const lower = fileName.trim().toLowerCase();
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".xlsx")) return "xlsx";
  return null;
}

/** The file's rows as text cells, or why it cannot be read. */
async function rowsOf(
  format: "csv" | "xlsx",
  bytes: Uint8Array<ArrayBuffer>,
): Promise<{ ok: true; rows: string[][] } | { ok: false; message: string }> {
  if (format === "xlsx") {
    try {
      const copy = bytes.slice().buffer as ArrayBuffer;
      return { ok: true, rows: await xlsxRows(copy) };
    } catch {
      return { ok: false, message: RECIPES_FILE_MESSAGES.unreadableXlsx };
    }
  }
  if (bytes.includes(0)) return { ok: false, message: RECIPES_FILE_MESSAGES.binary };
  return { ok: true, rows: parseCsv(new TextDecoder().decode(bytes)) };
}

/**
 * An uploaded recipes file: checked (size, format, header, rows), stored in R2 under
 * imports/<jobId>/ (an XLSX also as the CSV it reads as), and its job created in `preview` with its
 * upload_import row. A refused file leaves nothing behind.
 */
export async function uploadRecipes(
  db: Database,
  files: R2Bucket,
  actor: ScopedActor,
  input: { fileName: string; bytes: Uint8Array<ArrayBuffer> },
): Promise<Outcome<{ jobId: string }>> {
  if (!canImportRecipes(actor)) return refuse("forbidden");
  const fileName = input.fileName.trim().slice(0, 200) || "recipes.csv";
  const fail = (message: string): RecipesRefused => refuse("file_refused", message);
  if (input.bytes.byteLength === 0) return fail(RECIPES_FILE_MESSAGES.empty);
  if (input.bytes.byteLength > RECIPES_LIMITS.maxBytes) return fail(RECIPES_FILE_MESSAGES.tooLarge);
  const format = formatOf(fileName);
  if (!format) return fail(RECIPES_FILE_MESSAGES.format);
  const read = await rowsOf(format, input.bytes);
  if (!read.ok) return fail(read.message);
  const parsed = readRecipeRows(read.rows);
  if (!parsed.ok) return fail(parsed.message);

  const jobId = uuidv7();
  const originalKey = `imports/${jobId}/original.${format}`;
  const rowsKey = format === "csv" ? originalKey : `imports/${jobId}/rows.csv`;
  const rowsBody = format === "csv" ? input.bytes : new TextEncoder().encode(toCsv(read.rows));
  const fileHash = await sha256Hex(input.bytes);
  const keys = format === "csv" ? [originalKey] : [originalKey, rowsKey];
  try {
    await files.put(originalKey, input.bytes);
    if (format === "xlsx") await files.put(rowsKey, rowsBody);
    const mapping = {
      service: headerOf(parsed, "service"),
      variation: headerOf(parsed, "variation"),
      quantity: headerOf(parsed, "quantity"),
    };
    await db.batch([
      db.insert(schema.importJobs).values({
        id: jobId,
        organizationId: organizationOf(actor),
        kind: "recipes",
        locationId: null,
        status: "preview",
        source: "custom",
        fileName,
        format,
        fileHash,
        originalKey,
        rowsKey,
        rowsBytes: rowsBody.byteLength,
        headers: JSON.stringify(parsed.headers),
        mapping: JSON.stringify(mapping),
        timeZone: timeZoneHere(actor),
        rowsTotal: parsed.rows.length + parsed.problems.length,
        createdBy: actor.id,
      }),
      logActivity(db, {
        userId: actor.id,
        locationId: activityLocation(actor),
        action: "upload_import",
        entity: "import_job",
        entityId: jobId,
        summary: { fileName, kind: "recipes" },
      }),
    ]);
  } catch (error) {
    await files.delete(keys).catch(() => {});
    throw error;
  }
  return { ok: true, jobId };
}

/** The header a field was read from (the first of its columns the file has). */
function headerOf(
  parsed: { headers: string[]; rows: RecipeFileRow[] },
  field: "service" | "variation" | "quantity",
): string | null {
  return parsed.rows[0]?.[field].column ?? null;
}

interface JobRow {
  id: string;
  fileName: string;
  status: string;
  rowsKey: string;
  originalKey: string;
  createdAt: Date;
  rowsTotal: number;
  /** Changes applied (import_jobs.imported), once completed. */
  imported: number;
}

async function jobOf(db: Database, actor: ScopedActor, jobId: string): Promise<JobRow | null> {
  const rows = await db.all<{
    id: string;
    file_name: string;
    status: string;
    rows_key: string;
    original_key: string;
    created_at: number;
    rows_total: number;
    imported: number;
  }>(sql`SELECT id, file_name, status, rows_key, original_key, created_at, rows_total, imported FROM import_jobs
    WHERE id = ${jobId} AND kind = 'recipes' AND organization_id = ${organizationOf(actor)}`);
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    fileName: row.file_name,
    status: row.status,
    rowsKey: row.rows_key,
    originalKey: row.original_key,
    createdAt: new Date(row.created_at),
    rowsTotal: row.rows_total,
    imported: row.imported,
  };
}

interface ServiceRow {
  id: string;
  code: string;
  name: string;
  version: number;
}

interface VariationRow {
  id: string;
  sku: string | null;
  gtin: string | null;
  label: string;
  unit: string;
  scale: number;
  usable: number;
}

/** SHA-256 of the named services' `id:version` list: short enough for a form's hidden field. */
async function versionsToken(diffs: readonly ServiceDiff[]): Promise<string> {
  const list = diffs.map((d) => `${d.serviceId}:${d.version}`).join(",");
  return sha256Hex(list);
}

const fold = (text: string) => text.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
/** A service code as the services form stores it: trimmed, upper-cased, spaces folded. */
const codeKey = (text: string) => text.normalize("NFC").trim().toUpperCase().replace(/\s+/g, " ");

function group<T>(items: readonly T[], key: (item: T) => string | null): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === null) continue;
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

/** What the file would change: read from R2, resolved against the catalogue and today's recipes. */
async function computePreview(db: Database, files: R2Bucket, actor: ScopedActor, job: JobRow): Promise<RecipesPreview> {
  const object = await files.get(job.rowsKey);
  const rows = object ? parseCsv(await object.text()) : [];
  const parsed = readRecipeRows(rows);
  const base = {
    id: job.id,
    fileName: job.fileName,
    status: job.status,
    createdAt: job.createdAt,
    rows: job.rowsTotal,
    applied: job.imported,
  };
  if (!parsed.ok) {
    const message = object ? parsed.message : "The file of this import is no longer stored: upload it again.";
    return {
      job: base,
      services: [],
      errors: [{ rowNumber: 1, column: null, value: null, message }],
      changes: 0,
      versions: "",
    };
  }
  const org = organizationOf(actor);
  const [services, variations, current] = await db.batch([
    db.all<ServiceRow>(sql`SELECT id, code, name, version FROM services WHERE organization_id = ${org}`),
    db.all<VariationRow>(sql`SELECT v.id, v.sku, v.gtin, p.name || ' · ' || v.name AS label, p.base_unit AS unit,
        p.unit_scale AS scale, (v.active AND p.active) AS usable
      FROM product_variations AS v JOIN products AS p ON p.id = v.product_id WHERE p.organization_id = ${org}`),
    db.all<{
      service_id: string;
      variation_id: string;
      quantity: number;
    }>(sql`SELECT l.service_id, l.variation_id, l.quantity
      FROM recipe_lines AS l JOIN services AS s ON s.id = l.service_id WHERE s.organization_id = ${org}`),
  ]);
  const byCode = group(services, (s) => codeKey(s.code));
  const byName = group(services, (s) => fold(s.name));
  const bySku = group(variations, (v) => (v.sku ? fold(v.sku) : null));
  const byGtin = group(variations, (v) => v.gtin);
  const variationById = new Map(variations.map((v) => [v.id, v]));

  const errors: RecipeRowProblem[] = [...parsed.problems];
  const problem = (row: RecipeFileRow, at: { column: string; value: string }, message: string) =>
    errors.push({ rowNumber: row.rowNumber, column: at.column, value: at.value.slice(0, 200), message });
  /** serviceId → variationId → { quantity, row } */
  const wanted = new Map<string, Map<string, { quantity: number; rowNumber: number }>>();
  const named = new Map<string, ServiceRow>();

  for (const row of parsed.rows) {
    const byItsCode = byCode.get(codeKey(row.service.value)) ?? [];
    const byItsName = byItsCode.length > 0 ? [] : (byName.get(fold(row.service.value)) ?? []);
    const serviceMatches = byItsCode.length > 0 ? byItsCode : byItsName;
    if (serviceMatches.length === 0) {
      problem(
        row,
        row.service,
        `No service has the code or name "${row.service.value}". Add it on Services first, or correct the file.`,
      );
      continue;
    }
    if (serviceMatches.length > 1) {
      problem(
        row,
        row.service,
        `${serviceMatches.length} services are named "${row.service.value}": use the service's code instead.`,
      );
      continue;
    }
    const service = serviceMatches[0] as ServiceRow;

    let found = bySku.get(fold(row.variation.value)) ?? [];
    if (found.length === 0 && /^[\d.,eE+\s]+$/.test(row.variation.value)) {
      const gtin = readGtin(row.variation.value);
      if (!gtin.ok) {
        problem(row, row.variation, gtin.message);
        continue;
      }
      const candidates = gtin.gtin ? gtinCandidates(gtin.gtin) : [];
      found = [...new Set(candidates.flatMap((c) => byGtin.get(c) ?? []))];
    }
    if (found.length === 0) {
      problem(row, row.variation, `No product variation has the SKU or GTIN "${row.variation.value}".`);
      continue;
    }
    if (found.length > 1) {
      problem(
        row,
        row.variation,
        `${found.length} product variations have the SKU "${row.variation.value}": use the GTIN instead.`,
      );
      continue;
    }
    const variation = found[0] as VariationRow;
    if (!variation.usable) {
      problem(row, row.variation, `${variation.label} is archived. Use an active product variation.`);
      continue;
    }
    const typed = row.quantity.typed;
    if (typed.unit !== null && typed.unit.toLowerCase() !== variation.unit.toLowerCase()) {
      problem(
        row,
        row.quantity,
        `${variation.label} is measured in ${variation.unit}: give the quantity in ${variation.unit}.`,
      );
      continue;
    }
    const scaled = typed.mantissa * variation.scale;
    if (scaled % typed.divisor !== 0) {
      const scale = (isUnitScale(variation.scale) ? variation.scale : 1) as UnitScale;
      const step = formatQuantity(1, scale, variation.unit);
      problem(
        row,
        row.quantity,
        `${variation.label} is measured in steps of ${step}: "${row.quantity.value}" is finer than that.`,
      );
      continue;
    }
    const lines = wanted.get(service.id) ?? new Map();
    const earlier = lines.get(variation.id);
    if (earlier) {
      problem(
        row,
        row.variation,
        `${variation.label} is already listed for ${service.code} on row ${earlier.rowNumber}: list it once.`,
      );
      continue;
    }
    lines.set(variation.id, { quantity: scaled / typed.divisor, rowNumber: row.rowNumber });
    wanted.set(service.id, lines);
    named.set(service.id, service);
  }

  const currentOf = group(current, (l) => l.service_id);
  const shown = (variationId: string, quantity: number | null) => {
    const v = variationById.get(variationId);
    if (quantity === null) return null;
    const scale = (v && isUnitScale(v.scale) ? v.scale : 1) as UnitScale;
    return formatQuantity(quantity, scale, v?.unit ?? "");
  };
  const line = (variationId: string, before: number | null, after: number | null): RecipeDiffLine => ({
    variationId,
    label: variationById.get(variationId)?.label ?? variationId,
    before,
    after,
    beforeText: shown(variationId, before),
    afterText: shown(variationId, after),
  });
  const byLabel = (a: RecipeDiffLine, b: RecipeDiffLine) => a.label.localeCompare(b.label);
  const diffs: ServiceDiff[] = [];
  for (const [serviceId, lines] of wanted) {
    const service = named.get(serviceId) as ServiceRow;
    const today = new Map((currentOf.get(serviceId) ?? []).map((l) => [l.variation_id, l.quantity]));
    const diff: ServiceDiff = {
      serviceId,
      code: service.code,
      name: service.name,
      version: service.version,
      added: [],
      changed: [],
      removed: [],
      unchanged: 0,
      lines: [...lines].map(([variationId, { quantity }]) => ({
        variationId,
        label: variationById.get(variationId)?.label ?? variationId,
        quantity,
      })),
    };
    for (const [variationId, { quantity }] of lines) {
      const before = today.get(variationId);
      if (before === undefined) diff.added.push(line(variationId, null, quantity));
      else if (before !== quantity) diff.changed.push(line(variationId, before, quantity));
      else diff.unchanged++;
    }
    for (const [variationId, before] of today)
      if (!lines.has(variationId)) diff.removed.push(line(variationId, before, null));
    diff.added.sort(byLabel);
    diff.changed.sort(byLabel);
    diff.removed.sort(byLabel);
    diffs.push(diff);
  }
  diffs.sort((a, b) => a.code.localeCompare(b.code));
  errors.sort((a, b) => a.rowNumber - b.rowNumber);
  const changes = diffs.reduce((n, d) => n + d.added.length + d.changed.length + d.removed.length, 0);
  const versions = await versionsToken(diffs);
  return { job: base, services: diffs, errors, changes, versions };
}

/** The preview of a recipes import: what it would change, and every row's problem. */
export async function recipesPreview(
  db: Database,
  files: R2Bucket,
  actor: ScopedActor,
  jobId: string,
): Promise<Outcome<{ preview: RecipesPreview }>> {
  if (!can(actor, "READ_IMPORTS", actor.locationId)) return refuse("forbidden");
  const job = await jobOf(db, actor, jobId);
  if (!job) return refuse("not_found");
  return { ok: true, preview: await computePreview(db, files, actor, job) };
}

const valuesOf = (rows: SQL[]) => sql.join(rows, sql`, `);

/** Applies a preview's changes, all or none, if nothing it read has changed since (`versions`). */
export async function applyRecipes(
  db: Database,
  files: R2Bucket,
  actor: ScopedActor,
  input: { jobId: string; versions: string },
): Promise<Outcome<{ changes: number; services: number }>> {
  if (!canImportRecipes(actor)) return refuse("forbidden");
  const job = await jobOf(db, actor, input.jobId);
  if (!job) return refuse("not_found");
  if (job.status !== "preview") return refuse("not_preview");
  const preview = await computePreview(db, files, actor, job);
  if (preview.errors.length > 0) return { ...refuse("has_errors"), errors: preview.errors };
  if (preview.versions !== input.versions || preview.services.length === 0) return refuse("changed_meanwhile");

  const now = Date.now();
  const mark = uuidv7();
  const changed = preview.services.filter((d) => d.added.length + d.changed.length + d.removed.length > 0);
  const changedIds = changed.map((d) => d.serviceId);
  /** Each changed service's whole new recipe. */
  const newLines = changed.flatMap((d) => d.lines.map((l) => ({ serviceId: d.serviceId, ...l })));
  const versionsHold = sql`NOT EXISTS (SELECT 1 FROM (VALUES ${valuesOf(
    preview.services.map((d) => sql`(${d.serviceId}, ${d.version})`),
  )}) AS w WHERE NOT EXISTS (SELECT 1 FROM services AS s WHERE s.id = w.column1 AND s.version = w.column2))`;
  const usedIds = [...new Set(newLines.map((l) => l.variationId))];
  const variationsUsable =
    usedIds.length === 0
      ? sql`1`
      : sql`NOT EXISTS (SELECT 1 FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
          WHERE v.id IN (${sql.join(
            usedIds.map((id) => sql`${id}`),
            sql`, `,
          )}) AND NOT (v.active AND p.active))`;
  const logged = sql`EXISTS (SELECT 1 FROM activity_log AS mark WHERE mark.id = ${mark})`;
  const location = activityLocation(actor);
  const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [
    logActivityWhere(
      db,
      {
        id: mark,
        userId: actor.id,
        locationId: location,
        action: "import_recipes",
        entity: "import_job",
        entityId: job.id,
        summary: sql`json_object('fileName', file_name, 'changes', ${preview.changes}, 'services', ${changed.length})`,
      },
      sql`FROM import_jobs WHERE id = ${job.id} AND organization_id = ${organizationOf(actor)} AND kind = 'recipes'
        AND status = 'preview' AND ${versionsHold} AND ${variationsUsable}`,
    ),
  ];
  if (changed.length > 0) {
    const ids = sql.join(
      changedIds.map((id) => sql`${id}`),
      sql`, `,
    );
    const after = changed.map((d) => {
      const lines = newLines
        .filter((l) => l.serviceId === d.serviceId)
        .map((l) => ({ variationId: l.variationId, variation: l.label, quantity: l.quantity }))
        .sort((a, b) => a.variation.localeCompare(b.variation));
      return sql`(${uuidv7()}, ${d.serviceId}, ${JSON.stringify(lines)})`;
    });
    statements.push(
      // Each service's own update_recipe row, as the recipe editor writes it (before and after).
      db.run(sql`INSERT INTO activity_log (id, at, user_id, location_id, action, entity, entity_id, summary)
        SELECT x.column1, ${now}, ${actor.id}, ${location}, 'update_recipe', 'service', s.id,
          json_object('code', s.code, 'change', 'import', 'version', s.version + 1,
            'before', json((SELECT json_group_array(json_object('variationId', b.variation_id, 'variation', b.label, 'quantity', b.quantity))
              FROM (SELECT l.variation_id, p.name || ' · ' || v.name AS label, l.quantity FROM recipe_lines AS l
                JOIN product_variations AS v ON v.id = l.variation_id JOIN products AS p ON p.id = v.product_id
                WHERE l.service_id = s.id ORDER BY 2) AS b)),
            'after', json(x.column3))
        FROM (VALUES ${valuesOf(after)}) AS x JOIN services AS s ON s.id = x.column2 WHERE ${logged}`),
      db.run(sql`DELETE FROM recipe_lines WHERE service_id IN (${ids}) AND ${logged}`),
      db.run(sql`INSERT INTO recipe_lines (service_id, variation_id, quantity)
        SELECT column1, column2, CAST(column3 AS INTEGER) FROM (VALUES ${valuesOf(
          newLines.map((l) => sql`(${l.serviceId}, ${l.variationId}, ${l.quantity})`),
        )}) WHERE ${logged}`),
      db.run(sql`UPDATE services SET version = version + 1, updated_at = ${now} WHERE id IN (${ids}) AND ${logged}`),
    );
  }
  statements.push(
    db.run(sql`UPDATE import_jobs SET status = 'completed', started_at = ${now}, finished_at = ${now},
      rows_done = rows_total, imported = ${preview.changes}, errors = 0 WHERE id = ${job.id} AND ${logged}`),
  );
  const results = await db.batch([
    ...statements,
    db.all<{ id: string }>(sql`SELECT id FROM activity_log WHERE id = ${mark}`),
  ]);
  const applied = results[results.length - 1] as { id: string }[];
  if (applied.length === 0) {
    const again = await jobOf(db, actor, job.id);
    return again?.status === "preview" ? refuse("changed_meanwhile") : refuse("not_preview");
  }
  return { ok: true, changes: preview.changes, services: changed.length };
}

/**
 * The API's recipes import (POST /api/imports kind=recipes, after the upload made its job): applied
 * at once when no row has a problem; otherwise nothing changes, the job is marked failed, and every
 * row's problem is answered (422).
 */
export async function importRecipesNow(
  db: Database,
  files: R2Bucket,
  actor: ScopedActor,
  job: { id: string },
): Promise<Outcome<{ id: string; status: "completed"; changes: number; services: number }>> {
  if (!canImportRecipes(actor)) return refuse("forbidden");
  const found = await jobOf(db, actor, job.id);
  if (!found) return refuse("not_found");
  if (found.status !== "preview") return refuse("not_preview");
  const preview = await computePreview(db, files, actor, found);
  if (preview.errors.length > 0) {
    await db.run(sql`UPDATE import_jobs SET status = 'failed', finished_at = ${Date.now()}, errors = ${preview.errors.length},
      last_error = ${"Some rows have problems: no recipe was changed."} WHERE id = ${found.id} AND status = 'preview'`);
    return { ...refuse("has_errors"), errors: preview.errors };
  }
  const applied = await applyRecipes(db, files, actor, { jobId: found.id, versions: preview.versions });
  if (!applied.ok) return applied;
  return { ok: true, id: found.id, status: "completed", changes: applied.changes, services: applied.services };
}

/** Discards a preview: its job and its files go (nothing was applied), with a discard_import row. */
export async function discardRecipes(
  db: Database,
  files: R2Bucket,
  actor: ScopedActor,
  jobId: string,
): Promise<Outcome<{ fileName: string }>> {
  if (!canImportRecipes(actor)) return refuse("forbidden");
  const job = await jobOf(db, actor, jobId);
  if (!job) return refuse("not_found");
  const mark = uuidv7();
  const logged = sql`EXISTS (SELECT 1 FROM activity_log WHERE id = ${mark})`;
  const [, , gone] = await db.batch([
    logActivityWhere(
      db,
      {
        id: mark,
        userId: actor.id,
        locationId: activityLocation(actor),
        action: "discard_import",
        entity: "import_job",
        entityId: jobId,
        summary: sql`json_object('fileName', file_name, 'kind', 'recipes')`,
      },
      sql`FROM import_jobs WHERE id = ${jobId} AND kind = 'recipes' AND status = 'preview'
        AND organization_id = ${organizationOf(actor)}`,
    ),
    db.run(sql`DELETE FROM import_jobs WHERE id = ${jobId} AND ${logged}`),
    db.all<{ id: string }>(sql`SELECT id FROM activity_log WHERE id = ${mark}`),
  ]);
  if (gone.length === 0) return refuse("not_preview");
  await files.delete([...new Set([job.originalKey, job.rowsKey])]);
  return { ok: true, fileName: job.fileName };
}

export const RECIPE_IMPORTS_PAGE = 20;

export interface RecipeImportSummary {
  id: string;
  fileName: string;
  status: string;
  createdAt: Date;
  changes: number;
  errors: number;
  by: string;
}

/** The organization's recipes imports, newest first, a page at a time. */
export async function recipeImports(
  db: Database,
  actor: ScopedActor,
  page: number,
): Promise<{ items: RecipeImportSummary[]; total: number; page: number; pageCount: number }> {
  if (!can(actor, "READ_IMPORTS", actor.locationId)) return { items: [], total: 0, page: 1, pageCount: 1 };
  const org = organizationOf(actor);
  const [counted, rows] = await db.batch([
    db.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM import_jobs WHERE organization_id = ${org} AND kind = 'recipes'`,
    ),
    db.all<{
      id: string;
      file_name: string;
      status: string;
      created_at: number;
      imported: number;
      errors: number;
      by: string | null;
    }>(
      sql`SELECT j.id, j.file_name, j.status, j.created_at, j.imported, j.errors, u.first_name || ' ' || u.last_name AS by
        FROM import_jobs AS j LEFT JOIN users AS u ON u.id = j.created_by
        WHERE j.organization_id = ${org} AND j.kind = 'recipes'
        ORDER BY j.created_at DESC, j.id DESC LIMIT ${RECIPE_IMPORTS_PAGE} OFFSET ${(page - 1) * RECIPE_IMPORTS_PAGE}`,
    ),
  ]);
  const total = counted[0]?.n ?? 0;
  return {
    items: rows.map((r) => ({
      id: r.id,
      fileName: r.file_name,
      status: r.status,
      createdAt: new Date(r.created_at),
      changes: r.imported,
      errors: r.errors,
      by: r.by ?? "",
    })),
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / RECIPE_IMPORTS_PAGE)),
  };
}
