// /admin/audits/{id} (READ_AUDITS where the count is): who counted what when, expected against
// counted as of each line (ADR 0031), the variances and their value at cost, missing and found
// vials, bulk shelves and the movements made while the count was open. A submitted count is
// approved (asks first, saying what will be booked and discarded) or sent back with a note, by
// WRITE_AUDITS there; an action not offered says why.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { canHere } from "~/access/scope.server";
import { refreshingClientAction } from "~/browser/refresh-after-action";
import { formatMoney, formatQuantity, type UnitScale } from "~/catalog/format";
import { NOTE_MAX } from "~/counts/constants";
import { type CountProblem, REVIEW_INTENT_HANDLERS, REVIEW_INTENTS, type ReviewIntent } from "~/counts/intents.server";
import { type ListPage, REVIEW_PAGE, type ReviewPages, readReview } from "~/counts/review.server";
import { scopeWords } from "~/counts/session.server";
import { CountStatus } from "~/counts/status-badge";
import { pageNumber } from "~/forms/text";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { intentOf } from "~/http/outcome.server";
import { area } from "~/shell/areas";
import { showInstant, Time } from "~/ui/dates";
import { Button, Card, Facts, FormAlert, TextareaField } from "~/ui/form";
import { pageCount } from "~/ui/page-count";
import { CELL, DataRow, DataTable, Pagination } from "~/ui/table";

type PagedList = keyof ReviewPages;

export const meta: MetaFunction = () => [{ title: "Audit Detail · Clinic Inventory" }];

const qty = (n: number, r: { unitScale: UnitScale; baseUnit: string }) => formatQuantity(n, r.unitScale, r.baseUnit);
const signed = (n: number, r: { unitScale: UnitScale; baseUnit: string }) => `${n > 0 ? "+" : ""}${qty(n, r)}`;
const money = (cents: number) => (cents < 0 ? `−${formatMoney(-cents)}` : formatMoney(cents));

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/admin/audits/{id}").permission);
  const db = args.context.db;
  // The count's figures as the jobs worker worked them out while they stand, else read live; each
  // long list a page at a time, by its own parameter.
  const url = new URL(args.request.url);
  const page = pageNumber();
  const pageNumberOf = (name: PagedList) => page.parse(url.searchParams.get(name) ?? undefined);
  const asked = {
    vials: pageNumberOf("vials"),
    bulk: pageNumberOf("bulk"),
    missing: pageNumberOf("missing"),
    during: pageNumberOf("during"),
  };
  const now = new Date();
  const read = await orOutage(readReview(db, actor, "READ_AUDITS", args.params.id ?? "", asked, now));
  if (!read)
    throw data("No count with this id at a location you can reach. Open it from Audit Review.", { status: 404 });
  const { session, review } = read;
  const tz = session.timezone;
  const at = (n: number | null) => showInstant(n, tz);
  // Past the last page of a list, its first was read (readReview).
  const pageOf = <T,>(name: PagedList, list: ListPage<T>) => {
    const pages = pageCount(list.total, REVIEW_PAGE.rows);
    return { rows: list.rows, total: list.total, page: asked[name] > pages ? 1 : asked[name], pageCount: pages };
  };
  const vials = pageOf("vials", review.vials);
  const bulk = pageOf("bulk", review.bulk);
  const missing = pageOf("missing", review.missing);
  const during = pageOf("during", review.during);
  const pages = { vials, bulk, missing, during };
  return {
    pages: Object.fromEntries(
      Object.entries(pages).map(([name, p]) => [name, { total: p.total, page: p.page, pageCount: p.pageCount }]),
    ) as Record<PagedList, { total: number; page: number; pageCount: number }>,
    query: url.search,
    keys: { approve: newIdempotencyKey(), reject: newIdempotencyKey() },
    canReview: canHere(actor, "WRITE_AUDITS"),
    asOf: review.asOf === null ? null : { at: review.asOf, now: now.getTime(), timeZone: tz },
    session: {
      id: session.id,
      status: session.status,
      location: `${session.locationName} (${session.locationCode})`,
      scope: scopeWords(session),
      blind: Boolean(Number(session.blind)),
      startedBy: session.startedByName,
      startedAt: at(session.startedAt),
      submittedBy: session.submittedByName,
      submittedAt: at(session.submittedAt),
      reviewedBy: session.reviewedByName,
      reviewedAt: at(session.reviewedAt),
      reviewNote: session.reviewNote,
    },
    vials: vials.rows.map((v) => ({
      id: v.lineId,
      itemId: v.itemId,
      labelCode: v.labelCode,
      what: `${v.product} · ${v.variation}`,
      lot: v.lot,
      counted: qty(v.counted, v),
      expected: v.found ? null : qty(v.expected, v),
      variance: v.variance === 0 ? "—" : signed(v.variance, v),
      differs: v.variance !== 0,
      value: v.valueCents === 0 ? "—" : money(v.valueCents),
      moved: v.after === 0 ? null : signed(v.after, v),
      found: v.found ? `Found here; the system has it at ${v.itemLocationCode}, ${v.state.replace("_", " ")}` : null,
      movedOn: v.movedOn,
      finished: v.finished,
      onTheRoad: v.onTheRoad,
      countedBy: v.countedBy,
      countedAt: at(v.countedAt),
    })),
    bulk: bulk.rows.map((b) => ({
      id: b.variationId,
      what: `${b.product} · ${b.variation}`,
      shelves: b.lines.map((l) => ({
        id: l.lineId,
        text: `${qty(l.quantity, b)}${l.lot ? ` (lot ${l.lot})` : ""} by ${l.countedBy ?? "someone"}`,
        at: at(l.countedAt),
      })),
      counted: qty(b.counted, b),
      expected: qty(b.expected, b),
      moved: b.after === 0 ? null : signed(b.after, b),
      variance: b.variance === 0 ? "—" : signed(b.variance, b),
      differs: b.variance !== 0,
      value: b.valueCents === 0 ? "—" : money(b.valueCents),
    })),
    missing: missing.rows.map((m) => ({
      itemId: m.itemId,
      labelCode: m.labelCode,
      what: `${m.product} · ${m.variation}`,
      lot: m.lot,
      units: qty(m.unitsNow, m),
      value: money(-m.valueCents),
    })),
    notCountedMore: Math.max(0, review.notCounted.total - review.notCounted.rows.length),
    notCounted: review.notCounted.rows.map((n) => ({
      id: n.variationId,
      what: `${n.product} · ${n.variation}`,
      onHand: qty(n.onHand, n),
    })),
    during: during.rows.map((m) => ({
      id: m.id,
      at: at(m.occurredAt),
      type: m.type,
      what: `${m.product} · ${m.variation}${m.labelCode ? ` · ${m.labelCode}` : ""}`,
      quantity: signed(m.quantity, m),
      user: m.user,
    })),
    totals: {
      variance: money(review.totals.varianceCents),
      missing: money(-review.totals.missingCents),
      found: money(review.totals.foundCents),
      differences: review.totals.differences,
    },
  };
}

