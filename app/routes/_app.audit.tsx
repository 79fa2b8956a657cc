// /audit (phone first): the cycle count at the location in scope (organization mode: the one
// picked). With no count open, "Start a count" (WRITE_INVENTORY there) asks what it covers and
// whether it is blind; a count already open is joined. While it is open: scan a vial's label (the
// units left for a started vial), enter bulk quantities per product, size and lot found by a search,
// see what I counted and what others counted (blind: without what the system expects), and submit
// it for review (asks first). A count sent back shows the reviewer's note. Forms work without
// JavaScript; with it, a wedge scanner or the camera fills the label and counts at once.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import {
  type ClientActionFunctionArgs,
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useSubmit,
} from "@remix-run/react";
import { useRef } from "react";
import { actorAtOneLocation, actorAtPickedLocation } from "~/access/door.server";
import { reachesAt } from "~/access/scope.server";
import { auditPath, STATUS_LABELS } from "~/counts/constants";
import { COUNT_INTENT_HANDLERS, COUNT_INTENTS, type CountIntent, type CountProblem } from "~/counts/intents.server";
import { countScreen } from "~/counts/screen.server";
import { scopeWords } from "~/counts/session.server";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { intentOf } from "~/http/outcome.server";
import { isQueued, type Queued } from "~/offline/queued";
import { QueuedNotice, useKeysAfterQueue } from "~/offline/queued-notice";
import { offlineCountField } from "~/offline/vial-facts";
import { useScanField } from "~/scanner/scan-field";
import { CameraScanner, useWedgeScanner } from "~/scanner/scan-input";
import { area } from "~/shell/areas";
import { showInstant, Time } from "~/ui/dates";
import { Button, Card, CheckboxField, Field, FormAlert, SelectField } from "~/ui/form";

export const meta: MetaFunction = () => [{ title: "Audit · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const { actor, organizationMode, locationId } = await actorAtOneLocation(
    args,
    area("/audit").permission,
    // A product search for a new count's scope submits the start form by GET (its hidden locationId).
    url.searchParams.get("location") ?? url.searchParams.get("locationId"),
  );
  const search = (url.searchParams.get("q") ?? "").slice(0, 100);
  const productSearch = (url.searchParams.get("find") ?? "").slice(0, 100);
  // What the start form had when a product search sent it here, so nothing chosen is lost.
  const typed = {
    scope: url.searchParams.get("scope") ?? "all",
    category: url.searchParams.get("category") ?? "",
    blind: url.searchParams.has("find") ? url.searchParams.has("blind") : true,
    productSearch,
  };
  const choices = actor.locationRoles.map((r) => ({
    id: r.locationId,
    name: `${r.location.name} (${r.location.code})`,
  }));
  if (!locationId) return { organizationMode, choices, here: null, search, keys: null };
  const screen = await orOutage(
    countScreen(args.context.db, actor, locationId, {
      search,
      productSearch,
      picked: url.searchParams.getAll("productIds").filter((id) => id.length <= 100),
    }),
  );
  const role = actor.locationRoles.find((r) => r.locationId === locationId);
  const tz = role?.location.timeZone ?? "UTC";
  const s = screen.session;
  return {
    organizationMode,
    choices,
    search,
    keys: {
      start: newIdempotencyKey(),
      scan: newIdempotencyKey(),
      bulk: newIdempotencyKey(),
      submit: newIdempotencyKey(),
    },
    here: {
      locationId,
      name: role ? `${role.location.name} (${role.location.code})` : "",
      canCount: reachesAt(actor, "WRITE_INVENTORY", locationId),
      canReview: reachesAt(actor, "READ_AUDITS", locationId),
      categories: screen.categories.map((c) => c.category),
      products: screen.products,
      typed,
      latest: screen.latest && {
        id: screen.latest.id,
        status: screen.latest.status,
        startedAt: showInstant(screen.latest.startedAt, tz),
      },
      session: s && {
        id: s.id,
        status: s.status,
        blind: Boolean(Number(s.blind)),
        scope: scopeWords(s),
        startedBy: s.startedByName,
        startedAt: showInstant(s.startedAt, tz),
        reviewNote: s.reviewNote,
      },
      mine: screen.mine.map((l) => ({ ...l, at: showInstant(l.countedAt, tz) })),
      others: screen.others.map((l) => ({ ...l, at: showInstant(l.countedAt, tz) })),
      lineCount: screen.lineCount,
      matches: screen.matches,
    },
  };
}

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const intent = intentOf(form, COUNT_INTENTS);
  const picked = typeof form.get("locationId") === "string" ? String(form.get("locationId")) : null;
  const { actor, locationId, organizationMode } = await actorAtPickedLocation(args, "WRITE_INVENTORY", picked);
  const back = organizationMode ? `/audit?location=${encodeURIComponent(locationId)}` : "/audit";
  const sessionId = String(form.get("sessionId") ?? "");
  return COUNT_INTENT_HANDLERS[intent]({ db: args.context.db, actor, form, back, locationId, sessionId });
}

