// /inventory/{itemId}: one vial (or syringe, kit) at the location in scope (any location in
// organization mode): its facts, expiry badge and live countdown, its whole history (who, when,
// units, service, provider, patient reference, reason, witness), and the actions this user may
// take on it now (start, draw, empty, discard) as plain forms posting here, or why start and draw
// are not offered; an empty or discard with units left asks first (app/vials/vial-forms). One
// batch beyond the session; elsewhere the vial is not there (404).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { type ClientActionFunctionArgs, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { actorHere } from "~/access/door.server";
import { formatQuantity } from "~/catalog/format";
import { orOutage } from "~/http/outage.server";
import { intentOf } from "~/http/outcome.server";
import { isQueued } from "~/offline/queued";
import { QueuedNotice, useKeysAfterQueue, useStartHeld, WaitingHere } from "~/offline/queued-notice";
import { offlineVialField, vialName } from "~/offline/vial-facts";
import { ControlledBadge } from "~/products/controlled-badge";
import { area } from "~/shell/areas";
import { Countdown } from "~/stock/countdown";
import { ExpiryBadge } from "~/stock/expiry-badge";
import { StateBadge } from "~/stock/state-badge";
import { formatDate, showInstant, Time } from "~/ui/dates";
import { Card, Facts } from "~/ui/form";
import { VIAL_INTENTS, type VialProblem } from "~/vials/actions";
import { HISTORY_NAMES, reasonName } from "~/vials/history";
import { VialHistory } from "~/vials/history-list";
import { VIAL_INTENT_HANDLERS, vialFormKeys } from "~/vials/intents.server";
import { VIAL_REFUSALS } from "~/vials/outcome";
import { vialPage } from "~/vials/page.server";
import { closedReason } from "~/vials/rules";
import { VialForms } from "~/vials/vial-forms";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `${data.vial.productName} ${data.vial.labelCode}` : "Vial"} · Clinic Inventory` },
];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/inventory/{id}").permission);
  // Judged once: the facts, the actions offered and the badges agree, and hydrate as rendered.
  const now = new Date();
  const found = await orOutage(vialPage(args.context.db, actor, args.params.itemId ?? "", now));
  if (!found) throw data(VIAL_REFUSALS.not_found, { status: 404 });
  const { vial, history, services, actions } = found;
  const zone = vial.location.timeZone;
  const shown = (at: Date | null) => showInstant(at, zone, now);
  const units = (n: number) => formatQuantity(n, vial.unitScale, vial.baseUnit);
  return {
    now: now.toISOString(),
    vial: {
      id: vial.id,
      productId: vial.productId,
      productName: vial.productName,
      variationName: vial.variationName,
      lot: vial.lot,
      serial: vial.serial,
      labelCode: vial.labelCode,
      state: vial.state,
      controlled: vial.controlled,
      recalled: vial.recalled,
      baseUnit: vial.baseUnit,
      unitsLeft: units(vial.unitsRemaining),
      unitsFull: units(vial.unitsPerPackage),
      location: vial.location,
      expirationDate: vial.expirationDate ? formatDate(vial.expirationDate) : null,
      received: shown(vial.receivedAt),
      started: shown(vial.startedAt),
      deadline: shown(vial.expiresAt),
      ended: shown(vial.endedAt),
      discardReason: reasonName(vial.discardReason),
      expiry: {
        state: vial.state,
        expirationDate: vial.expirationDate,
        expiresAt: vial.expiresAt,
        startedAt: vial.startedAt,
        receivedAt: vial.receivedAt,
        recalled: vial.recalled,
        location: { timeZone: zone },
      },
    },
    history: history.map((h) => ({
      id: h.id,
      at: shown(h.at),
      what: HISTORY_NAMES[h.kind],
      // No user: the system (the deadline's waste job) booked it.
      who: h.userName ?? (h.userId ? "A former user" : "System"),
      units: h.unitsText,
      serviceName: h.serviceName,
      provider: h.provider,
      patientRef: h.patientRef,
      usedAt: h.usedAt && h.usedAt.getTime() !== h.at.getTime() ? shown(h.usedAt) : null,
      reason: reasonName(h.reason),
      note: h.note,
      witnessName: h.witnessName,
    })),
    services,
    actions,
    // Why start and draw are not offered, where they would have been (only to those who may act).
    closed: actions.discard || actions.empty ? closedReason(vial, now, zone) : null,
    keys: vialFormKeys(),
    // What the forms carry to be saved on the device when there is no connection (app/offline).
    offline: offlineVialField({
      name: vialName(vial),
      unit: vial.baseUnit,
      unitsLeft: units(vial.unitsRemaining),
      wasting: vial.unitsRemaining,
      locationId: vial.locationId,
      witness: actions.witness,
    }),
  };
}

export async function action(args: ActionFunctionArgs) {
  const form = Object.fromEntries(await args.request.formData());
  const intent = intentOf(form, VIAL_INTENTS);
  // Every action needs WRITE_INVENTORY where the user stands; the verb reaches the vial only there.
  const actor = await actorHere(args, "WRITE_INVENTORY");
  return VIAL_INTENT_HANDLERS[intent]({ db: args.context.db, actor, itemId: args.params.itemId ?? "", form });
}

// With JavaScript: offline (or when the post fails at the network) the form is saved on the device.
// Its code is loaded when a form is sent (the shell warms it once the page runs, for offline use).
export const clientAction = async ({ request, params, serverAction }: ClientActionFunctionArgs) =>
  (await import("~/offline/cart-action")).vialCartAction({ request, itemId: params.itemId, online: serverAction });

// Nothing to read again after a refusal, or a form saved on the device (no connection either).
export { readAgainOnline as shouldRevalidate } from "~/offline/queued";

export default function VialScreen() {
  const { now, vial, history, services, actions, closed, keys, offline } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof clientAction>();
  const queued = isQueued(answer) ? answer.queued : null;
  const problem = queued ? undefined : (answer as (VialProblem & { offline?: boolean }) | undefined);
  // The key a saved form took is not used again: the next form of its kind gets a fresh one.
  const formKeys = useKeysAfterQueue(keys, queued);
  const startHeld = useStartHeld(vial.id);
  const finished = vial.state === "empty" || vial.state === "discarded";
  const facts: [string, ReactNode][] = [
    [
      "Product",
      <Link key="p" to={`/products/${vial.productId}`} className="font-medium text-sky-800 hover:underline">
        {vial.productName}
      </Link>,
    ],
    ["Variation", vial.variationName],
    ["Lot", vial.lot ?? "—"],
    ["Serial", vial.serial ?? "—"],
    [
      "Label code",
      <span key="l" className="font-mono">
        {vial.labelCode}
      </span>,
    ],
    ["State", <StateBadge key="s" state={vial.state} />],
    ["Units left", `${vial.unitsLeft} of ${vial.unitsFull}`],
    ["Manufacturer Expiration", vial.expirationDate ?? "No expiration date"],
  ];
  if (vial.state === "in_use")
    facts.push(["Time left", <Countdown key="c" deadline={vial.expiry.expiresAt} now={now} />]);
  facts.push(
    ["Location", `${vial.location.name} (${vial.location.code})`],
    ["Received", <Time key="r" at={vial.received} />],
    ["Started", <Time key="st" at={vial.started} empty="Not started" />],
    ["Use-By Deadline", <Time key="d" at={vial.deadline} empty="Set when it is started" />],
  );
  if (vial.ended) facts.push(["Ended", <Time key="e" at={vial.ended} />]);
  if (vial.discardReason) facts.push(["Discard reason", vial.discardReason]);
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <Link to="/inventory" className="text-sky-800 text-sm hover:underline">
          ← Inventory
        </Link>
        <h1 className="font-semibold text-2xl">
          {vial.productName} <span className="font-normal text-slate-600">{vial.variationName}</span>
        </h1>
        <div className="flex flex-wrap items-center gap-2">
          <StateBadge state={vial.state} />
          {!finished && <ExpiryBadge item={vial.expiry} now={now} />}
          {vial.controlled && <ControlledBadge />}
        </div>
      </div>

      {queued && <QueuedNotice queued={queued} />}
      <WaitingHere itemId={vial.id} />

      <VialForms
        // Offline, a witness is not asked (a password is never kept on the device): the question says so.
        actions={problem?.offline ? { ...actions, witness: false } : actions}
        keys={formKeys}
        services={services}
        unit={vial.baseUnit}
        unitsLeft={vial.unitsLeft}
        problem={problem}
        closed={closed?.message}
        discardAs={closed?.discardAs}
        cancelTo={`/inventory/${vial.id}`}
        hidden={offline}
        startHeld={startHeld}
      />

      <Card title="Vial facts">
        <Facts items={facts} />
      </Card>

      <VialHistory rows={history} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
