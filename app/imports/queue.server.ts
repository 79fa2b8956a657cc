// What the person does with a file in preview: try another column mapping (`remapImport`), confirm
// it (`queueImport`: the jobs worker takes it from there) or throw it away (`discardImport`). Each
// is one batch guarded in SQL (the job still in preview, of the actor's organization, at a location
// they may import into), with its activity row where it records something: `import_sales` when
// queued, `discard_import` when discarded. A mapping confirmed for a file no preset recognises is
// saved for its headers, and offered the next time a file with the same headers is uploaded.
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { activityLocation } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import type { ImportSource, ImportStatus } from "../../db/schema/imports/constants";
import type { PreviewInput } from "./forms";
import { IMPORT_UPLOAD_MESSAGES, type Outcome, refuse } from "./job-refusals";
import { jobReached } from "./list.server";
import type { ColumnMapping } from "./parse/fields";
import { headerSignature, PRESETS, type PresetId } from "./parse/presets";
import { importKeys, keptMapping, mayImportAt, missingFields } from "./upload.server";

const FIELD_NAMES: Record<string, string> = { date: "Date", item: "Item", quantity: "Quantity", netSales: "Net Sales" };

interface Job {
  id: string;
  status: ImportStatus;
  source: ImportSource;
  location_id: string | null;
  headers: string;
  file_name: string;
  original_key: string;
  rows_key: string;
}

async function jobInPreview(db: Database, actor: ScopedActor, jobId: string) {
  const rows = await db.all<Job>(sql`SELECT j.id, j.status, j.source, j.location_id, j.headers, j.file_name,
      j.original_key, j.rows_key
    FROM import_jobs AS j WHERE j.id = ${jobId} AND ${jobReached(actor, "WRITE_IMPORTS")}`);
  const job = rows[0];
  if (!job) return refuse("not_found");
  if (job.status !== "preview") return refuse("not_preview");
  return { ok: true as const, job };
}

/** The job is still in preview and the actor may write it (the guard of every statement below). */
const stillInPreview = (actor: ScopedActor, jobId: string): SQL =>
  sql`j.id = ${jobId} AND j.status = 'preview' AND ${jobReached(actor, "WRITE_IMPORTS")}`;

/** Every location a location map names is an active one of the organization. */
const mapTargetsReal = (actor: ScopedActor, map: string | null): SQL =>
  map === null
    ? sql`1`
    : sql`NOT EXISTS (SELECT 1 FROM json_each(${map}) AS m WHERE m.value NOT IN
        (SELECT id FROM locations WHERE organization_id = ${organizationOf(actor)} AND active = 1))`;

interface Checked {
  job: Job;
  mapping: ColumnMapping;
  locationMap: string | null;
  source: ImportSource;
}

/** The mapping and location map checked against the file's headers and the actor's locations. */
async function checked(db: Database, actor: ScopedActor, input: PreviewInput, complete: boolean) {
  const found = await jobInPreview(db, actor, input.jobId);
  if (!found.ok) return found;
  const { job } = found;
  const headers = JSON.parse(job.headers) as string[];
  const unknown = Object.values(input.mapping).find((h) => h && !headers.includes(h));
  if (unknown) return refuse("unknown_header");
  const mapping = keptMapping(input.mapping, headers);
  // A fixed location decides every row: the file's location column (if any) is not read.
  if (job.location_id) delete mapping.location;
  let locationMap: string | null = null;
  if (!job.location_id && mapping.location) {
    const entries = Object.entries(input.locationMap);
    if (entries.some(([, target]) => !mayImportAt(actor, target))) return refuse("location_unavailable");
    if (complete && entries.length === 0) return refuse("location_values");
    locationMap = JSON.stringify(Object.fromEntries(entries));
  }
  if (complete) {
    const missing = missingFields(mapping, headers);
    if (missing.length > 0) {
      return refuse("missing_fields", IMPORT_UPLOAD_MESSAGES.missingFields(missing.map((f) => FIELD_NAMES[f] ?? f)));
    }
    if (!job.location_id && !mapping.location) return refuse("location_needed");
  }
  // A preset's file keeps its name only while its mapping is the preset's own.
  const preset = job.source === "custom" ? null : PRESETS[job.source as PresetId];
  const same =
    preset && JSON.stringify(keptMapping(preset.mapping, headers)) === JSON.stringify(keptMapping(mapping, headers));
  const source: ImportSource = same ? job.source : "custom";
  return { ok: true as const, checked: { job, mapping, locationMap, source } satisfies Checked };
}

