// /sales-import/{id}: one uploaded file. In preview: the export recognised (or not), its column
// mapping (one select per field, pre-filled, required fields marked), its location (fixed, or each
// location the file names mapped to one), the first 20 rows as the worker will read them, each with
// its error; then "Import N rows" (queued for the jobs worker) or "Discard" (asks first). Once
// queued: its progress bar (moving while the worker runs), its counts and first errors, and the
// rows in error as a CSV download.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { timeZoneHere } from "~/access/actor";
import { actorHere } from "~/access/door.server";
import { canHere } from "~/access/scope.server";
import { refreshingClientAction } from "~/browser/refresh-after-action";
import { orOutage } from "~/http/outage.server";
import { done, intentOf } from "~/http/outcome.server";
import { DiscardForm, PreviewForm, SALES_FIELD_LABELS } from "~/imports/forms";
import { importJobOf, importJobQueries } from "~/imports/list.server";
import { REQUIRED_SALES_FIELDS, SALES_FIELDS } from "~/imports/parse/fields";
import { type PreviewRow, previewFactsQuery, previewOf } from "~/imports/preview.server";
import { discardImport, queueImport, remapImport } from "~/imports/queue.server";
import {
  CountsText,
  errorsCsvPath,
  ImportProgress,
  importPath,
  isMoving,
  SALES_IMPORT_PATH,
  STATUS_LABELS,
  useRevalidateWhile,
} from "~/imports/sales-import-parts";
import { mayImportAt } from "~/imports/upload.server";
import { area } from "~/shell/areas";
import { showInstant } from "~/ui/dates";
import { Button, Card, FormAlert, SelectField } from "~/ui/form";
import { CELL, DataRow, DataTable } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Sales Import · Clinic Inventory" }];

const INTENTS = ["remap", "queue", "discard"] as const;

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/sales-import/{id}").permission);
  const { db, env } = args.context;
  const id = args.params.jobId ?? "";
  // One round trip after the session: the job, its first errors and (in preview) what the preview reads.
  const [rows, errorRows, previewFacts] = await orOutage(
    db.batch([...importJobQueries(db, actor, id), previewFactsQuery(db, actor, id)]),
  );
  const job = importJobOf(rows, errorRows);
  if (job?.kind !== "sales") throw data("That import does not exist here.", { status: 404 });
  const timeZone = timeZoneHere(actor);
  const locations = actor.locationRoles
    .filter((r) => mayImportAt(actor, r.locationId))
    .map((r) => ({ id: r.locationId, name: r.location.name, code: r.location.code }));
  let preview = null;
  if (job.status === "preview") {
    const outcome = await previewOf(env.FILES, job, previewFacts[0], locations);
    if (!outcome.ok) throw data(outcome.message, { status: 404 });
    const p = outcome.preview;
    const money = (cents: number) =>
      (cents / 100).toLocaleString("en-US", { style: "currency", currency: "USD", currencyDisplay: "narrowSymbol" });
    preview = {
      ...p,
      rows: p.rows.map((r: PreviewRow) =>
        r.kind === "sale"
          ? {
              ...r,
              when: showInstant(r.soldAt, p.job.timeZone)?.text ?? "",
              net: money(r.netCents),
              locationName: p.job.locationName,
            }
          : r,
      ),
    };
  }
  return {
    job: {
      ...job,
      created: showInstant(job.createdAt, timeZone)?.text ?? "",
      finished: job.finishedAt === null ? null : (showInstant(job.finishedAt, timeZone)?.text ?? null),
    },
    preview,
    locations,
    canWrite: canHere(actor, "WRITE_IMPORTS") || locations.length > 0,
  };
}

