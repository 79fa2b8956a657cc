// A transfer's and a line's status as badges: words carry the meaning, colour only helps.
import { BADGE } from "~/stock/state-badge";
import { LINE_STATUS_LABELS, TRANSFER_STATUS_LABELS, type TransferLineStatus, type TransferStatus } from "./constants";

const TRANSFER_TONES: Record<TransferStatus, string> = {
  requested: "bg-amber-50 text-amber-900 ring-amber-600/30",
  draft: "bg-slate-100 text-slate-800 ring-slate-500/30",
  in_transit: "bg-violet-100 text-violet-900 ring-violet-600/30",
  received: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  cancelled: "bg-white text-slate-600 ring-slate-400/40",
};

const LINE_TONES: Record<TransferLineStatus, string> = {
  pending: "bg-violet-50 text-violet-900 ring-violet-600/30",
  received: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  missing: "bg-red-50 text-red-900 ring-red-600/40",
  damaged: "bg-red-50 text-red-900 ring-red-600/40",
  short: "bg-amber-50 text-amber-900 ring-amber-600/30",
  returned: "bg-slate-100 text-slate-700 ring-slate-500/30",
};

export function TransferStatusBadge({ status, recalled = false }: { status: TransferStatus; recalled?: boolean }) {
  return (
    <span data-status={status} className={`${BADGE} whitespace-nowrap ${TRANSFER_TONES[status]}`}>
      {recalled ? "Recalled" : TRANSFER_STATUS_LABELS[status]}
    </span>
  );
}

export function LineStatusBadge({ status, draft = false }: { status: TransferLineStatus; draft?: boolean }) {
  if (draft) return <span className={`${BADGE} ${TRANSFER_TONES.draft}`}>On the draft</span>;
  return (
    <span data-line-status={status} className={`${BADGE} whitespace-nowrap ${LINE_TONES[status]}`}>
      {status === "pending" ? "On the way" : LINE_STATUS_LABELS[status]}
    </span>
  );
}
