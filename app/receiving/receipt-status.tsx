// A receipt's status as a badge: open (amber, still being checked in), completed (green, stock is
// in), cancelled (grey).
import type { ReceiptStatus } from "../../db/schema/stock/constants";

const LOOK: Record<ReceiptStatus, { label: string; className: string }> = {
  open: { label: "Open", className: "bg-amber-50 text-amber-800 ring-amber-600/20" },
  completed: { label: "Completed", className: "bg-emerald-50 text-emerald-800 ring-emerald-600/20" },
  cancelled: { label: "Cancelled", className: "bg-slate-100 text-slate-600 ring-slate-500/20" },
};

export function ReceiptStatusBadge({ status }: { status: ReceiptStatus }) {
  const look = LOOK[status];
  return (
    <span
      className={`inline-flex items-center rounded px-1.5 py-0.5 font-medium text-xs ring-1 ring-inset ${look.className}`}
    >
      {look.label}
    </span>
  );
}
