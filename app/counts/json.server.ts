// A count as the JSON API answers it (GET /api/audit-sessions and /{id}): its status, scope, who
// did what when, and its lines. A reader with READ_AUDITS at its location, or a counter of a count
// that is not blind, also gets the review: expected against counted, variances and their value,
// missing and found vials, and the movements made while it was open.
import type { CountDocument } from "./review.server";
import type { SessionRow } from "./session.server";

const instant = (at: number | null) => (at === null || at === undefined ? null : new Date(Number(at)).toISOString());
const person = (id: string | null, name: string | null) => (id ? { id, name } : null);

export function sessionJson(s: SessionRow) {
  return {
    id: s.id,
    locationId: s.locationId,
    location: { code: s.locationCode, name: s.locationName },
    status: s.status,
    scope:
      s.scope === "category"
        ? { kind: "category", category: s.scopeCategory }
        : s.scope === "products"
          ? { kind: "products", productIds: JSON.parse(s.scopeProductIds ?? "[]") as string[] }
          : { kind: "all" },
    blind: Boolean(Number(s.blind)),
    startedBy: person(s.startedBy, s.startedByName),
    startedAt: instant(s.startedAt),
    submittedBy: person(s.submittedBy, s.submittedByName),
    submittedAt: instant(s.submittedAt),
    reviewedBy: person(s.reviewedBy, s.reviewedByName),
    reviewedAt: instant(s.reviewedAt),
    reviewNote: s.reviewNote,
  };
}

/** The lines counted (what anyone counting may see), from the report's rows. */
export function linesJson(report: CountDocument) {
  return [
    ...report.vials.map((v) => ({
      id: v.lineId,
      itemId: v.itemId,
      labelCode: v.labelCode,
      variationId: v.variationId,
      product: v.product,
      variation: v.variation,
      lot: v.lot,
      quantity: v.counted,
      found: v.found,
      countedBy: person(v.countedById, v.countedBy),
      countedAt: instant(v.countedAt),
    })),
    ...report.bulk.flatMap((b) =>
      b.lines.map((l) => ({
        id: l.lineId,
        itemId: null,
        labelCode: null,
        variationId: b.variationId,
        product: b.product,
        variation: b.variation,
        lot: l.lot,
        quantity: l.quantity,
        found: false,
        countedBy: person(l.countedById, l.countedBy),
        countedAt: instant(l.countedAt),
      })),
    ),
  ];
}

/** The review: expected against counted as of each line, in base units, values in cents at cost. */
export function reviewJson(report: CountDocument) {
  return {
    vials: report.vials.map((v) => ({
      lineId: v.lineId,
      itemId: v.itemId,
      labelCode: v.labelCode,
      counted: v.counted,
      expected: v.found ? null : v.expected,
      variance: v.variance,
      valueCents: v.valueCents,
      found: v.found ? { locationCode: v.itemLocationCode, state: v.state, unitsRemaining: v.unitsNow } : null,
      movedSinceCounted: v.after,
    })),
    bulk: report.bulk.map((b) => ({
      variationId: b.variationId,
      product: b.product,
      variation: b.variation,
      counted: b.counted,
      expected: b.expected,
      onHandNow: b.onHandNow,
      movedSinceCounted: b.after,
      variance: b.variance,
      valueCents: b.valueCents,
    })),
    missing: report.missing.map((m) => ({
      itemId: m.itemId,
      labelCode: m.labelCode,
      product: m.product,
      variation: m.variation,
      lot: m.lot,
      state: m.state,
      unitsRemaining: m.unitsNow,
      valueCents: m.valueCents,
    })),
    notCounted: report.notCounted,
    movementsDuringCount: report.during.map((m) => ({
      id: m.id,
      occurredAt: instant(m.occurredAt),
      type: m.type,
      reason: m.reason,
      product: m.product,
      variation: m.variation,
      labelCode: m.labelCode,
      quantity: m.quantity,
      user: m.user,
    })),
    totals: report.totals,
  };
}
