// The imports JSON API (issue 24 item 6): an import as GET /api/imports/{id} answers it, a page of
// them (GET /api/imports), and the glue of POST /api/imports: the upload streamed and checked, a
// sales file queued at once when its columns are known (a preset, a mapping saved for its headers,
// or the `mapping` sent), else 422 naming the fields missing. Refusals are 4xx in the one shape.
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { answerOutcome } from "~/http/api.server";
import { API_HEADERS, jsonError } from "~/http/json.server";
import type { ImportRefusal } from "./job-refusals";
import { type ImportDetail, type ImportListItem, importJob, listImports } from "./list.server";
import { queueImport } from "./queue.server";
import { canImportRecipes, importRecipesNow } from "./recipes.server";
import { receiveUpload } from "./upload.server";

/** The status of each refusal an import answers (any other: 422, the file or its fields are at fault). */
export const IMPORT_STATUSES_HTTP: Partial<Record<ImportRefusal, number>> = {
  not_found: 404,
  not_multipart: 415,
  too_large: 413,
  not_preview: 409,
  empty: 422,
  no_rows: 422,
  no_file: 422,
  binary: 422,
  row_too_long: 422,
  too_wide: 422,
  wrong_headers: 422,
  missing_fields: 422,
  bad_mapping: 422,
  unknown_header: 422,
  location_needed: 422,
  location_unavailable: 422,
  location_values: 422,
  kind: 422,
  invalid: 422,
};

function itemJson(i: ImportListItem) {
  return {
    id: i.id,
    kind: i.kind,
    status: i.status,
    fileName: i.fileName,
    locationId: i.locationId,
    createdAt: new Date(i.createdAt).toISOString(),
    finishedAt: i.finishedAt === null ? null : new Date(i.finishedAt).toISOString(),
    rowsDone: i.rowsDone,
    rowsTotal: i.rowsTotal,
    counts: i.counts,
    lastError: i.lastError,
  };
}

function detailJson(d: ImportDetail) {
  return { ...itemJson(d), errors: d.errorsShown };
}

export async function importAnswer(db: Database, actor: ScopedActor, id: string): Promise<Response> {
  const job = await importJob(db, actor, id);
  if (!job) return jsonError(404, "That import does not exist here.", API_HEADERS, "not_found");
  return Response.json(detailJson(job), { headers: API_HEADERS });
}

export async function importsPageAnswer(db: Database, actor: ScopedActor, page: number): Promise<Response> {
  const list = await listImports(db, actor, page);
  return Response.json({ ...list, items: list.items.map(itemJson) }, { headers: API_HEADERS });
}

/**
 * POST /api/imports: the upload, then a sales file queued for the jobs worker, or a recipes file
 * applied at once, all or nothing (the recipes import's own verb): 201 with its status, completed;
 * a recipes file with rows in error is 422 with them (`errors`), and no recipe changes.
 */
export async function postImport(
  db: Database,
  files: R2Bucket,
  actor: ScopedActor,
  request: Request,
  idempotencyKey: string | null,
): Promise<Response> {
  const received = await receiveUpload(db, files, actor, request, undefined, {
    requireComplete: true,
    idempotencyKey,
    mayBring: (kind) => kind === "sales" || canImportRecipes(actor),
  });
  if (!received.ok) return answerOutcome(received, { statuses: IMPORT_STATUSES_HTTP });
  const { job } = received;
  // A repeated key answers the first upload as it now stands (already queued, perhaps done).
  if (job.status !== "preview") {
    return Response.json({ id: job.id, status: job.status }, { status: 201, headers: API_HEADERS });
  }
  if (job.kind === "recipes") {
    const applied = await importRecipesNow(db, files, actor, { id: job.id });
    if (applied.ok) return Response.json({ id: job.id, status: applied.status }, { status: 201, headers: API_HEADERS });
    if (applied.refusal === "has_errors") {
      return Response.json(
        { error: applied.message, code: applied.refusal, errors: applied.errors ?? [] },
        { status: 422, headers: API_HEADERS },
      );
    }
    return answerOutcome(applied, { statuses: { changed_meanwhile: 409, file_refused: 422, not_preview: 409 } });
  }
  const queued = await queueImport(db, actor, { jobId: job.id, mapping: job.mapping, locationMap: {} });
  if (!queued.ok) return answerOutcome(queued, { statuses: IMPORT_STATUSES_HTTP });
  return Response.json({ id: job.id, status: queued.status }, { status: 201, headers: API_HEADERS });
}