/** Another column mapping (and location map) for a file in preview, to see its rows read with it. */
export async function remapImport(
  db: Database,
  actor: ScopedActor,
  input: PreviewInput,
): Promise<Outcome<{ jobId: string }>> {
  const result = await checked(db, actor, input, false);
  if (!result.ok) return result;
  const { mapping, locationMap, source } = result.checked;
  const changed = await db.all<{ id: string }>(sql`UPDATE import_jobs AS j SET mapping = ${JSON.stringify(mapping)},
      location_map = ${locationMap}, source = ${source}
    WHERE ${stillInPreview(actor, input.jobId)} AND ${mapTargetsReal(actor, locationMap)} RETURNING id`);
  if (changed.length !== 1) return refuse("not_preview");
  return { ok: true, jobId: input.jobId };
}

/**
 * Confirms a file in preview: its mapping and location map (checked complete), status `queued` for
 * the jobs worker, and the mapping saved for its headers when no preset made it.
 */
export async function queueImport(
  db: Database,
  actor: ScopedActor,
  input: PreviewInput,
): Promise<Outcome<{ jobId: string; status: "queued" }>> {
  const result = await checked(db, actor, input, true);
  if (!result.ok) return result;
  const { job, mapping, locationMap, source } = result.checked;
  const now = Date.now();
  const guard = sql`${stillInPreview(actor, input.jobId)} AND ${mapTargetsReal(actor, locationMap)}`;
  const mappingJson = JSON.stringify(mapping);
  const [, queued] = await db.batch([
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: job.location_id ?? activityLocation(actor),
        action: "import_sales",
        entity: "import_job",
        entityId: input.jobId,
        summary: sql`json_object('fileName', j.file_name, 'rows', j.rows_total, 'queued', 1)`,
      },
      sql`FROM import_jobs AS j WHERE ${guard}`,
    ),
    db.all<{
      id: string;
    }>(sql`UPDATE import_jobs AS j SET status = 'queued', queued_at = ${now}, mapping = ${mappingJson},
        location_map = ${locationMap}, source = ${source}
      WHERE ${guard} RETURNING id`),
    db.run(
      source === "custom"
        ? sql`INSERT INTO import_mappings (organization_id, header_signature, kind, mapping, updated_by, updated_at)
            SELECT j.organization_id, ${headerSignature(JSON.parse(job.headers) as string[])}, j.kind, ${mappingJson},
              ${actor.id}, ${now}
            FROM import_jobs AS j WHERE j.id = ${input.jobId} AND j.status = 'queued' AND j.queued_at = ${now}
            ON CONFLICT (organization_id, kind, header_signature)
            DO UPDATE SET mapping = excluded.mapping, updated_by = excluded.updated_by, updated_at = excluded.updated_at`
        : sql`SELECT 1 WHERE 0`,
    ),
  ]);
  if (queued.length !== 1) return refuse("not_preview");
  return { ok: true, jobId: input.jobId, status: "queued" };
}

/** Throws away a file in preview (it was never imported): its job row, then its objects in R2. */
export async function discardImport(
  db: Database,
  files: R2Bucket,
  actor: ScopedActor,
  input: { jobId: string },
): Promise<Outcome<{ fileName: string }>> {
  const found = await jobInPreview(db, actor, input.jobId);
  if (!found.ok) return found;
  const { job } = found;
  const [, deleted] = await db.batch([
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: job.location_id ?? activityLocation(actor),
        action: "discard_import",
        entity: "import_job",
        entityId: input.jobId,
        summary: sql`json_object('fileName', j.file_name)`,
      },
      sql`FROM import_jobs AS j WHERE ${stillInPreview(actor, input.jobId)}`,
    ),
    db.all<{ original_key: string; rows_key: string }>(sql`DELETE FROM import_jobs AS j
      WHERE ${stillInPreview(actor, input.jobId)} RETURNING original_key, rows_key`),
  ]);
  const gone = deleted[0];
  if (!gone) return refuse("not_preview");
  // After the row: a failed delete leaves an object no job names, never a job without its file.
  await files.delete([...new Set([gone.original_key, gone.rows_key, importKeys.rows(input.jobId)])]);
  return { ok: true, fileName: job.file_name };
}
