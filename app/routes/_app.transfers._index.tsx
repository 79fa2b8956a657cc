// /transfers: the transfers sent from the location in scope and coming to it (every location in
// organization mode), by status, newest first, 25 a page, with what is on the way here and the open
// discrepancies; READ_TRANSFERS sees them. With WRITE_TRANSFERS: "New transfer" (from here to a
// destination) and "Request stock" (from a source to here). The action also makes a draft from a
// balancing suggestion (`draft_from_suggestion`) and goes to it.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { timeZoneHere } from "~/access/actor";
import { actorHere } from "~/access/door.server";
import { ORGANIZATION } from "~/access/permissions";
import { locationsFor, reachesAt } from "~/access/scope.server";
import { fieldErrorsOf } from "~/forms/field-errors";
import { orOutage } from "~/http/outage.server";
import { done, intentOf } from "~/http/outcome.server";
import { area } from "~/shell/areas";
import {
  NOTE_MAX,
  TRANSFER_MESSAGES,
  TRANSFER_STATUS_LABELS,
  TRANSFERS_PAGE_SIZE,
  transferPath,
} from "~/transfers/constants";
import { createTransfer } from "~/transfers/create.server";
import { DraftFromSuggestionForm, NewTransferForm, RequestStockForm, TransferStatusFilter } from "~/transfers/forms";
import {
  activeLocations,
  onTheWayOf,
  onTheWayQueries,
  transferListQueries,
  transferPageOf,
} from "~/transfers/read.server";
import { requestTransfer } from "~/transfers/request.server";
import { TransferStatusBadge } from "~/transfers/status-badge";
import { suggestionsQuery, suggestionsShown } from "~/transfers/suggestions.server";
import { SuggestionsPanel } from "~/transfers/suggestions-panel";
import { showInstant, Time } from "~/ui/dates";
import { Button, Card, FormAlert, SelectField, TextareaField } from "~/ui/form";
import { CELL, cursorLinks, DataRow, DataTable, Pagination } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Transfers · Clinic Inventory" }];

const INTENTS = ["new", "request", "draft_from_suggestion"] as const;
type Intent = (typeof INTENTS)[number];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/transfers").permission);
  const params = new URL(args.request.url).searchParams;
  const status = TransferStatusFilter.safeParse(params.get("status")).data ?? null;
  const locationIds = locationsFor(actor, "READ_TRANSFERS").ids;
  const filters = { after: params.get("after") ?? undefined, before: params.get("before") ?? undefined };
  const query = { locationIds, status, pageSize: TRANSFERS_PAGE_SIZE };
  const { db } = args.context;
  // One round trip: the page of transfers, what is on the way, the locations, the worked-out suggestions.
  // A cursor this list did not make shows the first page (which needs none, so is always made).
  const listing =
    transferListQueries(db, { ...query, ...filters }) ??
    (transferListQueries(db, query) as NonNullable<ReturnType<typeof transferListQueries>>);
  const [rows, counted, coming, open, locations, suggested] = await orOutage(
    db.batch([
      ...listing.statements,
      ...onTheWayQueries(db, locationIds),
      activeLocations(db, actor),
      suggestionsQuery(db, actor),
    ]),
  );
  const page = transferPageOf([rows, counted], listing.keyset);
  const way = onTheWayOf([coming, open]);
  const { suggestions, asOf } = await orOutage(suggestionsShown(db, actor, suggested));
  const organizationMode = actor.locationId === ORGANIZATION;
  const here = organizationMode ? null : actor.locationId;
  // Where the reader may send from (New transfer) and ask to (Request stock): here, or any in organization mode.
  const writable = locations.filter((l) => reachesAt(actor, "WRITE_TRANSFERS", l.id));
  return {
    suggestions,
    suggestionsAsOf: asOf === null ? null : showInstant(asOf, timeZoneHere(actor)),
    organizationMode,
    here,
    hereName: locations.find((l) => l.id === here)?.name ?? null,
    status,
    way,
    locations,
    writable,
    transfers: (page?.items ?? []).map((t) => ({
      id: t.id,
      status: t.status,
      from: t.fromName,
      to: t.toName,
      outgoing: t.fromLocationId === here,
      incoming: t.toLocationId === here,
      created: showInstant(t.createdAt, t.timezone),
      sent: showInstant(t.sentAt, t.timezone),
      who: t.status === "requested" ? t.requestedBy : (t.sentBy ?? t.createdBy),
      note: t.note,
      vials: t.vials,
      bulkLines: t.bulkLines,
      pending: t.pending,
      openDiscrepancies: t.openDiscrepancies,
    })),
    total: page?.total ?? 0,
    totalExact: page?.totalExact ?? true,
    links: cursorLinks("/transfers", { status: status ?? "" }, page ?? { next: null, previous: null }),
  };
}

