// /recalls: the organization's lot recalls, in force and lifted (READ_INVENTORY to see), a lookup
// of a lot (a GET form: the lot, optionally a product) listing the variations that hold it (or,
// when none does, the lots that differ from it only in case or spacing), each with a form to mark
// that lot of it recalled (WRITE_PRODUCTS, the catalogue permission: the safe direction), which
// first asks to confirm, naming how many vials at which locations the recall quarantines; and a
// form to lift a recall with a note (organization admins only: it frees vials everywhere). Times
// in the location's zone. Reached from the usage log's header (the spec fixes the menu).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { timeZoneHere } from "~/access/actor";
import { actorHere } from "~/access/door.server";
import { canWriteCatalog } from "~/access/may-change";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { done, intentOf, invalid, refused } from "~/http/outcome.server";
import { RECALL_LOT_MAX, RECALL_NOTE_MAX } from "~/recalls/constants";
import { LiftForm, LotLookupQuery, MarkRecallForm } from "~/recalls/forms";
import { heldText, reviewRecall } from "~/recalls/held.server";
import { canLiftRecall, liftRecall } from "~/recalls/lift.server";
import { recallReportPath } from "~/recalls/links";
import { recallsScreen } from "~/recalls/list.server";
import { markRecall } from "~/recalls/mark.server";
import type { Recall } from "~/recalls/recall.server";
import { area } from "~/shell/areas";
import { showInstant, Time } from "~/ui/dates";
import { Button, Card, Field, FormAlert, TextareaField } from "~/ui/form";
import { BackLink } from "~/ui/record-screen";
import { SearchForm } from "~/ui/search-form";
import { Section } from "~/ui/section";
import { CELL, DataRow, DataTable } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Lot Recalls · Clinic Inventory" }];

/** "review" asks to confirm a mark (what it quarantines); "mark" is the confirmed mark. */
const INTENTS = ["review", "mark", "lift"] as const;

/** A lookup's path: the lot found again (a mark's Cancel, a near lot's link). */
const lookupPath = (lot: string) => `/recalls?${new URLSearchParams({ lot })}`;

/** A recall as a row shows it; times in the location's zone (UTC in organization mode), as every time. */
function shownRecall(r: Recall, zone: string, now: Date) {
  return {
    id: r.id,
    product: `${r.productName} · ${r.variationName}`,
    lot: r.lot,
    report: recallReportPath(r.variationId, r.lot),
    note: r.note,
    recalledAt: showInstant(r.recalledAt, zone, now),
    recalledBy: r.recalledBy,
    liftedAt: showInstant(r.liftedAt, zone, now),
    liftedBy: r.liftedBy,
    liftNote: r.liftNote,
  };
}

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/recalls").permission);
  const lookup = LotLookupQuery.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  const screen = await orOutage(recallsScreen(args.context.db, actor, lookup.lot ? lookup : null));
  const now = new Date();
  const zone = timeZoneHere(actor);
  return {
    inForce: screen.inForce.map((r) => shownRecall(r, zone, now)),
    lifted: screen.lifted.map((r) => shownRecall(r, zone, now)),
    lookup,
    nearLots: screen.nearLots.map((lot) => ({ lot, find: lookupPath(lot) })),
    holders: screen.holders.map((h) => ({
      id: h.id,
      label: `${h.productName} · ${h.name}`,
      recalled: h.recalled,
      report: recallReportPath(h.id, lookup.lot),
    })),
    canWrite: canWriteCatalog(actor),
    canLift: canLiftRecall(actor),
    idempotencyKey: newIdempotencyKey(),
  };
}

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_PRODUCTS");
  const form = Object.fromEntries(await args.request.formData());
  const intent = intentOf(form, INTENTS);
  const db = args.context.db;
  if (intent === "review" || intent === "mark") {
    // Which variation's form was sent: its problem is shown on that form.
    const variationId = typeof form.variationId === "string" ? form.variationId : null;
    const parsed = MarkRecallForm.safeParse(form);
    if (!parsed.success) return invalid(parsed.error, { intent, recallId: null, variationId });
    // What the verb alone finds invalid is the lot (the GS1 lot rule): the form checked the rest.
    const fields = { variation_not_found: "variationId", already_recalled: "lot", invalid: "lot" } as const;
    if (intent === "review") {
      // Nothing is written yet: the page asks to confirm, saying what the recall would quarantine.
      const { variationId: id, lot, note, idempotencyKey } = parsed.data;
      const hold = await orOutage(reviewRecall(db, actor, { variationId: id, lot }));
      if (!hold.ok) return refused(hold, { intent, recallId: null, variationId }, { fields, notFound: [] });
      const { ok: _, ...held } = hold;
      const review = { variationId: id, lot, note, idempotencyKey: idempotencyKey ?? "", ...held };
      return data({ intent, recallId: null, variationId, review, fieldErrors: {}, formError: null });
    }
    const result = await orOutage(markRecall(db, actor, parsed.data));
    if (!result.ok) return refused(result, { intent, recallId: null, variationId }, { fields, notFound: [] });
    const { recall, quarantined } = result;
    return done("/recalls", {
      title: "Lot recalled",
      description: `${recall.productName} · ${recall.variationName}, lot ${recall.lot}: recalled at every location, ${heldText(quarantined)}.`,
    });
  }
  const parsed = LiftForm.safeParse(form);
  const recallId = typeof form.recallId === "string" ? form.recallId : null;
  if (!parsed.success) return invalid(parsed.error, { intent, recallId });
  const result = await orOutage(liftRecall(db, actor, parsed.data));
  if (!result.ok) return refused(result, { intent, recallId }, { fields: { invalid: "note" } });
  return done("/recalls", {
    title: "Recall lifted",
    description: `Lot ${result.recall.lot} of ${result.recall.productName} · ${result.recall.variationName} can be used again.`,
  });
}

