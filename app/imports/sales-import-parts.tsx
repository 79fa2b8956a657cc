// The parts of the /sales-import screens: the upload form, the imports list with a progress bar that
// moves (the page reads itself again every 2 s while an import is queued or running; a plain
// Refresh link before JavaScript), an import's counts, and the unknown items' mapping forms.
import { Form, Link, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { Button, Card, FileField, SelectField } from "~/ui/form";
import { CELL, DataRow, DataTable, Pagination } from "~/ui/table";
import type { ImportStatus } from "../../db/schema/imports/constants";
import type { UnknownItem } from "./map-item.server";

export const SALES_IMPORT_PATH = "/sales-import";
export const importPath = (id: string) => `${SALES_IMPORT_PATH}/${id}`;
export const errorsCsvPath = (id: string) => `${SALES_IMPORT_PATH}/${id}/errors.csv`;
export const REVALIDATE_MS = 2_000;

export const STATUS_LABELS: Record<ImportStatus, string> = {
  preview: "Waiting for your check",
  queued: "Queued",
  processing: "Importing",
  completed: "Imported",
  failed: "Failed",
};

/** Whether an import is still moving (the page reads itself again while one is). */
export const isMoving = (status: ImportStatus) => status === "queued" || status === "processing";

/** Reads the page again every 2 s while `active` (an import queued or running): the bars move. */
export function useRevalidateWhile(active: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, REVALIDATE_MS);
    return () => clearInterval(timer);
  }, [active, revalidator]);
}

export interface ShownImport {
  id: string;
  status: ImportStatus;
  fileName: string;
  locationName: string | null;
  createdByName: string;
  created: string;
  rowsDone: number;
  rowsTotal: number;
  counts: { imported: number; duplicates: number; skipped: number; unmapped: number; errors: number };
  lastError: string | null;
}

const n = (v: number) => v.toLocaleString("en-US");

export function ImportProgress({ job }: { job: Pick<ShownImport, "status" | "rowsDone" | "rowsTotal" | "fileName"> }) {
  const total = Math.max(job.rowsTotal, 1);
  const done = job.status === "completed" ? job.rowsTotal : Math.min(job.rowsDone, job.rowsTotal);
  const percent = Math.round((done / total) * 100);
  return (
    <div className="flex min-w-40 flex-col gap-1">
      <div
        role="progressbar"
        aria-label={`Progress of ${job.fileName}`}
        aria-valuemin={0}
        aria-valuemax={job.rowsTotal}
        aria-valuenow={done}
        aria-valuetext={`${n(done)} of ${n(job.rowsTotal)} rows`}
        className="h-2 w-full overflow-hidden rounded bg-slate-200"
      >
        <div
          className={`h-full ${job.status === "failed" ? "bg-red-600" : "bg-sky-600"}`}
          style={{ width: `${percent}%` }}
        />
      </div>
      <span className="text-slate-600 text-xs">
        {n(done)} of {n(job.rowsTotal)} rows
      </span>
    </div>
  );
}

export function CountsText({ counts }: { counts: ShownImport["counts"] }) {
  return (
    <span className="text-sm">
      {n(counts.imported)} imported · {n(counts.duplicates)} {counts.duplicates === 1 ? "duplicate" : "duplicates"} ·{" "}
      {n(counts.skipped)} skipped · {n(counts.unmapped)} unmapped · {n(counts.errors)}{" "}
      {counts.errors === 1 ? "error" : "errors"}
    </span>
  );
}

export function UploadForm({
  locations,
  fixedLocation,
  error,
  reason,
}: {
  locations: readonly { id: string; name: string }[];
  /** The location in scope (location mode): the picker shows only it. */
  fixedLocation: string | null;
  error: string | null;
  /** Why there is no form (the reader may not upload here). */
  reason: string | null;
}) {
  return (
    <Card title="Upload a sales file">
      {reason ? (
        <p className="text-slate-600 text-sm">{reason}</p>
      ) : (
        <Form method="post" encType="multipart/form-data" className="flex flex-col gap-3">
          <input type="hidden" name="kind" value="sales" />
          <p className="text-slate-600 text-sm">
            A point-of-sale sales export as CSV or Excel (.xlsx): Square's item sales export and Zenoti's sales accrual
            report are recognised by their columns; any other file gets a column mapping that is remembered.
          </p>
          <SelectField
            label="Location"
            name="locationId"
            defaultValue={fixedLocation ?? ""}
            hint="Where these sales were made."
            options={[
              ...(fixedLocation ? [] : [{ value: "", label: "Each row's own location (the file's Location column)" }]),
              ...locations.map((l) => ({ value: l.id, label: l.name })),
            ]}
          />
          <FileField
            id="sales-file"
            label="Sales file (CSV or XLSX)"
            name="file"
            accept=".csv,.xlsx"
            error={error ?? undefined}
          />
          <div>
            <Button>Upload and preview</Button>
          </div>
        </Form>
      )}
    </Card>
  );
}

