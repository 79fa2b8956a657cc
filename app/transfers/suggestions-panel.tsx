// The balancing suggestions on /transfers (issue 22): each says why in one line, from where to
// where, and what would move, with "Make a draft": a plain form post (intent draft_from_suggestion,
// the two locations and the suggestion's lines as JSON) that the transfers page's action turns into
// a draft, so it works before JavaScript loads. Phone first: one card per suggestion, stacked.
// Where the reader cannot make transfers at either end, the button is not offered and the card
// says why.
import { Form } from "@remix-run/react";
import { Button } from "~/ui/form";
import type { BalancingSuggestion } from "./balance";

/** The intent the transfers page's action reads. */
export const DRAFT_FROM_SUGGESTION = "draft_from_suggestion";

const KIND_NAMES: Record<BalancingSuggestion["kind"], string> = {
  below_reorder: "Below its reorder point",
  expiring: "Expires before it is used",
};

/** What the draft would carry, in a few words: its vials, or its bulk quantity (the why-line says the unit). */
export function suggestionCarries(suggestion: BalancingSuggestion): string {
  const vials = suggestion.lines.filter((line) => "itemId" in line).length;
  const bulk = suggestion.lines.length - vials;
  const parts: string[] = [];
  if (vials) parts.push(`${vials.toLocaleString("en-US")} ${vials === 1 ? "vial" : "vials"}`);
  if (bulk) parts.push(`${bulk.toLocaleString("en-US")} bulk ${bulk === 1 ? "quantity" : "quantities"}`);
  return parts.join(" and ");
}

export function SuggestionsPanel({
  suggestions,
  writableLocationIds,
  idempotencyKey,
  busy = false,
}: {
  suggestions: readonly BalancingSuggestion[];
  /** Locations where the reader may make transfers (WRITE_TRANSFERS): a draft is made at the sender; the receiver is pointed to Request stock. */
  writableLocationIds: readonly string[];
  /** Sent with each form, so a double submit makes one draft. */
  idempotencyKey?: string;
  busy?: boolean;
}) {
  const writable = new Set(writableLocationIds);
  return (
    <section aria-labelledby="suggestions-title" data-testid="balancing-suggestions" className="flex flex-col gap-3">
      <div>
        <h2 id="suggestions-title" className="font-semibold text-lg">
          Before you order more
        </h2>
        <p className="text-slate-600 text-sm">
          Stock another location has to spare, or will not use before it expires.
        </p>
      </div>
      {suggestions.length === 0 ? (
        <p className="text-slate-600 text-sm">Nothing to move between locations just now.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {suggestions.map((s) => {
            const key = `${s.kind}-${s.fromLocationId}-${s.toLocationId}-${s.variationId}-${JSON.stringify(s.lines[0])}`;
            const headingId = `suggestion-${key.replace(/[^a-zA-Z0-9-]/g, "")}`;
            // A draft is made at the sending location (WRITE_TRANSFERS there), as the action checks.
            const allowed = writable.has(s.fromLocationId);
            return (
              <li
                key={key}
                aria-labelledby={headingId}
                data-suggestion={s.kind}
                className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
              >
                <p className="text-slate-600 text-xs uppercase tracking-wide">{KIND_NAMES[s.kind]}</p>
                <h3 id={headingId} className="font-medium">
                  {s.productName} · {s.variationName}
                </h3>
                <p className="text-sm" data-testid="suggestion-why">
                  {s.why}
                </p>
                <p className="text-sm">
                  <span className="font-medium">{s.fromLocationName}</span>
                  <span aria-hidden="true"> → </span>
                  <span className="sr-only"> to </span>
                  <span className="font-medium">{s.toLocationName}</span>: {suggestionCarries(s)}
                </p>
                {allowed ? (
                  <Form method="post" className="flex">
                    <input type="hidden" name="intent" value={DRAFT_FROM_SUGGESTION} />
                    {idempotencyKey && <input type="hidden" name="idempotencyKey" value={`${idempotencyKey}-${key}`} />}
                    <input type="hidden" name="fromLocationId" value={s.fromLocationId} />
                    <input type="hidden" name="toLocationId" value={s.toLocationId} />
                    <input type="hidden" name="lines" value={JSON.stringify(s.lines)} />
                    <Button disabled={busy}>Make a draft</Button>
                  </Form>
                ) : (
                  <p className="text-slate-600 text-sm">
                    {writable.has(s.toLocationId)
                      ? `${s.fromLocationName} sends these: ask them for it with Request stock.`
                      : `Only someone who makes transfers at ${s.fromLocationName} can make this draft.`}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
