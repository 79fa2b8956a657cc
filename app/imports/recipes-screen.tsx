// The recipes import screen's parts: the upload form (a plain multipart form: it works before
// JavaScript), the preview (every row's problem, then each service's difference against today's
// recipe, with apply and discard), and the list of past imports.
import { Form, Link } from "@remix-run/react";
import { type ShownInstant, Time } from "~/ui/dates";
import { Button, Card, FileField, FormAlert } from "~/ui/form";
import { CELL, DataRow, DataTable, Pagination } from "~/ui/table";
import { RECIPES_LIMITS } from "./recipes";
import type { RecipeDiffLine, ServiceDiff } from "./recipes.server";

export const RECIPES_PATH = "/recipes-import";
export const PREVIEW_ROWS_PAGE = 50;
export const PREVIEW_SERVICES_PAGE = 25;

const STATUS_WORDS: Record<string, string> = {
  preview: "Preview: not applied",
  queued: "Queued",
  processing: "Applying",
  completed: "Applied",
  failed: "Not applied (rows with problems)",
};

export function statusWords(status: string): string {
  return STATUS_WORDS[status] ?? status;
}

export function UploadCard({
  canImport,
  error,
  fieldError,
}: {
  canImport: boolean;
  error?: string | null;
  fieldError?: string | null;
}) {
  return (
    <Card title="Upload a recipes file">
      <div className="flex flex-col gap-3 text-slate-700 text-sm">
        <p>
          One row per service and product, with a header row naming the columns: the service (<b>Service Code</b> or{" "}
          <b>Service</b> name), the product variation (<b>SKU</b> or <b>GTIN</b>) and the <b>Quantity per service</b> in
          the product's unit (0.5 for 0.5 mL). CSV or XLSX, at most {RECIPES_LIMITS.maxBytes / 1024 / 1024} MiB and{" "}
          {RECIPES_LIMITS.maxRows.toLocaleString("en-US")} rows.
        </p>
        <p>
          The file is the whole recipe of each service it names: a product the service uses today and the file does not
          list is removed from it. Services the file does not name are not changed. Nothing changes until you apply the
          preview.
        </p>
        {canImport ? (
          <Form method="post" encType="multipart/form-data" action={RECIPES_PATH} className="flex flex-col gap-3">
            <input type="hidden" name="intent" value="upload" />
            <FormAlert message={error} />
            <FileField
              id="recipes-file"
              label="Recipes file (CSV or XLSX)"
              name="file"
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              error={fieldError ?? undefined}
            />
            <div>
              <Button>Upload and preview</Button>
            </div>
          </Form>
        ) : (
          <p data-testid="no-recipes-import">
            You can see recipes imports, but importing recipes is for administrators (imports and the catalogue): ask
            your location's admin or an organization admin.
          </p>
        )}
      </div>
    </Card>
  );
}

export interface ShownPreview {
  job: { id: string; fileName: string; status: string; createdAt: ShownInstant | null; rows: number; applied: number };
  errors: { rowNumber: number; column: string | null; value: string | null; message: string }[];
  errorsTotal: number;
  services: ServiceDiff[];
  servicesTotal: number;
  changes: number;
  versions: string;
  rowsPage: number;
  servicesPage: number;
}

function lineText(line: RecipeDiffLine, kind: "added" | "changed" | "removed"): string {
  if (kind === "added") return `${line.label}: ${line.afterText} per service`;
  if (kind === "removed") return `${line.label}: ${line.beforeText} per service`;
  return `${line.label}: ${line.beforeText} → ${line.afterText} per service`;
}

const KIND_STYLE = {
  added: ["Add", "text-emerald-800"],
  changed: ["Change", "text-sky-800"],
  removed: ["Remove", "text-red-700"],
} as const;

function ServiceChanges({ diff }: { diff: ServiceDiff }) {
  const kinds = ["added", "changed", "removed"] as const;
  const count = diff.added.length + diff.changed.length + diff.removed.length;
  return (
    <li className="rounded-md border border-slate-200 p-3" data-testid={`service-diff-${diff.code}`}>
      <p className="font-medium">
        <span className="font-mono">{diff.code}</span> · {diff.name}
      </p>
      {count === 0 ? (
        <p className="text-slate-600 text-sm">Already as in the file: no change.</p>
      ) : (
        <ul className="mt-1 flex flex-col gap-0.5 text-sm">
          {kinds.flatMap((kind) =>
            diff[kind].map((line) => (
              <li key={`${kind}-${line.variationId}`} className={KIND_STYLE[kind][1]}>
                <span className="font-medium">{KIND_STYLE[kind][0]}</span> {lineText(line, kind)}
              </li>
            )),
          )}
        </ul>
      )}
      {diff.unchanged > 0 && (
        <p className="text-slate-600 text-sm">
          {diff.unchanged} {diff.unchanged === 1 ? "line stays" : "lines stay"} as they are.
        </p>
      )}
    </li>
  );
}

