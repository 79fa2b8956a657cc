// A vial's state as staff say it. Neutral colours: the expiry badge carries the urgency, and the
// words carry the meaning, so nothing depends on colour alone. A vial still on the shelf past its
// deadline says so in its state ("Sealed · expired"): a list read down its State column must not
// show an unusable vial as plain "Sealed".
import { ITEM_STATES, type ItemState } from "../../db/schema/stock/constants";

export const STATE_NAMES: Record<ItemState, string> = {
  sealed: "Sealed",
  in_use: "In use",
  empty: "Empty",
  discarded: "Discarded",
  in_transit: "In transit",
};

/** The states as options of a select: value and the name staff know. */
export const STATE_OPTIONS = ITEM_STATES.map((value) => ({ value, label: STATE_NAMES[value] }));

const TONES: Record<ItemState, string> = {
  sealed: "bg-slate-100 text-slate-800 ring-slate-500/30",
  in_use: "bg-sky-100 text-sky-900 ring-sky-600/30",
  empty: "bg-white text-slate-600 ring-slate-400/40",
  discarded: "bg-slate-200 text-slate-700 ring-slate-500/30",
  in_transit: "bg-violet-100 text-violet-900 ring-violet-600/30",
};

const EXPIRED_TONE = "bg-red-50 text-red-900 ring-red-600/40";

export const BADGE = "inline-flex items-center rounded px-1.5 py-0.5 font-medium text-xs ring-1 ring-inset";

/** Finished vials: their expiry no longer matters, so their state says nothing of it. */
const FINISHED: readonly ItemState[] = ["empty", "discarded"];

export const EXPIRED_SUFFIX = "expired";

export function StateBadge({ state, expired = false }: { state: ItemState; expired?: boolean }) {
  const saysExpired = expired && !FINISHED.includes(state);
  return (
    <span
      data-state={state}
      data-expired={saysExpired ? "" : undefined}
      className={`${BADGE} whitespace-nowrap ${saysExpired ? EXPIRED_TONE : (TONES[state] ?? TONES.sealed)}`}
    >
      {STATE_NAMES[state] ?? state}
      {saysExpired && ` · ${EXPIRED_SUFFIX}`}
    </span>
  );
}