interface Failure {
  intent: Intent;
  fieldErrors: Record<string, string>;
  formError: string | null;
  typed: Record<string, string>;
}

const failure = (intent: Intent, status: number, parts: Partial<Failure>) =>
  data<Failure>({ intent, fieldErrors: {}, formError: null, typed: {}, ...parts }, { status });

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_TRANSFERS");
  const form = Object.fromEntries(await args.request.formData());
  const intent = intentOf(form, INTENTS);
  const typed = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, typeof v === "string" ? v : ""]));
  const here = actor.locationId === ORGANIZATION ? null : actor.locationId;
  const db = args.context.db;
  if (intent === "draft_from_suggestion") {
    const parsed = DraftFromSuggestionForm.safeParse(form);
    if (!parsed.success)
      return failure(intent, 400, { formError: Object.values(fieldErrorsOf(parsed.error))[0] ?? null });
    const result = await orOutage(createTransfer(db, actor, parsed.data));
    if (!result.ok) {
      if (result.refusal === "forbidden") throw data(result.message, { status: 403 });
      return failure(intent, 409, { formError: result.message });
    }
    return done(
      transferPath(result.transferId),
      "Draft made",
      `${result.lines} ${result.lines === 1 ? "line" : "lines"} from the suggestion. Check it, then send it.`,
    );
  }
  if (intent === "new") {
    const parsed = NewTransferForm.safeParse(form);
    const fromLocationId = here ?? (typeof form.fromLocationId === "string" ? form.fromLocationId : "");
    if (!parsed.success || !fromLocationId) {
      const fieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error);
      if (!fromLocationId) fieldErrors.fromLocationId = TRANSFER_MESSAGES.location;
      return failure(intent, 400, { fieldErrors, typed });
    }
    const result = await orOutage(createTransfer(db, actor, { ...parsed.data, fromLocationId }));
    if (!result.ok) {
      if (result.refusal === "forbidden") throw data(result.message, { status: 403 });
      return failure(intent, 409, { fieldErrors: { toLocationId: result.message }, typed });
    }
    return done(
      transferPath(result.transferId),
      "Transfer started",
      "Scan the vials and add the bulk quantities to send.",
    );
  }
  const parsed = RequestStockForm.safeParse(form);
  const toLocationId = here ?? (typeof form.toLocationId === "string" ? form.toLocationId : "");
  if (!parsed.success || !toLocationId) {
    const fieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error);
    if (!toLocationId) fieldErrors.toLocationId = TRANSFER_MESSAGES.location;
    return failure(intent, 400, { fieldErrors, typed });
  }
  const result = await orOutage(requestTransfer(db, actor, { ...parsed.data, toLocationId }));
  if (!result.ok) {
    if (result.refusal === "forbidden") throw data(result.message, { status: 403 });
    return failure(intent, 409, { fieldErrors: { fromLocationId: result.message }, typed });
  }
  return done(transferPath(result.transferId), "Stock requested", "The other location sees your request and fills it.");
}

const STATUS_FILTERS = [
  { value: "", label: "All" },
  { value: "requested", label: "Requests" },
  { value: "draft", label: "Drafts" },
  { value: "in_transit", label: "On the way" },
  { value: "received", label: "Received" },
  { value: "cancelled", label: "Cancelled" },
];