interface Failure {
  formError: string;
  fieldErrors: Record<string, string>;
}

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_IMPORTS");
  const { db, env } = args.context;
  const form = Object.fromEntries(await args.request.formData());
  const intent = intentOf(form, INTENTS);
  const jobId = args.params.jobId ?? "";
  if (intent === "discard") {
    const parsed = DiscardForm.safeParse({ jobId });
    if (!parsed.success) throw data("That import does not exist here.", { status: 404 });
    const outcome = await orOutage(discardImport(db, env.FILES, actor, parsed.data));
    if (!outcome.ok) {
      if (outcome.refusal === "forbidden") throw data(outcome.message, { status: 403 });
      if (outcome.refusal === "not_found") throw data(outcome.message, { status: 404 });
      return data<Failure>({ formError: outcome.message, fieldErrors: {} }, { status: 409 });
    }
    return done(SALES_IMPORT_PATH, "Upload discarded", `${outcome.fileName} was not imported.`);
  }
  const parsed = PreviewForm.safeParse({ ...form, jobId });
  if (!parsed.success) {
    return data<Failure>(
      { formError: parsed.error.issues[0]?.message ?? "Check the columns chosen.", fieldErrors: {} },
      { status: 400 },
    );
  }
  const outcome = await orOutage((intent === "queue" ? queueImport : remapImport)(db, actor, parsed.data));
  if (!outcome.ok) {
    if (outcome.refusal === "forbidden") throw data(outcome.message, { status: 403 });
    if (outcome.refusal === "not_found") throw data(outcome.message, { status: 404 });
    return data<Failure>({ formError: outcome.message, fieldErrors: {} }, { status: 409 });
  }
  if (intent === "queue") {
    return done(importPath(jobId), "Import queued", "The rows are imported in the background: watch the bar.");
  }
  return done(importPath(jobId), "Columns changed", "The first rows below are read with them.");
}

export const clientAction = refreshingClientAction({ queue: "import_sales" });

const n = (v: number) => v.toLocaleString("en-US");

