// "Suggest from usage" on the par levels page (issue 23.4): for the rows of the page, the levels
// proposed from the last 30 or 90 days of use (./propose.ts) beside today's, each with a checkbox,
// accepted ticked or all at once in one plain form post (intent apply_suggestions), so it works
// before JavaScript loads. A row not used in the window has no proposal and says so; a row whose
// proposal is what it has today is not offered.
import { Form, Link } from "@remix-run/react";
import type { Levels } from "~/catalog/par-level";
import { Button, FormAlert } from "~/ui/form";
import { CELL, DataRow, DataTable } from "~/ui/table";
import { APPLY_SUGGESTIONS_INTENT } from "./constants";
import { levelsText, proposalField, proposalValue, USAGE_WINDOWS, type UsageWindow } from "./propose";

export interface UsageRow {
  variationId: string;
  product: string;
  variation: string;
  /** Packages used in the window, to one decimal. */
  usedPackages: string;
  today: Levels | null;
  proposed: Levels | null;
}

const same = (a: Levels | null, b: Levels | null) =>
  a !== null && b !== null && a.par === b.par && a.reorderPoint === b.reorderPoint && a.max === b.max;

/** The links that show suggestions from 30 or 90 days, or hide them. */
export function SuggestLinks({ days, link }: { days: UsageWindow | null; link: (days: UsageWindow | null) => string }) {
  return (
    <nav aria-label="Suggest from usage" className="flex flex-wrap items-center gap-2 text-sm">
      <span className="font-medium">Suggest from usage:</span>
      {USAGE_WINDOWS.map((w) => (
        <Link
          key={w}
          to={link(w)}
          aria-current={days === w ? "page" : undefined}
          className={`rounded-md border px-3 py-2 ${days === w ? "border-sky-700 bg-sky-50 font-medium" : "border-slate-300 bg-white"}`}
        >
          Last {w} days
        </Link>
      ))}
      {days !== null && (
        <Link to={link(null)} className="text-sky-700 underline">
          Hide suggestions
        </Link>
      )}
    </nav>
  );
}

export function UsageSuggestions({
  days,
  locationId,
  locationName,
  rows,
  canWrite,
  formError,
  busy = false,
}: {
  days: UsageWindow;
  /** Sent in organization mode, where the location is picked. */
  locationId: string | null;
  locationName: string;
  rows: readonly UsageRow[];
  canWrite: boolean;
  formError?: string | null;
  busy?: boolean;
}) {
  const offered = rows.filter((r) => r.proposed !== null && !same(r.proposed, r.today));
  const unused = rows.filter((r) => r.proposed === null).length;
  const settled = rows.length - offered.length - unused;
  return (
    <section aria-labelledby="usage-suggestions-title" data-testid="usage-suggestions" className="flex flex-col gap-3">
      <div>
        <h2 id="usage-suggestions-title" className="font-semibold text-lg">
          Suggested from the last {days} days of use at {locationName}
        </h2>
        <p className="text-slate-600 text-sm">
          Reorder point: what is used during the vendor's lead time and a week more. Max: the reorder point and a month
          of use. Par: today's, kept between the two. Shown as par / reorder point / max, in packages, for the
          variations on this page.
        </p>
      </div>
      <FormAlert message={formError} />
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value={APPLY_SUGGESTIONS_INTENT} />
        <input type="hidden" name="days" value={days} />
        {locationId && <input type="hidden" name="locationId" value={locationId} />}
        <DataTable
          caption={`Par levels suggested from usage at ${locationName}`}
          columns={["Variation", `Used in ${days} days`, "Today", "Suggested", "Accept"]}
          rowCount={offered.length}
          empty="Nothing to suggest on this page: its variations were not used here, or already have these levels."
        >
          {offered.map((r) => {
            const id = `accept-${r.variationId}`;
            return (
              <DataRow key={r.variationId}>
                <td className={CELL}>
                  {r.product} · {r.variation}
                </td>
                <td className={`${CELL} tabular-nums`}>{r.usedPackages}</td>
                <td className={`${CELL} tabular-nums`}>{levelsText(r.today)}</td>
                <td className={`${CELL} font-medium tabular-nums`}>
                  {levelsText(r.proposed)}
                  {r.proposed && (
                    <input type="hidden" name={proposalField(r.variationId)} value={proposalValue(r.proposed)} />
                  )}
                </td>
                <td className={CELL}>
                  {canWrite ? (
                    <label htmlFor={id} className="inline-flex min-h-10 items-center gap-2">
                      <input id={id} type="checkbox" name="accept" value={r.variationId} className="size-5" />
                      <span className="sr-only">
                        Accept for {r.product} {r.variation}
                      </span>
                    </label>
                  ) : (
                    "—"
                  )}
                </td>
              </DataRow>
            );
          })}
        </DataTable>
        {(unused > 0 || settled > 0) && (
          <p className="text-slate-600 text-sm">
            {[
              unused > 0 &&
                `${unused} ${unused === 1 ? "variation" : "variations"} on this page not used here in ${days} days: no suggestion`,
              settled > 0 && `${settled} already ${settled === 1 ? "has" : "have"} the suggested levels`,
            ]
              .filter(Boolean)
              .join("; ")}
            .
          </p>
        )}
        {offered.length > 0 &&
          (canWrite ? (
            <div className="flex flex-wrap gap-2">
              <Button disabled={busy}>Accept ticked</Button>
              <Button tone="secondary" name="all" value="1" disabled={busy}>
                Accept all {offered.length}
              </Button>
            </div>
          ) : (
            <p className="text-slate-600 text-sm">
              Only someone who edits products at {locationName} can accept these.
            </p>
          ))}
      </Form>
    </section>
  );
}