export function PreviewCard({
  preview,
  canImport,
  error,
  pageLink,
}: {
  preview: ShownPreview;
  canImport: boolean;
  error?: string | null;
  pageLink: (pages: { rows?: number; services?: number }) => string;
}) {
  const { job, errors, errorsTotal, services, servicesTotal, changes } = preview;
  const open = job.status === "preview";
  const whyNot = !canImport
    ? "Applying recipes is for administrators (imports and the catalogue)."
    : errorsTotal > 0
      ? "Nothing can be applied until every row is right: correct the file and upload it again."
      : changes === 0
        ? "Today's recipes already match this file: there is nothing to apply."
        : null;
  return (
    <Card title={`Preview of ${job.fileName}`} id="preview-title">
      <div className="flex flex-col gap-4">
        <p className="text-slate-700 text-sm" data-testid="preview-summary">
          {statusWords(job.status)} · {job.rows} {job.rows === 1 ? "row" : "rows"} · uploaded{" "}
          <Time at={job.createdAt} />
          {job.status === "completed" && ` · ${job.applied} ${job.applied === 1 ? "change" : "changes"} applied`}
          {open && (
            <>
              {" "}
              · {changes} {changes === 1 ? "change" : "changes"} to {servicesTotal}{" "}
              {servicesTotal === 1 ? "service" : "services"}
              {errorsTotal > 0 && ` · ${errorsTotal} ${errorsTotal === 1 ? "row has a problem" : "rows have problems"}`}
            </>
          )}
        </p>
        <FormAlert message={error} />
        {(open || job.status === "failed") && errorsTotal > 0 && (
          <section aria-labelledby="row-problems-title" className="flex flex-col gap-2">
            <h3 id="row-problems-title" className="font-semibold">
              Rows with problems
            </h3>
            <DataTable
              caption="Rows with problems"
              columns={[{ label: "Row", title: true }, "Column", "Value", { label: "Problem", key: true }]}
              rowCount={errors.length}
              empty="No row has a problem."
            >
              {errors.map((e) => (
                <DataRow key={`${e.rowNumber}-${e.column}`}>
                  <td className={`${CELL} font-mono`}>Row {e.rowNumber}</td>
                  <td className={CELL}>{e.column ?? "—"}</td>
                  <td className={`${CELL} break-all font-mono`}>{e.value ?? "(empty)"}</td>
                  <td className={`${CELL} text-red-800`}>{e.message}</td>
                </DataRow>
              ))}
            </DataTable>
            <Pagination
              page={preview.rowsPage}
              pageCount={Math.max(1, Math.ceil(errorsTotal / PREVIEW_ROWS_PAGE))}
              total={errorsTotal}
              noun="rows with problems"
              pageLink={(n) => pageLink({ rows: n })}
            />
          </section>
        )}
        {open && servicesTotal > 0 && (
          <section aria-labelledby="service-changes-title" className="flex flex-col gap-2">
            <h3 id="service-changes-title" className="font-semibold">
              What changes, service by service
            </h3>
            <ul className="flex flex-col gap-2">
              {services.map((d) => (
                <ServiceChanges key={d.serviceId} diff={d} />
              ))}
            </ul>
            <Pagination
              page={preview.servicesPage}
              pageCount={Math.max(1, Math.ceil(servicesTotal / PREVIEW_SERVICES_PAGE))}
              total={servicesTotal}
              noun="services"
              pageLink={(n) => pageLink({ services: n })}
            />
          </section>
        )}
        {open && (
          <div className="flex flex-wrap items-start gap-3">
            {whyNot ? (
              <p className="text-slate-700 text-sm" data-testid="apply-unavailable">
                {whyNot}
              </p>
            ) : (
              <Form method="post" action={RECIPES_PATH}>
                <input type="hidden" name="intent" value="apply" />
                <input type="hidden" name="jobId" value={job.id} />
                <input type="hidden" name="versions" value={preview.versions} />
                <Button>
                  Apply {changes} {changes === 1 ? "change" : "changes"}
                </Button>
              </Form>
            )}
            {canImport && (
              <Form method="post" action={RECIPES_PATH}>
                <input type="hidden" name="intent" value="discard" />
                <input type="hidden" name="jobId" value={job.id} />
                <Button tone="secondary">Discard this upload</Button>
              </Form>
            )}
          </div>
        )}
      </div>
    </Card>
  );
}

export interface ShownImport {
  id: string;
  fileName: string;
  status: string;
  createdAt: ShownInstant | null;
  changes: number;
  errors: number;
  by: string;
}

export function ImportsTable({
  items,
  total,
  page,
  pageCount,
}: {
  items: ShownImport[];
  total: number;
  page: number;
  pageCount: number;
}) {
  return (
    <section aria-labelledby="recent-imports-title" className="flex flex-col gap-2">
      <h2 id="recent-imports-title" className="font-semibold text-lg">
        Recipes imports
      </h2>
      <DataTable
        caption="Recipes imports"
        columns={[{ label: "File", title: true }, { label: "Status", key: true }, "Changes", "Uploaded", "By"]}
        rowCount={items.length}
        empty="No recipes file has been imported yet."
      >
        {items.map((i) => (
          <DataRow key={i.id}>
            <td className={CELL}>
              <Link to={`${RECIPES_PATH}?job=${i.id}`} className="font-medium text-sky-800 hover:underline">
                {i.fileName}
              </Link>
            </td>
            <td className={CELL}>{statusWords(i.status)}</td>
            <td className={CELL}>
              {i.status === "completed" ? i.changes : i.errors > 0 ? `${i.errors} rows with problems` : "—"}
            </td>
            <td className={CELL}>
              <Time at={i.createdAt} />
            </td>
            <td className={CELL}>{i.by || "—"}</td>
          </DataRow>
        ))}
      </DataTable>
      <Pagination
        page={page}
        pageCount={pageCount}
        total={total}
        noun="imports"
        pageLink={(n) => `${RECIPES_PATH}?page=${n}`}
      />
    </section>
  );
}
