// The backup screen's two lists: the snapshots (newest first, with size, times, who or what made
// it, the rehearsal's result, a live progress bar while one is written, and its actions) and the
// latest restores. A failed snapshot or rehearsal is a red line with its message.
import { Link } from "@remix-run/react";
import type { BackupSummary, RestoreSummary } from "~/backups/list.server";
import { type ShownInstant, Time } from "~/ui/dates";
import { CELL, DataRow, DataTable } from "~/ui/table";
import { downloadPath, restorePath } from "./links";
import { LiveProgress } from "./progress";
import { BACKUP_STATUS_TEXT, madeByText, REHEARSAL_TEXT, RESTORE_STATUS_TEXT, restorable, sizeText } from "./words";

export type ShownBackup = Omit<BackupSummary, "requestedAt" | "finishedAt" | "takenAt"> & {
  requestedAt: ShownInstant | null;
  takenAt: ShownInstant | null;
  finishedAt: ShownInstant | null;
  rehearsedAt: ShownInstant | null;
};

export type ShownRestore = Omit<RestoreSummary, "requestedAt" | "finishedAt" | "backupRequestedAt"> & {
  requestedAt: ShownInstant | null;
  finishedAt: ShownInstant | null;
  backupRequestedAt: ShownInstant | null;
};

const LINK = "font-medium text-sky-800 hover:underline";

const STATUS_TONE: Record<BackupSummary["status"], string> = {
  queued: "bg-slate-100 text-slate-700 ring-slate-500/20",
  writing: "bg-sky-50 text-sky-800 ring-sky-600/20",
  ready: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  failed: "bg-red-50 text-red-800 ring-red-600/20",
  deleted: "bg-slate-100 text-slate-500 ring-slate-500/20",
};

function Badge({ tone, children }: { tone: string; children: string }) {
  return (
    <span className={`inline-flex items-center rounded px-1.5 py-0.5 font-medium text-xs ring-1 ring-inset ${tone}`}>
      {children}
    </span>
  );
}

function RehearsalCell({ backup }: { backup: ShownBackup }) {
  const { rehearsal } = backup;
  if (backup.status === "failed") {
    return (
      <td className={`${CELL} text-red-700`} data-testid="backup-failure">
        <span className="font-medium">The snapshot failed:</span> {backup.error ?? "no reason was recorded."}
      </td>
    );
  }
  if (!rehearsal.status) return <td className={`${CELL} text-slate-500`}>—</td>;
  const failed = rehearsal.status === "failed";
  return (
    <td
      className={`${CELL} ${failed ? "text-red-700" : rehearsal.status === "passed" ? "text-emerald-800" : "text-slate-600"}`}
    >
      <span className="font-medium">{REHEARSAL_TEXT[rehearsal.status]}</span>
      {backup.rehearsedAt && (
        <>
          {" "}
          <span className="text-xs">
            (<Time at={backup.rehearsedAt} />)
          </span>
        </>
      )}
      {rehearsal.message && (
        <span className="block text-xs" data-testid={failed ? "rehearsal-failure" : undefined}>
          {rehearsal.message}
        </span>
      )}
    </td>
  );
}

