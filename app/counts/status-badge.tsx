// A count's status as a small badge (the review list, a count's page).
import { type AuditStatus, STATUS_LABELS } from "./constants";

const BADGE: Record<AuditStatus, string> = {
  in_progress: "bg-sky-50 text-sky-800 ring-sky-600/20",
  submitted: "bg-amber-50 text-amber-900 ring-amber-600/20",
  approved: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  rejected: "bg-red-50 text-red-800 ring-red-600/20",
};

export function CountStatus({ status }: { status: AuditStatus }) {
  return (
    <span className={`inline-flex rounded px-1.5 py-0.5 font-medium text-xs ring-1 ring-inset ${BADGE[status]}`}>
      {STATUS_LABELS[status]}
    </span>
  );
}
