// What a draw answers the person at the cart, in one sentence the vial page's toast and the scan
// card both show: a draw from a sealed vial starts its clock, so it says when and until when before
// what was drawn ("Started now; use by Nov 26, 14:05 EST (24 h). Drew 20 U for chart 10442; 80 U
// left."). Browser-safe.
import { formatQuantity, type UnitScale } from "~/catalog/format";
import { showInstant } from "~/ui/dates";

const HOUR_MS = 60 * 60 * 1000;
/** A start this close to the answer is "now". */
const NOW_MS = 60 * 1000;

export interface DrawnFacts {
  vial: {
    unitsRemaining: number;
    unitScale: UnitScale;
    baseUnit: string;
    beyondUseHours: number | null;
    location: { timeZone: string };
  };
  usage: { unitsText: string; patientRef: string | null };
  /** Set when this draw started the vial (app/vials/draw.server). */
  started: { startedAt: Date | string; expiresAt: Date | string } | null;
}

/** The sentence for a draw answered at `now`. */
export function drawnText({ vial, usage, started }: DrawnFacts, now: Date = new Date()): string {
  const left = formatQuantity(vial.unitsRemaining, vial.unitScale, vial.baseUnit);
  const drew = `Drew ${usage.unitsText}${usage.patientRef ? ` for chart ${usage.patientRef}` : ""}; ${left} left.`;
  if (!started) return drew;
  const zone = vial.location.timeZone;
  const startedAt = new Date(started.startedAt);
  const expiresAt = new Date(started.expiresAt);
  const when =
    Math.abs(now.getTime() - startedAt.getTime()) <= NOW_MS ? "now" : (showInstant(startedAt, zone, now)?.text ?? "");
  const hours = (expiresAt.getTime() - startedAt.getTime()) / HOUR_MS;
  // The beyond-use hours say how long it keeps; else its expiration day ends first.
  const span = vial.beyondUseHours && hours === vial.beyondUseHours ? ` (${hours} h)` : "";
  return `Started ${when}; use by ${showInstant(expiresAt, zone, now)?.text ?? ""}${span}. ${drew}`;
}
