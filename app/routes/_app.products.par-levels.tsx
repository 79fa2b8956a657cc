// /products/par-levels: every active variation's par level, reorder point and maximum at one
// location, edited together and saved in one go (all rows or none). The location is the one in
// scope; organization admins in organization mode pick one first. READ_PRODUCTS there to view,
// WRITE_PRODUCTS to save. `?suggest=30|90` shows, for the page's rows, the levels suggested from
// that many days of use beside today's, accepted ticked or all (intent apply_suggestions, issue
// 23.4). A static segment, so it wins over /products/:productId.

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Fragment } from "react";
import { CHOOSE_A_LOCATION } from "~/access/actor";
import { actorAtOneLocation, actorAtPickedLocation } from "~/access/door.server";
import { can } from "~/access/permissions";
import { orOutage } from "~/http/outage.server";
import { done, type FormAnswer, refused } from "~/http/outcome.server";
import { applyParSuggestions } from "~/par-levels/apply-suggestions.server";
import {
  APPLY_SUGGESTIONS_INTENT,
  PAR_FIELD_LABELS,
  PAR_FIELDS,
  type ParField,
  parFieldName,
  shownLevels,
} from "~/par-levels/constants";
import { ParSheetQuery, parseParAcceptance, parseParSheet, type RowErrors, type RowValues } from "~/par-levels/forms";
import { parLevelSheet } from "~/par-levels/list.server";
import { invalidRowsMessage } from "~/par-levels/outcome";
import { proposeLevels, type UsageWindow, usageWindowOf } from "~/par-levels/propose";
import { saveParLevels } from "~/par-levels/save.server";
import { SuggestLinks, type UsageRow, UsageSuggestions } from "~/par-levels/usage-suggestions";
import { Button, Field, FormAlert } from "~/ui/form";
import { BackLink } from "~/ui/record-screen";
import { CategoryFilter, LocationPicker } from "~/ui/search-form";
import { CELL, DataRow, DataTable, Pagination } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Par levels · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const query = ParSheetQuery.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  const {
    actor,
    organizationMode,
    locationId: asked,
  } = await actorAtOneLocation(args, "READ_PRODUCTS", query.location);
  const usageDays = usageWindowOf(query.suggest);
  const sheet = await orOutage(parLevelSheet(args.context.db, actor, { ...query, locationId: asked, usageDays }));
  const location = sheet.locations.find((l) => l.id === asked) ?? null;

  const groups: {
    productId: string;
    product: string;
    productSku: string | null;
    category: string;
    variations: { id: string; name: string; sku: string | null; levels: Record<ParField, string>; was: string }[];
  }[] = [];
  for (const row of location ? sheet.rows : []) {
    let group = groups.at(-1);
    if (group?.productId !== row.productId) {
      group = {
        productId: row.productId,
        product: row.product,
        productSku: row.productSku,
        category: row.category,
        variations: [],
      };
      groups.push(group);
    }
    const text = (n: number | null) => (n === null ? "" : String(n));
    group.variations.push({
      id: row.variationId,
      name: row.variation,
      sku: row.variationSku,
      levels: { par: text(row.par), reorderPoint: text(row.reorderPoint), max: text(row.max) },
      was: shownLevels(row),
    });
  }
  const usage: UsageRow[] =
    usageDays && location
      ? sheet.rows.map((row) => {
          const today =
            row.par === null || row.reorderPoint === null
              ? null
              : { par: row.par, reorderPoint: row.reorderPoint, max: row.max };
          const used = Number(row.used ?? 0);
          const packages = used / row.unitsPerPackage;
          return {
            variationId: row.variationId,
            product: row.product,
            variation: row.variation,
            usedPackages: (Math.round(packages * 10) / 10).toLocaleString("en-US"),
            today,
            proposed: proposeLevels({
              usedUnits: used,
              days: usageDays,
              unitsPerPackage: row.unitsPerPackage,
              leadTimeDays: row.leadTimeDays === null ? null : Number(row.leadTimeDays),
              today,
            }),
          };
        })
      : [];
  const total = location ? sheet.total : 0;
  const totalExact = location ? sheet.totalExact : true;
  return {
    usageDays,
    usage,
    organizationMode,
    location,
    locations: organizationMode ? sheet.locations : [],
    categories: sheet.categories,
    groups,
    rowCount: location ? sheet.rows.length : 0,
    total,
    page: query.page,
    totalExact,
    pageCount: location ? sheet.pageCount : 1,
    q: query.q,
    category: query.category,
    canWrite: location !== null && can(actor, "WRITE_PRODUCTS", location.id),
  };
}