export function BackupTable({
  backups,
  organizationAdmin,
}: {
  backups: readonly ShownBackup[];
  /** Downloads and restores are theirs alone: a snapshot holds every location's records. */
  organizationAdmin: boolean;
}) {
  const columns = [
    { label: "Made", title: true },
    { label: "Status", key: true },
    "Size",
    "Made by",
    "Restore rehearsal",
    ...(organizationAdmin ? [""] : []),
  ];
  return (
    <DataTable
      caption="Snapshots, newest first"
      columns={columns}
      rowCount={backups.length}
      empty="No backups yet. The first nightly snapshot is made at the next scheduled run, or make one now."
    >
      {backups.map((backup) => {
        const red = backup.status === "failed" || backup.rehearsal.status === "failed";
        const live = backup.status === "queued" || backup.status === "writing";
        return (
          <DataRow key={backup.id}>
            <td className={`${CELL} ${red ? "border-red-500 border-l-4" : ""}`} data-backup-id={backup.id}>
              <span className={`font-medium ${backup.status === "deleted" ? "text-slate-500" : ""}`}>
                <Time at={backup.requestedAt} />
              </span>
              {backup.origin === "upload" ? (
                <span className="block text-slate-500 text-xs">
                  {backup.takenAt ? (
                    <>
                      uploaded; taken <Time at={backup.takenAt} />
                    </>
                  ) : (
                    "uploaded; when it was taken is read when it is checked"
                  )}
                </span>
              ) : (
                backup.finishedAt &&
                backup.status === "ready" && (
                  <span className="block text-slate-500 text-xs">
                    done <Time at={backup.finishedAt} />
                  </span>
                )
              )}
            </td>
            <td className={CELL}>
              {live ? (
                <div className="flex flex-col items-start gap-1">
                  <Badge tone={STATUS_TONE[backup.status]}>{BACKUP_STATUS_TEXT[backup.status]}</Badge>
                  <LiveProgress
                    id={backup.id}
                    initial={{ status: backup.status, progress: backup.progress }}
                    label="Backup progress"
                  />
                </div>
              ) : (
                <Badge tone={STATUS_TONE[backup.status]}>{BACKUP_STATUS_TEXT[backup.status]}</Badge>
              )}
            </td>
            <td className={`${CELL} tabular-nums`}>{sizeText(backup.sizeBytes)}</td>
            <td className={CELL}>{madeByText(backup.origin, backup.requestedBy)}</td>
            <RehearsalCell backup={backup} />
            {organizationAdmin && (
              <td className={CELL}>
                {backup.status === "ready" && (
                  <span className="flex flex-wrap gap-x-3 gap-y-1">
                    <a href={downloadPath(backup.id)} download className={LINK}>
                      Download
                    </a>
                    {restorable(backup) && (
                      <Link to={`${restorePath(backup.id)}#restore`} className={LINK}>
                        Restore…
                      </Link>
                    )}
                  </span>
                )}
              </td>
            )}
          </DataRow>
        );
      })}
    </DataTable>
  );
}

const RESTORE_TONE: Record<RestoreSummary["status"], string> = {
  queued: "text-slate-700",
  checking: "text-sky-800",
  staging: "text-sky-800",
  switching: "text-sky-800",
  done: "text-emerald-800",
  refused: "text-red-700",
  failed: "text-red-700",
};

export function RestoreTable({ restores }: { restores: readonly ShownRestore[] }) {
  return (
    <DataTable
      caption="Latest restores"
      columns={[{ label: "Asked", title: true }, { label: "Status", key: true }, "Snapshot of", "By", "Result"]}
      rowCount={restores.length}
      empty="No restore has been asked for."
    >
      {restores.map((restore) => (
        <DataRow key={restore.id}>
          <td className={CELL}>
            <Time at={restore.requestedAt} />
          </td>
          <td className={`${CELL} font-medium ${RESTORE_TONE[restore.status]}`}>
            {RESTORE_STATUS_TEXT[restore.status]}
            {restore.progress.percent !== null && restore.status === "staging" && ` (${restore.progress.percent}%)`}
          </td>
          <td className={CELL}>
            <Time at={restore.backupRequestedAt} />
            {restore.backupOrigin === "upload" && <span className="text-slate-500 text-xs"> (upload)</span>}
          </td>
          <td className={CELL}>{restore.requestedBy ?? "—"}</td>
          <td
            className={`${CELL} ${restore.status === "refused" || restore.status === "failed" ? "text-red-700" : ""}`}
          >
            {restore.message ?? (restore.status === "done" ? <Time at={restore.finishedAt} /> : "—")}
          </td>
        </DataRow>
      ))}
    </DataTable>
  );
}