type Problem = CountProblem<CountIntent>;

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;
type Here = NonNullable<Loaded["here"]>;

// With JavaScript: a vial scanned or a bulk quantity counted offline (or when the post fails at the
// network) is saved on the device (app/offline); its code is loaded when a form is sent.
export const clientAction = async ({ request, serverAction }: ClientActionFunctionArgs) =>
  (await import("~/offline/cart-action")).countCartAction({ request, online: serverAction });

// Nothing to read again after a refusal, or a count saved on the device (no connection either).
export { readAgainOnline as shouldRevalidate } from "~/offline/queued";

export default function AuditScreen() {
  const { organizationMode, choices, here, keys, search } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof clientAction>();
  const queued = isQueued(answer) ? answer.queued : null;
  const problem = queued ? undefined : (answer as Problem | undefined);
  if (!here || !keys) {
    return (
      <div className="mx-auto flex w-full max-w-2xl flex-col gap-4">
        <h1 className="font-semibold text-2xl">Audit</h1>
        <p className="text-slate-600 text-sm">Organization mode: choose the location to count.</p>
        <ul className="flex flex-col gap-2">
          {choices.map((c) => (
            <li key={c.id}>
              <Link className="text-sky-700 underline" to={`/audit?location=${encodeURIComponent(c.id)}`}>
                {c.name}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  const hidden = organizationMode ? <input type="hidden" name="locationId" value={here.locationId} /> : null;
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-4">
      <div>
        <h1 className="font-semibold text-2xl">Audit</h1>
        <p className="text-slate-600 text-sm">
          Cycle count at {here.name}. Stock is never frozen: keep working while you count.
        </p>
      </div>
      {here.session ? (
        <OpenCount here={here} keys={keys} problem={problem} hidden={hidden} search={search} queued={queued} />
      ) : (
        <StartCount here={here} keys={keys} problem={problem} hidden={hidden} />
      )}
    </div>
  );
}

interface Parts {
  here: Here;
  keys: NonNullable<Loaded["keys"]>;
  problem: Problem | undefined;
  hidden: React.ReactNode;
}

function StartCount({ here, keys, problem, hidden }: Parts) {
  const mine = problem?.intent === "start" ? problem : null;
  const latest = here.latest;
  return (
    <>
      {latest && (
        <p className="text-sm">
          Last count here: {STATUS_LABELS[latest.status]}, started <Time at={latest.startedAt} />.{" "}
          {here.canReview && (
            <Link className="text-sky-700 underline" to={auditPath(latest.id)}>
              See it
            </Link>
          )}
        </p>
      )}
      {here.canCount ? (
        <Card title="Start a count">
          <Form method="post" className="flex flex-col gap-4" noValidate>
            {hidden}
            <input type="hidden" name="idempotencyKey" value={keys.start} />
            <FormAlert message={mine?.formError} />
            <fieldset className="flex flex-col gap-2">
              <legend className="font-medium text-sm">What to count</legend>
              {[
                ["all", "Everything at this location"],
                ["category", "One category"],
                ["products", "Chosen products"],
              ].map(([value, label]) => (
                <label key={value} className="inline-flex min-h-10 items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name="scope"
                    value={value}
                    defaultChecked={(mine?.typed.scope ?? here.typed.scope) === value}
                    className="size-4"
                  />
                  {label}
                </label>
              ))}
            </fieldset>
            <SelectField
              name="category"
              label="Category"
              note="for one category"
              required={false}
              options={[
                { value: "", label: "Choose a category" },
                ...here.categories.map((c) => ({ value: c, label: c })),
              ]}
              defaultValue={mine?.typed.category ?? here.typed.category}
              error={mine?.fieldErrors.category}
            />
            <ProductPicker here={here} error={mine?.fieldErrors.productIds} />
            <CheckboxField
              id="blind"
              name="blind"
              label="Blind count: counters do not see the quantities the system expects"
              defaultChecked={here.typed.blind}
            />
            <Button name="intent" value="start">
              Start counting
            </Button>
          </Form>
        </Card>
      ) : (
        <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
          No count is open here. Starting one needs permission to change inventory at this location.
        </p>
      )}
    </>
  );
}

/**
 * The products of a "Chosen products" count: those chosen so far (ticked) and those a search finds.
 * Find sends the start form itself by GET, so what is ticked comes back ticked, with or without
 * JavaScript, and the page never lists the whole catalogue.
 */
function ProductPicker({ here, error }: { here: Here; error: string | undefined }) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="font-medium text-sm">
        Products to count <span className="font-normal text-slate-500">(for chosen products: find, then tick)</span>
      </legend>
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <Field
            name="find"
            label="Find products"
            note="name, SKU or barcode"
            required={false}
            defaultValue={here.typed.productSearch}
            autoComplete="off"
          />
        </div>
        <Button name="intent" value="find" formMethod="get" tone="secondary">
          Find
        </Button>
      </div>
      {here.products.length > 0 ? (
        <ul className="flex max-h-72 flex-col gap-1 overflow-y-auto rounded-md border border-slate-200 p-2">
          {here.products.map((p) => (
            <li key={p.id}>
              <label className="inline-flex min-h-10 items-center gap-2 text-sm">
                <input type="checkbox" name="productIds" value={p.id} defaultChecked={p.picked} className="size-4" />
                {p.name}
              </label>
            </li>
          ))}
        </ul>
      ) : (
        here.typed.productSearch && (
          <p className="text-slate-600 text-sm">No active product matches “{here.typed.productSearch}”.</p>
        )
      )}
      {error && <p className="text-red-700 text-sm">{error}</p>}
    </fieldset>
  );
}

function OpenCount({
  here,
  keys: loaded,
  problem,
  hidden,
  search,
  queued,
}: Parts & { search: string; queued: Queued["queued"] | null }) {
  const session = here.session;
  // The key a count saved on the device took is not used again: the next form gets a fresh one.
  const keys = useKeysAfterQueue(loaded, queued);
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = useNavigation().state === "submitting";
  const { ref, ...freshOnFocus } = useScanField();
  function scanned(code: string) {
    const form = formRef.current;
    if (!form) return;
    const data = new FormData(form);
    data.set("labelCode", code);
    data.set("intent", "scan");
    submit(data, { method: "post" });
  }
  useWedgeScanner(scanned);
  if (!session) return null;
  const scan = problem?.intent === "scan" ? problem : null;
  const bulk = problem?.intent === "bulk" ? problem : null;
  const asking = problem?.intent === "submit" ? problem : null;
  return (
    <>
      <section aria-labelledby="count-title" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="count-title" className="font-semibold text-lg">
          {session.blind ? "Blind count" : "Count"} · {STATUS_LABELS[session.status]}
        </h2>
        <p className="text-slate-600 text-sm">
          {session.scope} · started by {session.startedBy ?? "someone"} <Time at={session.startedAt} /> ·{" "}
          {here.lineCount} line{here.lineCount === 1 ? "" : "s"} counted
        </p>
        {session.status === "rejected" && session.reviewNote && (
          <p
            role="status"
            className="mt-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900 text-sm"
          >
            Sent back for a recount: {session.reviewNote} Counting a bulk product again replaces its earlier shelves:
            count every shelf of it.
          </p>
        )}
        {session.reviewNote && session.status === "in_progress" && (
          <p className="mt-2 text-amber-900 text-sm">Reviewer's note: {session.reviewNote}</p>
        )}
      </section>

      {here.canCount ? (
        <>
          {queued && <QueuedNotice queued={queued} />}
          <Card title="Scan a vial">
            {/* A fresh form after each count (a new key per page load): no units left carried to the next vial. */}
            <Form method="post" ref={formRef} key={keys.scan} className="flex flex-col gap-3" noValidate>
              {hidden}
              <input type="hidden" name="sessionId" value={session.id} />
              <input type="hidden" name="idempotencyKey" value={keys.scan} />
              {/* What the form carries to be saved on the device when there is no connection. */}
              <Hidden fields={offlineCountField({ locationId: here.locationId })} />
              <FormAlert message={scan?.formError} />
              <Field
                {...freshOnFocus}
                inputRef={ref}
                name="labelCode"
                label="Label code"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                defaultValue={scan?.typed.labelCode ?? ""}
                error={scan?.fieldErrors.labelCode}
              />
              <Field
                name="unitsRemaining"
                label="Units left"
                note="a started vial only"
                required={false}
                inputMode="decimal"
                autoComplete="off"
                defaultValue={scan?.typed.unitsRemaining ?? ""}
                error={scan?.fieldErrors.unitsRemaining}
              />
              <Button name="intent" value="scan" disabled={busy}>
                Count this vial
              </Button>
            </Form>
            <div className="mt-3">
              <CameraScanner onScan={scanned} />
            </div>
          </Card>

          <Card title="Count bulk stock">
            <Form method="get" className="flex items-end gap-2">
              {hidden && <input type="hidden" name="location" value={here.locationId} />}
              <div className="min-w-0 flex-1">
                <Field name="q" label="Find a product" required={false} defaultValue={search} autoComplete="off" />
              </div>
              <Button tone="secondary">Search</Button>
            </Form>
            <FormAlert message={bulk?.formError} />
            {search && here.matches.length === 0 && (
              <p className="mt-2 text-slate-600 text-sm">No bulk product in this count matches “{search}”.</p>
            )}
            <ul className="mt-3 flex flex-col gap-3">
              {here.matches.map((m) => {
                const typed = bulk?.typed.variationId === m.variationId ? bulk : null;
                return (
                  <li key={m.variationId} className="rounded-md border border-slate-200 p-3">
                    {/* Shelf after shelf: the page stays where the counter is, not back at its top. */}
                    <Form method="post" key={keys.bulk} className="flex flex-col gap-2" noValidate preventScrollReset>
                      {hidden}
                      <input type="hidden" name="sessionId" value={session.id} />
                      <input type="hidden" name="variationId" value={m.variationId} />
                      <input type="hidden" name="q" value={search} />
                      <input type="hidden" name="idempotencyKey" value={keys.bulk} />
                      <Hidden
                        fields={offlineCountField({
                          locationId: here.locationId,
                          name: `${m.product} · ${m.variation}`,
                          unit: m.baseUnit,
                        })}
                      />
                      <p className="font-medium text-sm">
                        {m.product} · {m.variation}
                      </p>
                      <div className="grid grid-cols-2 gap-2">
                        <Field
                          idPrefix={`${m.variationId}-`}
                          name="lot"
                          label="Lot"
                          required={false}
                          defaultValue={typed?.typed.lot ?? ""}
                        />
                        <Field
                          idPrefix={`${m.variationId}-`}
                          name="quantity"
                          label={`Quantity (${m.baseUnit})`}
                          inputMode="decimal"
                          defaultValue={typed?.typed.quantity ?? ""}
                          error={typed?.fieldErrors.quantity}
                        />
                      </div>
                      <Button name="intent" value="bulk" tone="secondary" disabled={busy}>
                        Count on this shelf
                      </Button>
                    </Form>
                  </li>
                );
              })}
            </ul>
          </Card>
        </>
      ) : (
        <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
          Counting needs permission to change inventory at this location.
        </p>
      )}

      <Lines title="What I counted" lines={here.mine} blind={session.blind} empty="You have counted nothing yet." />
      <Lines
        title="What others counted"
        lines={here.others}
        blind={session.blind}
        empty="No one else has counted yet."
      />

      {here.canCount &&
        (session.status === "in_progress" ? (
          <Card title="Submit for review">
            <Form method="post" className="flex flex-col gap-3">
              {hidden}
              <input type="hidden" name="sessionId" value={session.id} />
              <input type="hidden" name="idempotencyKey" value={keys.submit} />
              <FormAlert message={problem?.intent === "submit" ? problem.formError : null} />
              {asking?.ask ? (
                <>
                  <p role="alert" className="text-sm">
                    {asking.ask}
                  </p>
                  <input type="hidden" name="confirm" value="yes" />
                  <Button name="intent" value="submit">
                    Yes, submit the count
                  </Button>
                </>
              ) : (
                <>
                  <p className="text-slate-600 text-sm">When every shelf is counted, submit the count for review.</p>
                  <Button name="intent" value="submit" tone="secondary">
                    Submit count
                  </Button>
                </>
              )}
            </Form>
          </Card>
        ) : (
          <p className="text-slate-600 text-sm">
            Submit is offered once the count is counted again: it was sent back for a recount.
          </p>
        ))}
    </>
  );
}

function Lines({ title, lines, blind, empty }: { title: string; lines: Here["mine"]; blind: boolean; empty: string }) {
  return (
    <Card title={title}>
      {lines.length === 0 ? (
        <p className="text-slate-600 text-sm">{empty}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-100">
          {lines.map((l) => (
            <li key={l.id} className="flex flex-col gap-0.5 py-2 text-sm">
              <span className="font-medium">{l.what}</span>
              <span className="text-slate-600">{l.detail}</span>
              <span>
                Counted {l.counted}
                {!blind && l.expected !== null && <> · system {l.expected}</>}
                {l.countedBy && <> · {l.countedBy}</>} · <Time at={l.at} />
              </span>
              {l.found && <span className="text-amber-800">{l.found}</span>}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";

function Hidden({ fields }: { fields: Record<string, string> }) {
  return Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
}