export default function SalesImportJob() {
  const { job, preview, locations, canWrite } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as Failure | undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const moving = isMoving(job.status);
  useRevalidateWhile(moving);
  return (
    <div className="flex flex-col gap-4">
      <p>
        <Link to={SALES_IMPORT_PATH} className="text-sky-800 text-sm underline">
          ← Sales Import
        </Link>
      </p>
      <h1 className="font-semibold text-2xl break-words">{job.fileName}</h1>
      <p className="text-slate-600 text-sm">
        {STATUS_LABELS[job.status]} · uploaded by {job.createdByName} on {job.created}
        {job.locationName && ` · ${job.locationName}`}
      </p>
      {preview ? (
        <Form method="post" className="flex flex-col gap-4">
          <FormAlert message={failure?.formError} />
          <Card title="Columns">
            <p className="mb-3 text-sm">
              {preview.presetName
                ? `Recognised: ${preview.presetName} export. Its columns are chosen below; change any that are wrong.`
                : "Not a known export: choose which column holds each field. The choice is remembered for files with the same columns."}
            </p>
            <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {SALES_FIELDS.filter((f) => f !== "location" || !preview.job.locationId).map((field) => {
                const required = REQUIRED_SALES_FIELDS.includes(field);
                return (
                  <SelectField
                    key={field}
                    label={SALES_FIELD_LABELS[field]}
                    note={required ? "required" : undefined}
                    name={`field.${field}`}
                    id={`field-${field}`}
                    required={required}
                    defaultValue={preview.job.mapping[field] ?? ""}
                    error={preview.missing.includes(field) ? "Choose the column that holds it." : undefined}
                    options={[
                      { value: "", label: required ? "Choose a column…" : "Not in this file" },
                      ...preview.job.headers.filter((h) => h !== "").map((h) => ({ value: h, label: h })),
                    ]}
                  />
                );
              })}
            </div>
          </Card>
          <Card title="Location">
            {preview.job.locationId ? (
              <p className="text-sm">Every row is a sale at {preview.job.locationName}.</p>
            ) : preview.locationValues.length === 0 ? (
              <p className="text-sm">
                Choose the file's Location column above, then "Read the rows again": each location it names is listed
                here to match to one of yours.
              </p>
            ) : (
              <div className="grid gap-3 sm:grid-cols-2">
                {preview.locationValues.map((v, i) => (
                  <div key={v.value}>
                    <input type="hidden" name={`locationValue.${i}`} value={v.value} />
                    <SelectField
                      label={`"${v.value}" in the file is`}
                      name={`locationTarget.${i}`}
                      id={`location-target-${i}`}
                      required={false}
                      defaultValue={v.locationId ?? ""}
                      options={[
                        { value: "", label: "Not one of ours (its rows are errors)" },
                        ...locations.map((l) => ({ value: l.id, label: l.name })),
                      ]}
                    />
                  </div>
                ))}
              </div>
            )}
          </Card>
          <Card title="First rows">
            <DataTable
              caption="The file's first rows, as they will be imported"
              columns={[{ label: "Row", title: true }, { label: "Reads as", key: true }, "Item", "Quantity", "Net"]}
              rowCount={preview.rows.length}
              empty="No rows could be read at the start of the file."
            >
              {preview.rows.map((r) =>
                r.kind === "sale" ? (
                  <DataRow key={r.row}>
                    <td className={CELL}>Row {r.row}</td>
                    <td className={CELL}>
                      {"when" in r ? r.when : ""}
                      {r.location && !preview.job.locationId && (
                        <span className="block text-slate-600 text-xs">{r.location}</span>
                      )}
                    </td>
                    <td className={CELL}>{r.item}</td>
                    <td className={CELL}>{n(r.quantity)}</td>
                    <td className={CELL}>{"net" in r ? r.net : ""}</td>
                  </DataRow>
                ) : (
                  <DataRow key={r.row}>
                    <td className={CELL}>Row {r.row}</td>
                    <td className={CELL} colSpan={4}>
                      {r.kind === "skip" ? (
                        <span className="text-slate-600">{r.reason}</span>
                      ) : (
                        <span className="text-red-700">
                          {r.message}
                          {r.column && ` (${r.column}${r.value ? `: "${r.value}"` : ""})`}
                        </span>
                      )}
                    </td>
                  </DataRow>
                ),
              )}
            </DataTable>
          </Card>
          {canWrite ? (
            <div className="flex flex-wrap gap-2">
              <Button name="intent" value="queue" disabled={busy}>
                Import {n(preview.job.rowsTotal)} rows
              </Button>
              <Button name="intent" value="remap" tone="secondary" disabled={busy}>
                Read the rows again with these columns
              </Button>
            </div>
          ) : (
            <p className="text-slate-600 text-sm">Importing takes the Imports write permission at this location.</p>
          )}
        </Form>
      ) : (
        <Card title="Progress">
          <div className="flex flex-col gap-3">
            <ImportProgress job={job} />
            <CountsText counts={job.counts} />
            {job.status === "failed" && job.lastError && <FormAlert message={job.lastError} />}
            {job.finished && <p className="text-slate-600 text-sm">Finished {job.finished}.</p>}
            {moving && (
              <noscript>
                <a href={importPath(job.id)} className="text-sky-800 underline">
                  Refresh
                </a>
              </noscript>
            )}
          </div>
        </Card>
      )}
      {preview && canWrite && (
        <details className="rounded-md border border-slate-200 bg-white p-3">
          <summary className="cursor-pointer font-medium text-red-700 text-sm">Discard this upload…</summary>
          <Form method="post" className="mt-2 flex flex-col gap-2">
            <p className="text-sm">
              Discard {job.fileName}? The file is deleted and nothing from it is imported. You can upload it again
              later.
            </p>
            <div>
              <Button name="intent" value="discard" tone="danger" disabled={busy}>
                Discard the upload
              </Button>
            </div>
          </Form>
        </details>
      )}
      {!preview && job.errorsShown.length > 0 && (
        <Card title="Rows in error">
          <div className="flex flex-col gap-3">
            <DataTable
              caption="The first rows in error"
              columns={[{ label: "Row", title: true }, "Column", "Value", { label: "Problem", key: true }]}
              rowCount={job.errorsShown.length}
              empty="No rows in error."
            >
              {job.errorsShown.map((e) => (
                <DataRow key={e.row}>
                  <td className={CELL}>Row {e.row}</td>
                  <td className={CELL}>{e.column ?? "—"}</td>
                  <td className={CELL}>{e.value ?? "—"}</td>
                  <td className={CELL}>{e.message}</td>
                </DataRow>
              ))}
            </DataTable>
            <a href={errorsCsvPath(job.id)} className="text-sky-800 text-sm underline">
              Download rows in error (CSV): all {n(job.counts.errors)}
            </a>
          </div>
        </Card>
      )}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