const LINK = "font-medium text-sky-800 hover:underline";

function Recorded({ at, by }: { at: Parameters<typeof Time>[0]["at"]; by: string | null }) {
  return (
    <>
      <Time at={at} />
      {by && <div className="text-slate-500 text-xs">by {by}</div>}
    </>
  );
}

/** A recall form with a note (mark, lift): its hidden fields, its problem above the note, its button. */
function NoteForm({
  className,
  hidden,
  alert,
  note,
  button,
}: {
  className: string;
  hidden: Record<string, string>;
  alert: string | null | undefined;
  note: { label: string; idPrefix: string; hint?: string; error: string | null | undefined };
  button: ReactNode;
}) {
  return (
    <Form method="post" className={className}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <FormAlert message={alert} />
      <TextareaField name="note" required maxLength={RECALL_NOTE_MAX} rows={2} {...note} />
      <div>{button}</div>
    </Form>
  );
}

type ActionResult = ReturnType<typeof useActionData<typeof action>>;

/** The problem of a refused or invalid mark, for the variation whose form sent it (else for none). */
function markProblem(result: ActionResult) {
  if (result?.intent !== "mark" && result?.intent !== "review") return null;
  if ("review" in result) return null;
  const { fieldErrors, formError } = result;
  const about = "variationId" in result ? result.variationId : null;
  // The variation and the lot are the form's hidden fields: their problem shows above its note.
  return { about, note: fieldErrors.note, alert: formError ?? fieldErrors.variationId ?? fieldErrors.lot ?? null };
}

/** A mark awaiting its confirmation (the review's answer), or null. */
function reviewOf(result: ActionResult) {
  return result && "review" in result ? result.review : null;
}

type Review = NonNullable<ReturnType<typeof reviewOf>>;

/** Links to the lots that differ only in case or spacing: "C7988A1, C7988 A1". */
function NearLots({ lots }: { lots: readonly { lot: string; find: string; vials?: number }[] }) {
  return (
    <>
      {lots.map((near, index) => (
        <span key={near.lot}>
          {index > 0 && ", "}
          <Link to={near.find} className={`${LINK} font-mono`}>
            {near.lot}
          </Link>
          {near.vials !== undefined && ` (${near.vials === 1 ? "1 vial" : `${near.vials} vials`} unused)`}
        </span>
      ))}
    </>
  );
}

/**
 * The mark's second step (a form, so it works before JavaScript loads): what the recall
 * quarantines, by location, and the confirmation; a lot that holds no vial says so, offers the
 * lots that differ only in case or spacing, and is confirmed as such.
 */
