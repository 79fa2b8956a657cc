// An order's status as a badge: words carry the meaning, colour only helps.
import { BADGE } from "~/stock/state-badge";
import { PURCHASE_ORDER_STATUS_LABELS, type PurchaseOrderStatus } from "./constants";

const TONES: Record<PurchaseOrderStatus, string> = {
  draft: "bg-slate-100 text-slate-800 ring-slate-500/30",
  submitted: "bg-sky-100 text-sky-900 ring-sky-600/30",
  partially_received: "bg-amber-50 text-amber-900 ring-amber-600/30",
  received: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  closed: "bg-white text-slate-700 ring-slate-400/40",
  cancelled: "bg-white text-slate-600 ring-slate-400/40",
};

export function OrderStatusBadge({ status }: { status: PurchaseOrderStatus }) {
  return (
    <span data-status={status} className={`${BADGE} whitespace-nowrap ${TONES[status]}`}>
      {PURCHASE_ORDER_STATUS_LABELS[status]}
    </span>
  );
}