function contents(t: { vials: number; bulkLines: number }) {
  const parts = [
    t.vials > 0 ? `${t.vials} ${t.vials === 1 ? "vial" : "vials"}` : null,
    t.bulkLines > 0 ? `${t.bulkLines} bulk ${t.bulkLines === 1 ? "line" : "lines"}` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "Nothing yet";
}

type Choice = { value: string; label: string };

/**
 * "New transfer" and "Request stock": one form, the location in scope at one end (chosen among
 * the reader's in organization mode) and another location at the other, with a note.
 */
function StartForm({
  intent,
  title,
  here,
  other,
  note,
  secondary = false,
  organizationMode,
  writable,
  others,
  typed,
  errors,
  busy,
}: {
  intent: "new" | "request";
  title: string;
  here: { name: string; label: string };
  other: { name: string; label: string };
  note: { label: string; required: boolean; hint?: string };
  secondary?: boolean;
  organizationMode: boolean;
  writable: Choice[];
  others: Choice[];
  typed: (intent: Intent, name: string) => string | undefined;
  errors: (intent: Intent) => Record<string, string>;
  busy: boolean;
}) {
  const idPrefix = `${intent}-`;
  return (
    <Card title={title}>
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value={intent} />
        {organizationMode && (
          <SelectField
            idPrefix={idPrefix}
            name={here.name}
            label={here.label}
            options={writable}
            defaultValue={typed(intent, here.name) ?? ""}
            error={errors(intent)[here.name]}
          />
        )}
        <SelectField
          idPrefix={idPrefix}
          name={other.name}
          label={other.label}
          options={others}
          defaultValue={typed(intent, other.name) ?? ""}
          error={errors(intent)[other.name]}
        />
        <TextareaField
          idPrefix={idPrefix}
          label={note.label}
          {...(note.required ? {} : { note: "optional" })}
          name="note"
          rows={2}
          maxLength={NOTE_MAX}
          required={note.required}
          defaultValue={typed(intent, "note")}
          hint={note.hint}
          error={errors(intent).note}
        />
        <div>
          <Button {...(secondary ? { tone: "secondary" as const } : {})} disabled={busy}>
            {title}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

export default function TransfersScreen() {
  const {
    suggestions,
    suggestionsAsOf,
    organizationMode,
    here,
    hereName,
    status,
    way,
    locations,
    writable,
    transfers,
    total,
    totalExact,
    links,
  } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const errorsOf = (intent: Intent) => (failed?.intent === intent ? failed.fieldErrors : {});
  const typedOf = (intent: Intent, name: string) => (failed?.intent === intent ? failed.typed[name] : undefined);
  const others = locations.filter((l) => l.id !== here);
  const choose = (list: typeof locations) => [
    { value: "", label: "Choose a location" },
    ...list.map((l) => ({ value: l.id, label: `${l.name} (${l.code})` })),
  ];
  const canWrite = writable.length > 0;
  const shared = {
    organizationMode,
    writable: choose(writable),
    others: choose(others),
    typed: (intent: Intent, name: string) => typedOf(intent, name),
    errors: errorsOf,
    busy,
  };

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="font-semibold text-2xl">Transfers</h1>
        <p className="text-slate-600 text-sm">
          Stock moved between the organization's locations
          {organizationMode ? "" : hereName ? `: sent from ${hereName} and coming to it` : ""}.
        </p>
      </div>

      <section aria-label="On the way and discrepancies" className="grid gap-3 sm:grid-cols-2">
        <div className="rounded-lg border border-violet-200 bg-violet-50 p-3 text-sm" data-testid="on-the-way">
          <p className="font-medium text-violet-900">On the way {organizationMode ? "between locations" : "to here"}</p>
          <p className="text-violet-900">
            {way.transfers === 0
              ? "Nothing is on the way."
              : `${way.transfers} ${way.transfers === 1 ? "transfer" : "transfers"}: ${contents(way)}.`}
          </p>
        </div>
        <div
          className={`rounded-lg border p-3 text-sm ${way.openDiscrepancies > 0 ? "border-red-200 bg-red-50 text-red-900" : "border-slate-200 bg-white text-slate-700"}`}
          data-testid="open-discrepancies"
        >
          <p className="font-medium">Open discrepancies</p>
          <p>
            {way.openDiscrepancies === 0
              ? "None: every transfer arrived as sent, or its discrepancy was resolved."
              : `${way.openDiscrepancies} ${way.openDiscrepancies === 1 ? "line" : "lines"} missing, damaged or short, waiting to be resolved.`}
          </p>
        </div>
      </section>

      {canWrite ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <StartForm
            intent="new"
            title="New transfer"
            here={{ name: "fromLocationId", label: "From" }}
            other={{ name: "toLocationId", label: "To" }}
            note={{ label: "Note", required: false }}
            {...shared}
          />
          <StartForm
            intent="request"
            title="Request stock"
            here={{ name: "toLocationId", label: "For" }}
            other={{ name: "fromLocationId", label: "From" }}
            note={{
              label: "What you need",
              required: true,
              hint: "The sender sees this note, e.g. 2 boxes of prep pads for Saturday.",
            }}
            secondary
            {...shared}
          />
        </div>
      ) : (
        <p className="text-slate-600 text-sm">
          Your role here can see transfers but not start or request one: a manager or an administrator does.
        </p>
      )}
      <FormAlert message={failed?.intent === "draft_from_suggestion" ? failed.formError : null} />
      <SuggestionsPanel suggestions={suggestions} writableLocationIds={writable.map((l) => l.id)} busy={busy} />
      {suggestionsAsOf && (
        <p className="-mt-4 text-slate-500 text-xs" data-testid="suggestions-as-of">
          Worked out every minute; these are of <Time at={suggestionsAsOf} />.
        </p>
      )}

      <Form method="get" action="/transfers" className="flex flex-wrap items-end gap-2">
        <SelectField label="Show" name="status" defaultValue={status ?? ""} options={STATUS_FILTERS} />
        <Button tone="secondary">Filter</Button>
      </Form>

      <DataTable
        caption="Transfers"
        columns={["Started", "Route", { label: "Status", key: true }, "Contents", "Discrepancies", "By"]}
        rowCount={transfers.length}
        empty={status ? `No transfers ${TRANSFER_STATUS_LABELS[status].toLowerCase()}.` : "No transfers yet."}
      >
        {transfers.map((t) => (
          <DataRow key={t.id}>
            <td className={`${CELL} whitespace-nowrap`}>
              <Link to={transferPath(t.id)} className="font-medium text-sky-800 hover:underline">
                <Time at={t.created} />
              </Link>
            </td>
            <td className={`${CELL} text-slate-700`}>
              {t.from} → {t.to}
              {t.outgoing && t.status === "requested" && (
                <span className="ml-1 font-medium text-amber-800">· request to fill</span>
              )}
              {t.incoming && t.status === "in_transit" && (
                <span className="ml-1 font-medium text-violet-800">· coming here</span>
              )}
            </td>
            <td className={CELL}>
              <TransferStatusBadge status={t.status} />
            </td>
            <td className={`${CELL} text-slate-700`}>
              {t.status === "requested" && t.note ? `Asked: ${t.note}` : contents(t)}
              {t.status === "in_transit" && t.pending > 0 && ` · ${t.pending} on the way`}
            </td>
            <td className={`${CELL} ${t.openDiscrepancies > 0 ? "font-medium text-red-800" : "text-slate-500"}`}>
              {t.openDiscrepancies > 0 ? `${t.openDiscrepancies} open` : "—"}
            </td>
            <td className={`${CELL} text-slate-700`}>{t.who ?? "—"}</td>
          </DataRow>
        ))}
      </DataTable>
      <Pagination total={total} totalExact={totalExact} noun="transfers" previous={links.previous} next={links.next} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