type Problem = CountProblem<ReviewIntent>;

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const intent = intentOf(form, REVIEW_INTENTS);
  const actor = await actorHere(args, "WRITE_AUDITS");
  const sessionId = args.params.id ?? "";
  return REVIEW_INTENT_HANDLERS[intent]({ db: args.context.db, actor, form, back: "", locationId: "", sessionId });
}

// With JavaScript, the spec's refresh set of audit_complete (vials, stats, recent activity, audit
// sessions) after an approval.
export const clientAction = refreshingClientAction({ approve: "audit_complete" });

export default function AuditDetailScreen() {
  const {
    session,
    vials,
    bulk,
    missing,
    notCounted,
    notCountedMore,
    during,
    totals,
    canReview,
    keys,
    pages,
    query,
    asOf,
  } = useLoaderData<typeof loader>();
  // Each list's pages keep the other lists where they are.
  const pager = (name: PagedList, noun: string) => {
    const link = (page: number) => {
      const params = new URLSearchParams(query);
      params.set(name, String(page));
      return `?${params}`;
    };
    return <Pagination {...pages[name]} noun={noun} pageLink={link} />;
  };
  const problem = useActionData<typeof action>() as Problem | undefined;
  const busy = useNavigation().state === "submitting";
  const asking = problem?.intent === "approve" ? problem : null;
  const rejecting = problem?.intent === "reject" ? problem : null;
  return (
    <div className="flex flex-col gap-4">
      <div>
        <p className="text-sm">
          <Link to="/admin/audits" className="text-sky-700 underline">
            Audit Review
          </Link>
        </p>
        <h1 className="font-semibold text-2xl">Count at {session.location}</h1>
        <div className="mt-1 flex flex-wrap items-center gap-2 text-sm">
          <CountStatus status={session.status} /> <span>{session.scope}</span>
          {session.blind && <span className="text-slate-600">· blind</span>}
        </div>
      </div>

      <Card title="Who and when">
        <Facts
          items={[
            ["Started", <Who key="s" name={session.startedBy} at={session.startedAt} />],
            ["Submitted", <Who key="u" name={session.submittedBy} at={session.submittedAt} />],
            [
              session.status === "rejected" ? "Sent back" : session.status === "approved" ? "Approved" : "Reviewed",
              <Who key="r" name={session.reviewedBy} at={session.reviewedAt} />,
            ],
            ...(session.reviewNote ? [["Reviewer's note", session.reviewNote] as [string, string]] : []),
          ]}
        />
      </Card>

      <Card title="Differences">
        {asOf && (
          <p data-testid="figures-as-of" data-value={asOf.at} className="mb-2 text-slate-600 text-xs">
            As of <Time at={showInstant(asOf.at, asOf.timeZone, new Date(asOf.now))} />
            {session.status === "approved"
              ? ", worked out after the approval."
              : ": worked out every minute while the count waits for review. Approving books the count as it stands then."}
          </p>
        )}
        <Facts
          items={[
            ["Differences", String(totals.differences)],
            ["Count variances at cost", totals.variance],
            ["Missing vials at cost", totals.missing],
            ["Found vials at cost", totals.found],
          ]}
        />
        <p className="mt-2 text-slate-600 text-xs">
          Expected is the system's quantity when each line was counted: what moved after it (a draw, a delivery) is not
          a variance.
        </p>
      </Card>

      <Review session={session} canReview={canReview} keys={keys} busy={busy} asking={asking} rejecting={rejecting} />

      <section aria-labelledby="vials-title" className="flex flex-col gap-2">
        <h2 id="vials-title" className="font-semibold text-lg">
          Vials counted
        </h2>
        <p className="text-slate-600 text-sm">What differs first: variances, found vials, and vials moved on since.</p>
        <DataTable
          columns={[
            { label: "Vial", title: true },
            { label: "Variance", key: true },
            "Counted",
            "Expected",
            "Value",
            "Moved since",
            "Counted by",
          ]}
          rowCount={pages.vials.total}
          empty="No vial was scanned in this count."
        >
          {vials.map((v) => (
            <DataRow key={v.id}>
              <td className={CELL}>
                <Link to={`/inventory/${v.itemId}`} className="font-medium text-sky-800 hover:underline">
                  {v.labelCode}
                </Link>
                <span className="block text-slate-600 text-xs">
                  {v.what}
                  {v.lot ? ` · lot ${v.lot}` : ""}
                </span>
                {v.found && <span className="block text-amber-800 text-xs">{v.found}</span>}
                {v.movedOn && (
                  <span className="block text-slate-600 text-xs">
                    Ended or sent since it was counted: nothing to book.
                  </span>
                )}
                {v.finished && (
                  <span className="block text-slate-600 text-xs">
                    Finished in the system: it stays so, nothing is booked for it.
                  </span>
                )}
                {v.onTheRoad && (
                  <span className="block text-slate-600 text-xs">
                    On the road in the system: receive it on its transfer; nothing is booked for it here.
                  </span>
                )}
              </td>
              <td className={`${CELL} tabular-nums ${v.differs ? "font-semibold text-red-800" : ""}`}>{v.variance}</td>
              <td className={`${CELL} tabular-nums`}>{v.counted}</td>
              <td className={`${CELL} tabular-nums`}>{v.expected ?? "—"}</td>
              <td className={`${CELL} tabular-nums`}>{v.value}</td>
              <td className={`${CELL} tabular-nums`}>{v.moved ?? "—"}</td>
              <td className={CELL}>
                {v.countedBy ?? "—"}{" "}
                <span className="text-slate-600 text-xs">
                  <Time at={v.countedAt} />
                </span>
              </td>
            </DataRow>
          ))}
        </DataTable>
        {pager("vials", "vials")}
      </section>

      <section aria-labelledby="bulk-title" className="flex flex-col gap-2">
        <h2 id="bulk-title" className="font-semibold text-lg">
          Bulk counted
        </h2>
        <DataTable
          columns={[
            { label: "Product", title: true },
            { label: "Variance", key: true },
            "Counted",
            "Expected",
            "Value",
            "Moved since",
            "Shelves",
          ]}
          rowCount={pages.bulk.total}
          empty="No bulk quantity was counted."
        >
          {bulk.map((b) => (
            <DataRow key={b.id}>
              <td className={`${CELL} font-medium`}>{b.what}</td>
              <td className={`${CELL} tabular-nums ${b.differs ? "font-semibold text-red-800" : ""}`}>{b.variance}</td>
              <td className={`${CELL} tabular-nums`}>{b.counted}</td>
              <td className={`${CELL} tabular-nums`}>{b.expected}</td>
              <td className={`${CELL} tabular-nums`}>{b.value}</td>
              <td className={`${CELL} tabular-nums`}>{b.moved ?? "—"}</td>
              <td className={CELL}>
                <ul className="text-xs">
                  {b.shelves.map((s) => (
                    <li key={s.id}>
                      {s.text}, <Time at={s.at} />
                    </li>
                  ))}
                </ul>
              </td>
            </DataRow>
          ))}
        </DataTable>
        {pager("bulk", "products and sizes")}
      </section>

      <section aria-labelledby="missing-title" className="flex flex-col gap-2">
        <h2 id="missing-title" className="font-semibold text-lg">
          Missing vials
        </h2>
        <p className="text-slate-600 text-sm">
          {session.status === "approved"
            ? "Not counted, and discarded (missing in a count) when the count was approved."
            : "On the shelf here in the system, in this count's scope, and not counted: approving discards them (missing in a count)."}
        </p>
        <DataTable
          columns={[{ label: "Vial", title: true }, "Lot", "Units", "Value"]}
          rowCount={pages.missing.total}
          empty="No vial is missing."
        >
          {missing.map((m) => (
            <DataRow key={m.itemId}>
              <td className={CELL}>
                <Link to={`/inventory/${m.itemId}`} className="font-medium text-sky-800 hover:underline">
                  {m.labelCode}
                </Link>
                <span className="block text-slate-600 text-xs">{m.what}</span>
              </td>
              <td className={CELL}>{m.lot ?? "—"}</td>
              <td className={`${CELL} tabular-nums`}>{m.units}</td>
              <td className={`${CELL} tabular-nums`}>{m.value}</td>
            </DataRow>
          ))}
        </DataTable>
        {pager("missing", "missing vials")}
        {notCounted.length > 0 && (
          <p className="text-slate-600 text-sm">
            Not counted, left as they are: {notCounted.map((n) => `${n.what} (${n.onHand} on hand)`).join("; ")}
            {notCountedMore > 0 ? `; and ${notCountedMore} more products and sizes` : ""}.
          </p>
        )}
      </section>

      <section aria-labelledby="during-title" className="flex flex-col gap-2">
        <h2 id="during-title" className="font-semibold text-lg">
          Movements while the count was open
        </h2>
        <DataTable
          columns={[{ label: "What", title: true }, { label: "Change", key: true }, "Type", "When", "By"]}
          rowCount={pages.during.total}
          empty="Nothing moved here while the count was open."
        >
          {during.map((m) => (
            <DataRow key={m.id}>
              <td className={CELL}>{m.what}</td>
              <td className={`${CELL} tabular-nums`}>{m.quantity}</td>
              <td className={CELL}>{m.type}</td>
              <td className={CELL}>
                <Time at={m.at} />
              </td>
              <td className={CELL}>{m.user ?? "System"}</td>
            </DataRow>
          ))}
        </DataTable>
        {pager("during", "movements")}
      </section>
    </div>
  );
}

