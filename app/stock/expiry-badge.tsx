// An item's expiry as one badge: the spec's label ("Use-By Deadline", "Manufacturer Expiration",
// "Expired") and its date or time left (a manufacturer date with its days left in words, ADR 0019), coloured by band (expired red, critical orange, warning
// amber, caution yellow, safe green; dark text on a light tint, so it stays readable and the words
// say it without the colour). A recalled vial shows a red "Recalled" badge first. Live like the
// countdown: rendered for the server's `now`, then moved on by a timer once JavaScript runs.

import { useNow } from "./countdown";
import { type ExpiryBand, expiryLabel, type Instant, type ItemExpiry } from "./expiry";
import { BADGE } from "./state-badge";

export const BAND_TONES: Record<ExpiryBand, string> = {
  expired: "bg-red-100 text-red-900 ring-red-600/40",
  critical: "bg-orange-100 text-orange-950 ring-orange-600/40",
  warning: "bg-amber-100 text-amber-950 ring-amber-600/40",
  caution: "bg-yellow-100 text-yellow-950 ring-yellow-600/40",
  safe: "bg-green-100 text-green-900 ring-green-600/30",
};

export const RECALLED = "Recalled";

/** What the badge needs of a vial: the expiry fields, and optionally its recall and location's zone. */
export type ExpiryItem = ItemExpiry & { recalled?: boolean | null; location?: { timeZone?: string | null } | null };

export function ExpiryBadge({
  item,
  now,
  timeZone,
}: {
  item: ExpiryItem;
  /** The instant the server rendered for (pass the loader's, so hydration matches). */
  now?: Instant;
  /** Whose wall clock a passed Use-By Deadline is shown in; default the item's location's. */
  timeZone?: string;
}) {
  const current = useNow(undefined, now);
  const { band, label, text, left } = expiryLabel(item, current, timeZone ?? item.location?.timeZone ?? undefined);
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      {item.recalled && (
        <span data-recalled="" className={`${BADGE} bg-red-700 font-semibold text-white ring-red-800`}>
          {RECALLED}
        </span>
      )}
      <span data-band={band} className={`${BADGE} flex-wrap gap-x-1 ${BAND_TONES[band]}`} suppressHydrationWarning>
        {/* A narrow column breaks between the label and its date, never inside either. */}
        <span className="whitespace-nowrap font-semibold">{label}</span>
        <span className="whitespace-nowrap" suppressHydrationWarning>
          {text}
        </span>
        {left && (
          <span data-days-left="" className="whitespace-nowrap" suppressHydrationWarning>
            · {left}
          </span>
        )}
      </span>
    </span>
  );
}
