// What each vial verb allows, read from the vial as it stands (domain.md "Stock", spec section 4):
// the verbs check these before writing and again, on the vial read back, to say why a guarded
// write lost a race; screens may use them to offer only the actions that will work. The same
// rules are the guards in SQL of ./change.server. Browser-safe.
import { formatQuantity, type UnitScale } from "~/catalog/format";
import { expirationEndOfDay, MANUFACTURER_EXPIRATION, USE_BY_DEADLINE } from "~/stock/expiry";
import { formatDate, showInstant } from "~/ui/dates";
import type { ChosenDiscardReason } from "../../db/schema/stock/constants";
import { refuse, type VialRefusal, type VialRefused } from "./outcome";

const HOUR_MS = 60 * 60 * 1000;

/** The fields of a Vial (app/stock/vials.server) the rules read. */
export interface VialFacts {
  state: string;
  expirationDate: string | null;
  expiresAt: Date | null;
  unitsRemaining: number;
  unitScale: UnitScale;
  baseUnit: string;
  beyondUseHours: number | null;
  recalled: boolean;
  controlled: boolean;
}

export const NO_EXPIRATION_MESSAGE = `This vial has no ${MANUFACTURER_EXPIRATION} on record, so it counts as expired: it cannot be started or drawn from. Discard it with the reason "expired".`;

/**
 * The Use-By Deadline of a vial started at `startedAt`: the end of its expiration day (UTC), or
 * sooner when the product's beyond-use hours run out first. Null without an expiration date: such
 * a vial counts as expired (spec section 4) and is never started.
 */
export function deadlineWhenStarted(
  vial: Pick<VialFacts, "expirationDate" | "beyondUseHours">,
  startedAt: Date,
): Date | null {
  if (!vial.expirationDate) return null;
  const end = expirationEndOfDay(vial.expirationDate).getTime();
  if (Number.isNaN(end)) return null;
  const beyondUse = vial.beyondUseHours ? startedAt.getTime() + vial.beyondUseHours * HOUR_MS : end;
  return new Date(Math.min(end, beyondUse));
}

/** The units as the clinic reads them: "20 U", "0.5 mL". */
export function unitsText(vial: Pick<VialFacts, "unitScale" | "baseUnit">, units: number): string {
  return formatQuantity(units, vial.unitScale, vial.baseUnit);
}

/** Why nothing at all can be done with it any more (finished, or away in transit). */
function unreachable(vial: VialFacts): VialRefused | null {
  if (vial.state === "empty" || vial.state === "discarded") return refuse("finished");
  if (vial.state === "in_transit") return refuse("in_transit");
  return null;
}

/** Why a sealed vial cannot be opened at `now`: recalled, or past (or without) its expiration. */
function unopenable(vial: VialFacts, now: Date): VialRefused | null {
  if (vial.recalled) return refuse("recalled");
  const deadline = deadlineWhenStarted(vial, now);
  if (!deadline) return refuse("manufacturer_expired", NO_EXPIRATION_MESSAGE);
  if (expirationEndOfDay(vial.expirationDate ?? "").getTime() <= now.getTime()) return refuse("manufacturer_expired");
  return null;
}

export function startRefusal(vial: VialFacts, now: Date): VialRefused | null {
  const gone = unreachable(vial);
  if (gone) return gone;
  if (vial.state !== "sealed") return refuse("not_sealed");
  return unopenable(vial, now);
}

/** Why `units` (base units, more than zero) cannot be drawn at `now`. */
export function drawRefusal(vial: VialFacts, units: number, now: Date): VialRefused | null {
  const gone = unreachable(vial);
  if (gone) return gone;
  if (vial.state === "sealed") {
    const closed = unopenable(vial, now);
    if (closed) return closed;
  } else {
    if (vial.recalled) return refuse("recalled");
    if (!vial.expiresAt || vial.expiresAt.getTime() <= now.getTime()) return refuse("use_by_passed");
  }
  if (units > vial.unitsRemaining) {
    return refuse(
      "not_enough_units",
      `Not enough left in this vial for that draw: ${unitsText(vial, vial.unitsRemaining)} left. Draw at most that, or open another vial.`,
    );
  }
  return null;
}

export function emptyRefusal(vial: VialFacts): VialRefused | null {
  const gone = unreachable(vial);
  if (gone) return gone;
  return vial.state === "in_use" ? null : refuse("not_in_use");
}

export function discardRefusal(vial: VialFacts): VialRefused | null {
  return unreachable(vial);
}

/** A controlled substance with units left: wasting them needs a second person's password. */
export function needsWitness(vial: Pick<VialFacts, "controlled" | "unitsRemaining">): boolean {
  return vial.controlled && vial.unitsRemaining > 0;
}

/** Which actions a screen offers: those the verbs would not refuse as the vial stands now. */
export interface VialActions {
  start: boolean;
  draw: boolean;
  empty: boolean;
  discard: boolean;
  /** Empty and discard ask for a witness: a controlled substance with units left. */
  witness: boolean;
}

/**
 * The actions open on `vial` at `now`, for someone who may write inventory at its location (the
 * vial page and the scan card both ask here). A recalled vial is quarantined: discarding is all
 * that is left.
 */
export function openActions(vial: VialFacts, now: Date): VialActions {
  const discard = discardRefusal(vial) === null;
  if (vial.recalled)
    return { start: false, draw: false, empty: false, discard, witness: discard && needsWitness(vial) };
  return {
    start: startRefusal(vial, now) === null,
    // The smallest draw there is: anything left, and the vial open or openable.
    draw: vial.unitsRemaining > 0 && drawRefusal(vial, 1, now) === null,
    empty: emptyRefusal(vial) === null,
    discard,
    witness: needsWitness(vial),
  };
}

/** Why a vial still on the shelf or open can be neither started nor drawn from, and how to discard it. */
export interface ClosedReason {
  refusal: VialRefusal;
  /** Said where the start and draw buttons would have been. */
  message: string;
  /** The discard reason the discard form starts with. */
  discardAs: ChosenDiscardReason;
}

/**
 * The reason start and draw are not offered on a sealed or open vial at `now` (the verbs' own
 * refusals, in the words of the screen, dates in the location's `timeZone`); null when one of them
 * is, or when the vial is finished or away (its state says so).
 */
export function closedReason(vial: VialFacts, now: Date, timeZone: string): ClosedReason | null {
  if (vial.state !== "sealed" && vial.state !== "in_use") return null;
  const open = openActions(vial, now);
  if (open.start || open.draw) return null;
  const why = vial.state === "sealed" ? startRefusal(vial, now) : drawRefusal(vial, 1, now);
  if (!why) return null;
  switch (why.refusal) {
    case "recalled":
      return { refusal: why.refusal, message: why.message, discardAs: "recalled" };
    case "manufacturer_expired":
      return {
        refusal: why.refusal,
        message: vial.expirationDate
          ? `Expired on ${formatDate(vial.expirationDate)}: it cannot be started. Discard it as expired.`
          : `No ${MANUFACTURER_EXPIRATION} on record, so it counts as expired: it cannot be started. Discard it as expired.`,
        discardAs: "expired",
      };
    case "use_by_passed": {
      const deadline = showInstant(vial.expiresAt, timeZone, now)?.text;
      return {
        refusal: why.refusal,
        message: `Past its ${USE_BY_DEADLINE}${deadline ? ` (${deadline})` : ""}: it can no longer be drawn from. Empty it, or discard it as expired.`,
        discardAs: "expired",
      };
    }
    default:
      // Nothing left in it: emptying it is what is left to do.
      return null;
  }
}
