// /sales-import: upload a point-of-sale sales file (CSV or XLSX, streamed to storage; READ_IMPORTS
// sees the page, WRITE_IMPORTS uploads), the imports newest first (25 a page, at the location in
// scope or every location in organization mode) with their progress and counts, and the unknown
// items the files sold, each linking to its mapping page (/sales-import/items/{id}).
// A file goes on to /sales-import/{id} for its preview.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { timeZoneHere } from "~/access/actor";
import { actorHere } from "~/access/door.server";
import { canHere } from "~/access/scope.server";
import { pageNumber } from "~/forms/text";
import { mediaTypeOf } from "~/http/body.server";
import { orOutage } from "~/http/outage.server";
import { done } from "~/http/outcome.server";
import { IMPORTS_PAGE_SIZE } from "~/imports/forms";
import { importListOf, importListQueries } from "~/imports/list.server";
import { UNKNOWN_ITEMS_PAGE_SIZE, unknownItemsOf, unknownItemsQueries } from "~/imports/map-item.server";
import { ImportsTable, importPath, UnknownItems, UploadForm } from "~/imports/sales-import-parts";
import { mayImportAt, receiveUpload } from "~/imports/upload.server";
import { area } from "~/shell/areas";
import { showInstant } from "~/ui/dates";

export const meta: MetaFunction = () => [{ title: "Sales Import · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/sales-import").permission);
  const params = new URL(args.request.url).searchParams;
  const page = pageNumber().parse(params.get("page") ?? undefined);
  const itemsPage = pageNumber().parse(params.get("items") ?? undefined);
  const { db } = args.context;
  // One round trip after the session: the imports and the unknown items.
  const [rows, counted, unknownRows, unknownCount] = await orOutage(
    db.batch([...importListQueries(db, actor, page), ...unknownItemsQueries(db, actor, itemsPage)]),
  );
  const unknown = unknownItemsOf(unknownRows, unknownCount);
  const list = importListOf(rows, counted, page);
  const canWrite = canHere(actor, "WRITE_IMPORTS");
  const organizationMode = actor.scope.kind === "organization";
  const locations = actor.locationRoles
    .filter((r) => mayImportAt(actor, r.locationId) && (organizationMode || r.locationId === actor.locationId))
    .map((r) => ({ id: r.locationId, name: r.location.name }));
  const timeZone = timeZoneHere(actor);
  return {
    upload: {
      locations,
      fixedLocation: organizationMode ? null : actor.locationId,
      reason: canWrite ? null : "Uploading sales files takes the Imports write permission here (a location admin's).",
    },
    imports: {
      ...list,
      pageCount: Math.max(1, Math.ceil(list.total / IMPORTS_PAGE_SIZE)),
      items: list.items.map((i) => ({
        id: i.id,
        status: i.status,
        fileName: i.fileName,
        locationName: i.locationName,
        createdByName: i.createdByName,
        created: showInstant(i.createdAt, timeZone)?.text ?? "",
        rowsDone: i.rowsDone,
        rowsTotal: i.rowsTotal,
        counts: i.counts,
        lastError: i.lastError,
      })),
    },
    unknown: {
      ...unknown,
      page: itemsPage,
      pageCount: Math.max(1, Math.ceil(unknown.total / UNKNOWN_ITEMS_PAGE_SIZE)),
      canMap: canWrite,
    },
  };
}

interface Failure {
  intent: "upload";
  formError: string;
}

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_IMPORTS");
  const { db, env } = args.context;
  // The upload is the one multipart form: its file is streamed, never read into a FormData.
  if (mediaTypeOf(args.request.headers.get("Content-Type"))?.type === "multipart/form-data") {
    const outcome = await orOutage(receiveUpload(db, env.FILES, actor, args.request, "sales"));
    if (!outcome.ok) {
      if (outcome.refusal === "forbidden") throw data(outcome.message, { status: 403 });
      return data<Failure>({ intent: "upload", formError: outcome.message }, { status: 400 });
    }
    return done(importPath(outcome.job.id), "File uploaded", "Check its columns and first rows, then import it.");
  }
  // Any other post (a form of an older page: items are mapped on their own page now) asks for the file.
  return data<Failure>({ intent: "upload", formError: "Choose a CSV or XLSX file to upload." }, { status: 400 });
}

export default function SalesImport() {
  const { upload, imports, unknown } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as Failure | undefined;
  return (
    <div className="flex flex-col gap-4">
      <h1 className="font-semibold text-2xl">Sales Import</h1>
      <UploadForm
        locations={upload.locations}
        fixedLocation={upload.fixedLocation}
        reason={upload.reason}
        error={failure?.formError ?? null}
      />
      <ImportsTable items={imports.items} total={imports.total} page={imports.page} pageCount={imports.pageCount} />
      <UnknownItems
        items={unknown.items}
        total={unknown.total}
        page={unknown.page}
        pageCount={unknown.pageCount}
        canMap={unknown.canMap}
      />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
