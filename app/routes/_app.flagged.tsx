// /flagged (phone first): Flagged Records, the commands recorded offline at the cart that the server
// refused when they were replayed (issue #25), at the location in scope (organization mode: the one
// picked). Open ones first, newest first, 25 a page, then resolved ones. Managers (READ_AUDITS there)
// see every one and resolve it with a note; anyone else sees only their own, and where the button
// would be, who can resolve it. Plain forms: everything works without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { actorAtOneLocation, actorAtPickedLocation } from "~/access/door.server";
import { pageNumber } from "~/forms/text";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { done, type FormProblem, refused } from "~/http/outcome.server";
import { FLAGS_PAGE_SIZE, listFlags, resolveFlag } from "~/offline/flags.server";
import { RESOLUTION_NOTE_MAX } from "~/offline/forms";
import { area } from "~/shell/areas";
import { showInstant, Time } from "~/ui/dates";
import { Button, FormAlert, TextareaField } from "~/ui/form";
import { pageCount } from "~/ui/page-count";
import { Pagination } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Flagged Records · Clinic Inventory" }];

const KIND_WORDS: Record<string, string> = {
  start: "Start",
  draw: "Draw",
  empty: "Empty",
  discard: "Discard",
  count: "Count",
};

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const { actor, organizationMode, locationId } = await actorAtOneLocation(
    args,
    area("/flagged").permission,
    url.searchParams.get("location"),
  );
  const choices = actor.locationRoles.map((r) => ({
    id: r.locationId,
    name: `${r.location.name} (${r.location.code})`,
  }));
  if (!locationId) return { organizationMode, choices, here: null };
  const page = pageNumber().parse(url.searchParams.get("page") ?? undefined);
  const list = await orOutage(listFlags(args.context.db, actor, locationId, page));
  const role = actor.locationRoles.find((r) => r.locationId === locationId);
  const tz = role?.location.timeZone ?? "UTC";
  const now = new Date();
  return {
    organizationMode,
    choices,
    here: {
      locationId,
      name: role ? `${role.location.name} (${role.location.code})` : "",
      locationName: role?.location.name ?? "",
      canResolve: list.all,
      seesAll: list.all,
      total: list.total,
      open: list.open,
      page,
      pageCount: pageCount(list.total, FLAGS_PAGE_SIZE),
      flags: list.rows.map((f) => ({
        id: f.id,
        kind: KIND_WORDS[f.kind] ?? f.kind,
        summary: f.summary,
        recordedAt: showInstant(f.recordedAt, tz, now),
        flaggedAt: showInstant(f.flaggedAt, tz, now),
        by: f.userName ?? "Someone no longer here",
        mine: f.userId === actor.id,
        code: f.code,
        reason: f.reason,
        vial: f.itemId ? { href: `/inventory/${encodeURIComponent(f.itemId)}`, label: f.labelCode } : null,
        count: f.sessionId !== null,
        resolved:
          f.resolvedAt === null
            ? null
            : {
                at: showInstant(f.resolvedAt, tz, now),
                by: f.resolvedByName ?? "someone",
                note: f.resolutionNote ?? "",
              },
        // A fresh key per resolve form shown: a double tap resolves it once.
        key: f.resolvedAt === null && list.all ? newIdempotencyKey() : null,
      })),
    },
  };
}

type Problem = FormProblem & { flagId: string; note: string };

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const picked = typeof form.get("locationId") === "string" ? String(form.get("locationId")) : null;
  const { actor, locationId, organizationMode } = await actorAtPickedLocation(
    args,
    area("/flagged").permission,
    picked,
  );
  const flagId = String(form.get("flagId") ?? "").slice(0, 100);
  const note = String(form.get("note") ?? "");
  const result = await orOutage(
    resolveFlag(args.context.db, actor, { flagId, note, idempotencyKey: form.get("idempotencyKey") }),
  );
  const back = organizationMode ? `/flagged?location=${encodeURIComponent(locationId)}` : "/flagged";
  if (result.ok) return done(back, "Flag resolved", "The flagged record is resolved; its note is kept with it.");
  return refused(
    result,
    { flagId, note },
    { fields: { invalid: "note" }, status: result.refusal === "invalid" ? 400 : 409 },
  );
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;
type Here = NonNullable<Loaded["here"]>;
type Flag = Here["flags"][number];

