// A vial's state as staff say it. Neutral colours: the expiry badge carries the urgency, and the
// words carry the meaning, so nothing depends on colour alone.
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

export const BADGE = "inline-flex items-center rounded px-1.5 py-0.5 font-medium text-xs ring-1 ring-inset";

export function StateBadge({ state }: { state: ItemState }) {
  return (
    <span data-state={state} className={`${BADGE} ${TONES[state] ?? TONES.sealed}`}>
      {STATE_NAMES[state] ?? state}
    </span>
  );
}