function ConfirmMark({ review }: { review: Review }) {
  const { held, lot } = review;
  const none = held.vials === 0;
  return (
    <Form
      method="post"
      aria-label={`Confirm the recall of lot ${lot}`}
      className={`flex flex-col gap-2 rounded-md border p-3 ${none ? "border-amber-300 bg-amber-50" : "border-red-300 bg-red-50"}`}
    >
      {Object.entries({
        intent: "mark",
        variationId: review.variationId,
        lot,
        note: review.note,
        idempotencyKey: review.idempotencyKey,
        ...(none ? { confirmNoMatch: "true" } : {}),
      }).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <p role="alert" className={`font-semibold ${none ? "text-amber-900" : "text-red-900"}`}>
        {none
          ? `No unused vial of lot ${lot} is in stock at any location: the recall quarantines none now, only vials of it received later.`
          : `Recalling lot ${lot} quarantines ${held.vials === 1 ? "1 vial" : `${held.vials} vials`} at once: they cannot be started or drawn from until an organization admin lifts the recall.`}
      </p>
      {none ? (
        <p className="text-amber-900 text-sm">
          Check the lot as printed on the vials.
          {review.nearLots.length > 0 && (
            <>
              {" "}
              Lots of this variation that differ only in case or spacing:{" "}
              <NearLots lots={review.nearLots.map((n) => ({ ...n, find: lookupPath(n.lot) }))} />.
            </>
          )}
        </p>
      ) : (
        <ul aria-label={`Vials of lot ${lot} quarantined`} className="text-red-900 text-sm">
          {held.locations.map((l) => (
            <li key={l.id}>
              {l.name} <span className="text-xs">{l.code}</span>: {l.vials === 1 ? "1 vial" : `${l.vials} vials`}
            </li>
          ))}
        </ul>
      )}
      <p className="whitespace-pre-line text-slate-700 text-sm">Note: {review.note}</p>
      <div className="flex flex-wrap items-center gap-3">
        <Button tone="danger">{none ? "Recall anyway" : "Confirm recall"}</Button>
        <Link to={lookupPath(lot)} className={`${LINK} text-sm`}>
          Cancel
        </Link>
      </div>
    </Form>
  );
}

export default function RecallsScreen() {
  const { inForce, lifted, lookup, nearLots, holders, canWrite, canLift, idempotencyKey } =
    useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const problem = markProblem(result);
  const review = reviewOf(result);
  const problemOf = (variationId: string) => (problem?.about === variationId ? problem : null);
  const unshown = problem && !holders.some((h) => h.id === problem.about) ? problem : null;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <BackLink to="/usage-log" label="Usage Log" />
        <h1 className="font-semibold text-2xl">Lot Recalls</h1>
        <p className="text-slate-600 text-sm">
          A recalled lot is quarantined at every location at once: its vials cannot be started or drawn from until the
          recall is lifted. Each lot's report lists every patient it was used for and where its unused vials are.
        </p>
      </div>

      {/* Everyone who reads recalls finds a lot here (its report is linked); writers mark it. */}
      <Card title={canWrite ? "Mark a lot recalled" : "Find a lot"}>
        <div className="flex flex-col gap-3">
          <p className="text-slate-600 text-sm">
            Find the lot first: type it exactly as printed on the vials and the manufacturer's notice, and narrow it to
            a product if several share it.
          </p>
          {/* Keyed by the lookup: once a mark returns to a bare /recalls, its fields show empty again. */}
          <SearchForm
            key={`${lookup.lot}\n${lookup.product}`}
            action="/recalls"
            filtered={Boolean(lookup.lot || lookup.product)}
          >
            <div className="min-w-40 flex-1">
              <Field label="Lot" name="lot" maxLength={RECALL_LOT_MAX} defaultValue={lookup.lot} />
            </div>
            <div className="min-w-48 flex-[2]">
              <Field
                label="Product"
                name="product"
                type="search"
                required={false}
                defaultValue={lookup.product}
                placeholder="Name, SKU or code (optional)"
              />
            </div>
          </SearchForm>
          <FormAlert message={unshown?.alert ?? unshown?.note} />
          {lookup.lot && holders.length === 0 && (
            <p role="status" className="rounded-md bg-amber-50 p-3 text-amber-900 text-sm">
              Lot {lookup.lot} was not found{lookup.product ? ` among products matching “${lookup.product}”` : ""}.
              Check it is typed exactly as printed on the vials.
              {nearLots.length > 0 && (
                <>
                  {" "}
                  Lots that differ only in case or spacing: <NearLots lots={nearLots} />.
                </>
              )}{" "}
              A lot is marked here once vials of it have been received at one of your locations; a lot not yet delivered
              can be recalled through the API (POST /api/recalls).
            </p>
          )}
          {holders.length > 0 && (
            <ul aria-label={`Variations holding lot ${lookup.lot}`} className="flex flex-col divide-y divide-slate-200">
              {holders.map((h) => {
                const mine = problemOf(h.id);
                return (
                  <li key={h.id} className="flex flex-col gap-2 py-3">
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="font-medium">{h.label}</span>
                      <Link to={h.report} className={`${LINK} text-sm`}>
                        Lot {lookup.lot} report
                      </Link>
                      {h.recalled && (
                        <span className="rounded bg-red-50 px-1.5 py-0.5 font-medium text-red-800 text-xs ring-1 ring-red-600/20 ring-inset">
                          Recalled
                        </span>
                      )}
                    </div>
                    {canWrite && !h.recalled && review?.variationId === h.id && review.lot === lookup.lot && (
                      <ConfirmMark review={review} />
                    )}
                    {canWrite && !h.recalled && !(review?.variationId === h.id && review.lot === lookup.lot) && (
                      // A fresh key per page load also empties the note once a recall is marked.
                      <NoteForm
                        key={idempotencyKey}
                        className="flex flex-col gap-2"
                        hidden={{ intent: "review", idempotencyKey, variationId: h.id, lot: lookup.lot }}
                        alert={mine?.alert}
                        note={{
                          label: "Note",
                          idPrefix: `mark-${h.id}-`,
                          hint: "Why: the manufacturer's notice, its date and reference.",
                          error: mine?.note,
                        }}
                        button={<Button tone="danger">Mark lot recalled</Button>}
                      />
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </Card>

      <Section id="in-force" title="In force">
        <DataTable
          caption="Recalls in force"
          columns={[
            { label: "Product", title: true },
            { label: "Lot", key: true },
            "Recalled",
            "Note",
            ...(canWrite || canLift ? [""] : []),
          ]}
          rowCount={inForce.length}
          empty="No lot is recalled right now."
        >
          {inForce.map((r) => (
            <DataRow key={r.id}>
              <td className={`${CELL} font-medium`}>{r.product}</td>
              <td className={`${CELL} whitespace-nowrap`}>
                <Link to={r.report} className={LINK}>
                  {r.lot}
                </Link>{" "}
                <span className="rounded bg-red-50 px-1.5 py-0.5 font-medium text-red-800 text-xs ring-1 ring-red-600/20 ring-inset">
                  Recalled
                </span>
              </td>
              <td className={`${CELL} whitespace-nowrap`}>
                <Recorded at={r.recalledAt} by={r.recalledBy} />
              </td>
              <td className={`${CELL} whitespace-pre-line`}>{r.note}</td>
              {canWrite && !canLift && (
                <td className={`${CELL} text-slate-500 text-xs`}>Only an organization admin can lift a recall.</td>
              )}
              {canLift && (
                <td className={CELL}>
                  <details open={result?.intent === "lift" && result.recallId === r.id}>
                    <summary className="cursor-pointer font-medium text-sky-800 text-sm">Lift…</summary>
                    <NoteForm
                      className="mt-2 flex min-w-56 flex-col gap-2"
                      hidden={{ intent: "lift", recallId: r.id }}
                      alert={result?.intent === "lift" && result.recallId === r.id ? result.formError : null}
                      note={{
                        label: "Why it is lifted",
                        idPrefix: `lift-${r.id}-`,
                        error: result?.intent === "lift" && result.recallId === r.id ? result.fieldErrors.note : null,
                      }}
                      button={<Button tone="secondary">Lift recall</Button>}
                    />
                  </details>
                </td>
              )}
            </DataRow>
          ))}
        </DataTable>
      </Section>

      <Section id="lifted" title="Lifted">
        <DataTable
          caption="Lifted recalls"
          columns={[{ label: "Product", title: true }, "Lot", "Recalled", { label: "Lifted", key: true }, "Why lifted"]}
          rowCount={lifted.length}
          empty="No recall has been lifted."
        >
          {lifted.map((r) => (
            <DataRow key={r.id}>
              <td className={`${CELL} font-medium`}>{r.product}</td>
              <td className={`${CELL} whitespace-nowrap`}>
                <Link to={r.report} className={LINK}>
                  {r.lot}
                </Link>
              </td>
              <td className={`${CELL} whitespace-nowrap`}>
                <Recorded at={r.recalledAt} by={r.recalledBy} />
              </td>
              <td className={`${CELL} whitespace-nowrap`}>
                <Recorded at={r.liftedAt} by={r.liftedBy} />
              </td>
              <td className={`${CELL} whitespace-pre-line`}>{r.liftNote}</td>
            </DataRow>
          ))}
        </DataTable>
      </Section>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