export function ImportsTable({
  items,
  total,
  page,
  pageCount,
}: {
  items: readonly ShownImport[];
  total: number;
  page: number;
  pageCount: number;
}) {
  const anyMoving = items.some((i) => isMoving(i.status));
  useRevalidateWhile(anyMoving);
  return (
    <Card title="Imports">
      <div className="flex flex-col gap-3">
        {anyMoving && (
          <noscript>
            <p className="text-sm">
              An import is running. <a href={`${SALES_IMPORT_PATH}?page=${page}`}>Refresh</a> to see how far it is.
            </p>
          </noscript>
        )}
        <DataTable
          caption="Imports, newest first"
          columns={[
            { label: "File", title: true },
            { label: "Status", key: true },
            "Progress",
            "Counts",
            "Who",
            "When",
          ]}
          rowCount={items.length}
          empty="No sales file uploaded yet. Upload one above."
        >
          {items.map((job) => (
            <DataRow key={job.id}>
              <td className={CELL}>
                <Link to={importPath(job.id)} className="font-medium text-sky-800 underline">
                  {job.fileName}
                </Link>
                {job.locationName && <span className="block text-slate-600 text-xs">{job.locationName}</span>}
              </td>
              <td className={CELL}>
                {STATUS_LABELS[job.status]}
                {job.lastError && job.status === "failed" && (
                  <span className="block text-red-700 text-xs">{job.lastError}</span>
                )}
              </td>
              <td className={CELL}>{job.status === "preview" ? "—" : <ImportProgress job={job} />}</td>
              <td className={CELL}>
                {job.status === "preview" ? (
                  <Link to={importPath(job.id)} className="text-sky-800 underline">
                    Check and import
                  </Link>
                ) : (
                  <>
                    <CountsText counts={job.counts} />
                    {job.counts.errors > 0 && (
                      <a href={errorsCsvPath(job.id)} className="block text-sky-800 text-sm underline">
                        Download rows in error (CSV)
                      </a>
                    )}
                  </>
                )}
              </td>
              <td className={CELL}>{job.createdByName}</td>
              <td className={CELL}>{job.created}</td>
            </DataRow>
          ))}
        </DataTable>
        <Pagination
          total={total}
          noun="imports"
          page={page}
          pageCount={pageCount}
          pageLink={(p) => `${SALES_IMPORT_PATH}?page=${p}`}
        />
      </div>
    </Card>
  );
}

export function UnknownItems({
  items,
  total,
  page,
  pageCount,
  canMap,
}: {
  items: readonly UnknownItem[];
  total: number;
  page: number;
  pageCount: number;
  canMap: boolean;
}) {
  return (
    <Card title="Unknown items">
      <div className="flex flex-col gap-3">
        <p className="text-slate-600 text-sm">
          Items the files sold that are not yet a service or a retail product. Their rows are imported and counted as
          unmapped; map an item once and every line already imported follows.
        </p>
        {!canMap && items.length > 0 && (
          <p className="text-slate-600 text-sm">Mapping items takes the Imports write permission at this location.</p>
        )}
        <DataTable
          caption="Unknown items"
          columns={[{ label: "Item", title: true }, { label: "Lines", key: true }, "Units", ""]}
          rowCount={items.length}
          empty="No unknown items: every item sold is a service, a retail product or marked not stock."
        >
          {items.map((item) => (
            <DataRow key={item.id}>
              <td className={CELL}>
                <span className="font-medium">{item.name}</span>
                {(item.sku || item.gtin) && (
                  <span className="block text-slate-600 text-xs">
                    {[item.sku && `SKU ${item.sku}`, item.gtin && `GTIN ${item.gtin}`].filter(Boolean).join(" · ")}
                  </span>
                )}
              </td>
              <td className={CELL}>{n(item.lines)}</td>
              <td className={CELL}>{n(item.units)}</td>
              <td className={CELL}>
                <Link
                  to={`/sales-import/items/${item.id}`}
                  aria-label={`${canMap ? "Map" : "See"} ${item.name}`}
                  className="font-medium text-sky-800 text-sm hover:underline"
                >
                  {canMap ? "Map…" : "See"}
                </Link>
              </td>
            </DataRow>
          ))}
        </DataTable>
        <Pagination
          total={total}
          noun="unknown items"
          page={page}
          pageCount={pageCount}
          pageLink={(p) => `${SALES_IMPORT_PATH}?items=${p}`}
        />
      </div>
    </Card>
  );
}
