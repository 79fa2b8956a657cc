// The connection, visible (spec section 4, issue #25): nothing while all is well; offline, what
// still works on this device and what waits for the connection; coming back, that the screen is
// being refreshed; and while a circuit breaker is open, when the server will be asked again.
import type { BreakerStatus } from "~/browser/breaker-status";
import { formatLocal } from "~/ui/clock";
import type { Connectivity } from "./connectivity";
import { useBreakerStatus, useConnectivity } from "./use-connectivity";

export const BANNER_TEXT = {
  offlineTitle: "Offline: working from this device",
  offline:
    "Inventory, Scan and Audit show what this device last saw. Starts, draws, empties, discards and counts are saved here and sent when the connection is back. Receiving, transfers, imports and admin screens wait for the connection.",
  restored: "Back online: refreshing what you see.",
  open: (at: number) => `The server is not answering; retrying at ${formatLocal(new Date(at), "H:mm")}.`,
  halfOpen: "The server is not answering; trying it again now.",
} as const;

export function ConnectivityBannerView({ state, breaker }: { state: Connectivity; breaker: BreakerStatus }) {
  const breakerLine =
    breaker.state === "open" && breaker.nextAttemptAt !== null
      ? BANNER_TEXT.open(breaker.nextAttemptAt)
      : breaker.state === "half-open"
        ? BANNER_TEXT.halfOpen
        : null;
  if (state === "online" && !breakerLine) return null;
  const restored = state === "restored";
  return (
    <div
      data-testid="connectivity-banner"
      data-state={state}
      data-breaker={breaker.state}
      className={`mb-4 rounded-md border px-4 py-3 text-sm print:hidden ${
        restored ? "border-emerald-300 bg-emerald-50 text-emerald-900" : "border-amber-300 bg-amber-50 text-amber-950"
      }`}
    >
      {state === "offline" && (
        <>
          <p className="font-semibold">{BANNER_TEXT.offlineTitle}</p>
          <p className="mt-1">{BANNER_TEXT.offline}</p>
        </>
      )}
      {restored && <p className="font-semibold">{BANNER_TEXT.restored}</p>}
      {breakerLine && <p className={state === "offline" ? "mt-1 font-medium" : "font-medium"}>{breakerLine}</p>}
    </div>
  );
}

/** The banner as the app shows it, above every signed-in screen. Announced politely to screen readers. */
export function ConnectivityBanner() {
  const state = useConnectivity();
  const breaker = useBreakerStatus();
  return (
    <div role="status" aria-live="polite">
      <ConnectivityBannerView state={state} breaker={breaker} />
    </div>
  );
}