interface Failure {
  formError: string | null;
  /** What is wrong with an acceptance of suggestions from usage. */
  suggestError?: string | null;
  rowErrors: Record<string, RowErrors>;
  values: Record<string, RowValues>;
  /** The page is out of date (a variation or the location went away): read it again despite the 409. */
  conflict?: boolean;
}

export { revalidateAfterConflict as shouldRevalidate } from "~/ui/revalidate";

export async function action(args: ActionFunctionArgs): FormAnswer<Failure> {
  const form = await args.request.formData();
  const chosen = form.get("locationId");
  // The permission is needed at the location being edited (in organization mode, the one picked).
  const picked = typeof chosen === "string" ? chosen : null;
  const { actor, locationId } = await actorAtPickedLocation(args, "WRITE_PRODUCTS", picked);
  const url = new URL(args.request.url);
  const where = actor.locationRoles.find((r) => r.locationId === locationId)?.location.name ?? "this location";

  if (form.get("intent") === APPLY_SUGGESTIONS_INTENT) {
    const accepted = parseParAcceptance(form, locationId);
    if (!accepted.ok)
      return data<Failure>(
        { formError: null, suggestError: accepted.formError, rowErrors: {}, values: {} },
        { status: 400 },
      );
    const applied = await orOutage(applyParSuggestions(args.context.db, actor, { locationId, ...accepted }));
    if (!applied.ok) return refused(applied, { rowErrors: {}, values: {}, conflict: true });
    return done(url.pathname + url.search, {
      title: "Par levels set from usage",
      description: `${applied.set} ${applied.set === 1 ? "par level" : "par levels"} set at ${where} from ${accepted.days} days of use.`,
    });
  }

  const sheet = parseParSheet(form, locationId);
  if (!sheet.ok) {
    const formError = sheet.formError ?? invalidRowsMessage(Object.keys(sheet.rowErrors).length);
    return data<Failure>({ formError, rowErrors: sheet.rowErrors, values: sheet.values }, { status: 400 });
  }
  const result = await orOutage(saveParLevels(args.context.db, actor, { locationId, changes: sheet.changes }));
  // Whatever else refused it (a variation or the location gone), the page is out of date: read it again.
  if (!result.ok) return refused(result, { rowErrors: {}, values: sheet.values, conflict: true });

  const changed = result.set + result.cleared;
  const toast =
    changed === 0
      ? { title: "Nothing to save", description: `No par level at ${where} changed.`, tone: "info" as const }
      : {
          title: "Par levels saved",
          description: `${changed} ${changed === 1 ? "par level" : "par levels"} changed at ${where}${
            result.cleared > 0 ? ` (${result.cleared} cleared)` : ""
          }.`,
        };
  return done(url.pathname + url.search, toast);
}

