// An order as its page shows it: dates in the location's time zone, money in dollars, package
// sizes in the product's unit, each revision's changes in words (./order-document.tsx draws it).
import { centsInput, formatMoney, formatQuantity, type UnitScale } from "~/catalog/format";
import { calendarDayIn, formatDate, showInstant } from "~/ui/dates";
import type { OrderHead, OrderLineView, RevisionView } from "./order-document";
import { lineTotal, orderTotal, outstanding, type PurchaseOrder } from "./read.server";
import type { RevisionChange } from "./revise.server";

export function orderView(order: PurchaseOrder): {
  order: OrderHead;
  lines: OrderLineView[];
  revisions: RevisionView[];
} {
  const tz = order.timezone;
  const at = (ms: number | null) => showInstant(ms, tz);
  const terms = (c: { packages: number; unitCostCents: number } | null) =>
    c ? `${c.packages} × ${formatMoney(c.unitCostCents)}` : null;
  return {
    order: {
      id: order.id,
      number: order.number,
      status: order.status,
      revision: order.revision,
      version: order.version,
      location: order.locationName,
      locationCode: order.locationCode,
      address: order.locationAddress,
      vendor: order.vendorName,
      vendorAccount: order.vendorAccount,
      vendorContact: order.vendorContact,
      vendorEmail: order.vendorEmail,
      vendorPhone: order.vendorPhone,
      note: order.note,
      createdBy: order.createdBy,
      created: at(order.createdAt),
      createdDay: formatDate(calendarDayIn(new Date(order.createdAt), tz)),
      submittedBy: order.submittedBy,
      submitted: at(order.submittedAt),
      closedBy: order.closedBy,
      closed: at(order.closedAt),
      closeReason: order.closeReason,
      cancelledBy: order.cancelledBy,
      cancelled: at(order.cancelledAt),
      cancelReason: order.cancelReason,
      total: formatMoney(orderTotal(order.lines)),
    },
    lines: order.lines.map((l) => ({
      id: l.id,
      product: l.product,
      variation: l.variation,
      vendorSku: l.vendorSku,
      packages: l.packagesOrdered,
      received: l.packagesReceived,
      outstanding: outstanding(l),
      perPackage: formatQuantity(l.unitsPerPackage, l.unitScale as UnitScale, l.baseUnit),
      unitCost: formatMoney(l.unitCostCents),
      unitCostInput: centsInput(l.unitCostCents),
      total: formatMoney(lineTotal(l)),
      expectedOn: l.expectedOn,
      expected: l.expectedOn ? formatDate(l.expectedOn) : null,
    })),
    revisions: order.revisions.map((r) => ({
      revision: r.revision,
      reason: r.reason,
      by: r.revisedBy,
      at: at(r.createdAt),
      changes: (JSON.parse(r.changes) as RevisionChange[]).map((c) => ({
        what: c.what,
        product: c.product,
        before: terms(c.before),
        after: terms(c.after),
      })),
    })),
  };
}