function Who({ name, at }: { name: string | null; at: ReturnType<typeof showInstant> }) {
  if (!at) return <>—</>;
  return (
    <>
      {name ?? "Someone"}, <Time at={at} />
    </>
  );
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

function Review({
  session,
  canReview,
  keys,
  busy,
  asking,
  rejecting,
}: {
  session: Loaded["session"];
  canReview: boolean;
  keys: Loaded["keys"];
  busy: boolean;
  asking: Problem | null;
  rejecting: Problem | null;
}) {
  if (!canReview) {
    return (
      <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
        Approving or sending back a count needs the permission to review audits at this location.
      </p>
    );
  }
  if (session.status !== "submitted") {
    const why =
      session.status === "approved"
        ? "This count is approved: its variances are booked."
        : session.status === "rejected"
          ? "This count was sent back: it can be approved once it is counted again and submitted."
          : "This count is still being counted: it can be approved or sent back once it is submitted.";
    return <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm">{why}</p>;
  }
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Card title="Approve">
        <Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="idempotencyKey" value={keys.approve} />
          <FormAlert message={asking?.formError} />
          {asking?.ask ? (
            <>
              <p role="alert" className="text-sm">
                {asking.ask}
              </p>
              <input type="hidden" name="confirm" value="yes" />
              <Button name="intent" value="approve" disabled={busy}>
                Yes, approve and book
              </Button>
            </>
          ) : (
            <>
              <p className="text-slate-600 text-sm">
                Books the variances as count movements, discards the missing vials and brings found vials here.
              </p>
              <Button name="intent" value="approve" disabled={busy}>
                Approve
              </Button>
            </>
          )}
        </Form>
      </Card>
      <Card title="Send back">
        <Form method="post" className="flex flex-col gap-3" noValidate>
          <input type="hidden" name="idempotencyKey" value={keys.reject} />
          <FormAlert message={rejecting?.formError} />
          <TextareaField
            name="note"
            label="Note for the counters"
            hint={`What to recount, at most ${NOTE_MAX} characters.`}
            rows={3}
            maxLength={NOTE_MAX}
            defaultValue={rejecting?.typed.note ?? ""}
            error={rejecting?.fieldErrors.note}
          />
          <Button name="intent" value="reject" tone="secondary" disabled={busy}>
            Send back for a recount
          </Button>
        </Form>
      </Card>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