export default function FlaggedScreen() {
  const { organizationMode, choices, here } = useLoaderData<typeof loader>();
  const problem = useActionData<typeof action>() as Problem | undefined;
  if (!here) {
    return (
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-4">
        <h1 className="font-semibold text-2xl">Flagged Records</h1>
        <p className="text-slate-600 text-sm">Organization mode: choose the location whose flagged records to see.</p>
        <ul className="flex flex-col gap-2">
          {choices.map((c) => (
            <li key={c.id}>
              <Link className="text-sky-700 underline" to={`/flagged?location=${encodeURIComponent(c.id)}`}>
                {c.name}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  const pageLink = (page: number) => {
    const params = new URLSearchParams();
    if (organizationMode) params.set("location", here.locationId);
    params.set("page", String(page));
    return `/flagged?${params}`;
  };
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4">
      <div>
        <h1 className="font-semibold text-2xl">Flagged Records</h1>
        <p className="text-slate-600 text-sm">
          {here.seesAll
            ? `What was recorded offline at ${here.name} and refused when it was sent: nothing recorded at the cart is lost. Resolve each one with a note once it is dealt with.`
            : `What you recorded offline at ${here.name} and the server refused when it was sent. Nothing is lost: a manager resolves each one.`}
        </p>
        <p className="mt-1 font-medium text-sm">
          {here.open === 0 ? "No open flags." : `${here.open} open ${here.open === 1 ? "flag" : "flags"}.`}
        </p>
      </div>
      {here.flags.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-slate-600 text-sm">
          {here.seesAll
            ? "Nothing recorded offline here has been refused."
            : "Nothing you recorded offline here has been refused."}
        </p>
      ) : (
        <ul className="flex flex-col gap-3">
          {here.flags.map((flag) => (
            <FlagCard
              key={flag.id}
              flag={flag}
              here={here}
              organizationMode={organizationMode}
              problem={problem?.flagId === flag.id ? problem : undefined}
            />
          ))}
        </ul>
      )}
      <Pagination
        total={here.total}
        noun="flagged records"
        page={here.page}
        pageCount={here.pageCount}
        pageLink={pageLink}
      />
    </div>
  );
}

function FlagCard({
  flag,
  here,
  organizationMode,
  problem,
}: {
  flag: Flag;
  here: Here;
  organizationMode: boolean;
  problem?: Problem;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("flagId") === flag.id;
  const headingId = `flag-${flag.id}-title`;
  return (
    <li>
      <article
        aria-labelledby={headingId}
        className={`flex flex-col gap-2 rounded-lg border bg-white p-4 shadow-sm ${
          flag.resolved ? "border-slate-200" : "border-amber-300"
        }`}
      >
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 id={headingId} className="font-semibold">
            {flag.summary}
          </h2>
          <span
            className={`inline-flex items-center rounded px-1.5 py-0.5 font-medium text-xs ring-1 ring-inset ${
              flag.resolved
                ? "bg-slate-100 text-slate-600 ring-slate-500/20"
                : "bg-amber-50 text-amber-800 ring-amber-600/30"
            }`}
          >
            {flag.resolved ? "Resolved" : "Open"}
          </span>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-500">At the cart</dt>
          <dd>
            <Time at={flag.recordedAt} /> · {flag.kind}
          </dd>
          <dt className="text-slate-500">By</dt>
          <dd>{flag.mine ? `${flag.by} (you)` : flag.by}</dd>
          <dt className="text-slate-500">Refused</dt>
          <dd>
            {flag.reason}{" "}
            <span className="text-slate-500">
              (<Time at={flag.flaggedAt} />)
            </span>
          </dd>
          {flag.vial && (
            <>
              <dt className="text-slate-500">Vial</dt>
              <dd>
                <Link className="text-sky-700 underline" to={flag.vial.href}>
                  {flag.vial.label ? `Open vial ${flag.vial.label}` : "Open the vial"}
                </Link>
              </dd>
            </>
          )}
          {flag.count && (
            <>
              <dt className="text-slate-500">Count</dt>
              <dd>
                <Link className="text-sky-700 underline" to="/audit">
                  Open the count
                </Link>
              </dd>
            </>
          )}
        </dl>
        {flag.resolved ? (
          <p className="rounded-md bg-slate-50 px-3 py-2 text-sm">
            Resolved by {flag.resolved.by}, <Time at={flag.resolved.at} />: {flag.resolved.note}
          </p>
        ) : flag.key ? (
          <Form method="post" className="flex flex-col gap-2" aria-label={`Resolve: ${flag.summary}`}>
            <input type="hidden" name="flagId" value={flag.id} />
            <input type="hidden" name="idempotencyKey" value={flag.key} />
            {organizationMode && <input type="hidden" name="locationId" value={here.locationId} />}
            <FormAlert message={problem?.formError} />
            <TextareaField
              label="What was done about it"
              name="note"
              idPrefix={`flag-${flag.id}-`}
              required
              maxLength={RESOLUTION_NOTE_MAX}
              rows={2}
              hint={`Required, at most ${RESOLUTION_NOTE_MAX} characters. Kept with the record.`}
              defaultValue={problem?.note}
              error={problem?.fieldErrors.note}
            />
            <div>
              <Button disabled={busy}>{busy ? "Resolving…" : "Resolve"}</Button>
            </div>
          </Form>
        ) : (
          <p className="text-slate-600 text-sm">Only a manager at {here.locationName} can resolve this.</p>
        )}
      </article>
    </li>
  );
}