export default function ParLevelsScreen() {
  const {
    organizationMode,
    location,
    locations,
    categories,
    groups,
    rowCount,
    total,
    totalExact,
    page,
    pageCount,
    q,
    category,
    canWrite,
    usageDays,
    usage,
  } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const pageLink = (n: number, days: UsageWindow | null = usageDays) =>
    `/products/par-levels?${new URLSearchParams({
      ...(organizationMode && location ? { location: location.id } : {}),
      ...(q ? { q } : {}),
      ...(category ? { category } : {}),
      ...(days ? { suggest: String(days) } : {}),
      page: String(n),
    })}`;

  return (
    <div className="flex flex-col gap-6">
      <div>
        <BackLink to="/products" label="Products" />
        <h1 className="font-semibold text-2xl">Par levels{location ? ` at ${location.name}` : ""}</h1>
        <p className="text-slate-600 text-sm">
          In packages of each variation: keep the par level on the shelf, reorder when stock falls to the reorder point,
          and never hold more than the maximum. Empty all three to remove a variation's par level.
        </p>
      </div>

      {organizationMode && (
        <LocationPicker
          action="/products/par-levels"
          locations={locations}
          selected={location?.id}
          submitLabel="Show par levels"
        />
      )}

      {!location ? (
        <p className="rounded-lg border border-slate-300 border-dashed bg-white p-6 text-slate-700">
          {CHOOSE_A_LOCATION} Par levels are kept per location.
        </p>
      ) : (
        <>
          <Form method="get" action="/products/par-levels" role="search" className="flex flex-wrap items-end gap-2">
            {organizationMode && <input type="hidden" name="location" value={location.id} />}
            <div className="min-w-64 flex-1">
              <Field
                label="Search by product or variation name or SKU"
                name="q"
                type="search"
                required={false}
                defaultValue={q}
              />
            </div>
            <CategoryFilter value={category} categories={categories} />
            {usageDays && <input type="hidden" name="suggest" value={usageDays} />}
            <Button tone="secondary">Filter</Button>
          </Form>

          <SuggestLinks days={usageDays} link={(days) => pageLink(page, days)} />
          {usageDays && (
            <UsageSuggestions
              days={usageDays}
              locationId={organizationMode ? location.id : null}
              locationName={location.name}
              rows={usage}
              canWrite={canWrite}
              formError={result && "suggestError" in result ? result.suggestError : null}
              busy={busy}
            />
          )}

          <Form method="post" className="flex flex-col gap-3" noValidate>
            {organizationMode && <input type="hidden" name="locationId" value={location.id} />}
            <FormAlert message={result?.formError} />
            <DataTable
              caption={`Par levels at ${location.name}`}
              columns={["Variation", "SKU", ...PAR_FIELDS.map((f) => ({ label: PAR_FIELD_LABELS[f], key: true }))]}
              rowCount={rowCount}
              empty={
                q || category
                  ? "No active variation matches these filters."
                  : "No active products with variations yet. Add products and their variations first."
              }
            >
              {groups.map((group) => (
                <Fragment key={group.productId}>
                  <tr className="border-slate-200 border-b bg-slate-50">
                    <th scope="colgroup" colSpan={2 + PAR_FIELDS.length} className={`${CELL} text-left font-semibold`}>
                      <Link to={`/products/${group.productId}`} className="text-sky-800 hover:underline">
                        {group.product}
                      </Link>
                      <span className="ml-2 font-normal text-slate-600 text-xs">{group.category}</span>
                    </th>
                  </tr>
                  {group.variations.map((v) => (
                    <DataRow key={`${v.id}:${v.was}`}>
                      <td className={`${CELL} pl-6`}>
                        {v.name}
                        {canWrite && (
                          <>
                            <input type="hidden" name="variationId" value={v.id} />
                            <input type="hidden" name={parFieldName("was", v.id)} value={v.was} />
                          </>
                        )}
                      </td>
                      <td className={`${CELL} font-mono text-slate-700`}>{v.sku ?? group.productSku ?? "—"}</td>
                      {PAR_FIELDS.map((field) => (
                        <LevelCell
                          key={field}
                          field={field}
                          variationId={v.id}
                          label={`${PAR_FIELD_LABELS[field]}, ${group.product} ${v.name}`}
                          value={result?.values[v.id]?.[field] ?? v.levels[field]}
                          error={result?.rowErrors[v.id]?.[field]}
                          editable={canWrite}
                        />
                      ))}
                    </DataRow>
                  ))}
                </Fragment>
              ))}
            </DataTable>
            {canWrite && rowCount > 0 && (
              <div className="flex flex-wrap items-center gap-3">
                <Button disabled={busy}>{busy ? "Saving…" : "Save par levels"}</Button>
                <p className="text-slate-600 text-sm">
                  Saves the rows on this page{pageCount > 1 ? "; save before moving to another page" : ""}.
                </p>
              </div>
            )}
          </Form>

          <Pagination
            page={page}
            pageCount={pageCount}
            total={total}
            totalExact={totalExact}
            noun="variations"
            pageLink={pageLink}
          />
        </>
      )}
    </div>
  );
}

function LevelCell({
  field,
  variationId,
  label,
  value,
  error,
  editable,
}: {
  field: ParField;
  variationId: string;
  label: string;
  value: string;
  error?: string;
  editable: boolean;
}) {
  if (!editable) return <td className={`${CELL} text-right tabular-nums`}>{value === "" ? "—" : value}</td>;
  const id = parFieldName(field, variationId);
  return (
    <td className={`${CELL} align-top`}>
      <Field
        id={id}
        name={id}
        label={label}
        labelHidden
        required={false}
        defaultValue={value}
        inputMode="numeric"
        autoComplete="off"
        error={error}
        controlClassName="w-24 text-right tabular-nums"
      />
    </td>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
