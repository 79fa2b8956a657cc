// A snapshot's progress bar on the backup screen. The page draws it as the loader read it (it
// works without JavaScript, with a link to look again); once the page runs, it asks GET
// /api/backups/{id} every two seconds while the snapshot is queued or being written, moves the
// bar, and reads the page again when the snapshot is ready or has failed.
import { useRevalidator } from "@remix-run/react";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { BackupStatus } from "../../db/schema/backups/constants";

export const POLL_MS = 2_000;

export interface ProgressState {
  status: BackupStatus;
  progress: { rowsDone: number; rowsTotal: number | null; percent: number | null };
}

const inProgress = (status: BackupStatus) => status === "queued" || status === "writing";

export function progressText({ status, progress }: ProgressState): string {
  if (status === "queued") return "Waiting for the jobs worker to start it";
  if (progress.percent === null) return `Writing: ${progress.rowsDone.toLocaleString("en-US")} rows so far`;
  const total = progress.rowsTotal ?? 0;
  return `Writing: ${progress.percent}% (${progress.rowsDone.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} rows)`;
}

export function ProgressBar({ state, label }: { state: ProgressState; label: string }) {
  const percent = state.status === "queued" ? 0 : (state.progress.percent ?? undefined);
  return (
    <div className="flex w-full min-w-40 flex-col gap-1">
      <progress
        aria-label={label}
        max={100}
        value={percent}
        className="h-2 w-full overflow-hidden rounded bg-slate-200 [&::-moz-progress-bar]:bg-sky-600 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-sky-600"
      />
      <span className="text-slate-600 text-xs" data-testid="backup-progress">
        {progressText(state)}
      </span>
    </div>
  );
}

/** The bar of one snapshot in progress, polled while it lasts. */
export function LiveProgress({ id, initial, label }: { id: string; initial: ProgressState; label: string }) {
  const revalidator = useRevalidator();
  const polled = useQuery<ProgressState>({
    queryKey: ["/api/backups", id],
    initialData: initial,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (query) => (query.state.data && !inProgress(query.state.data.status) ? false : POLL_MS),
  });
  const state = polled.data ?? initial;
  const finished = !inProgress(state.status);
  const reread = useRef(false);
  // Ready or failed: read the page again (once), so the row shows its size, rehearsal and actions.
  useEffect(() => {
    if (!finished || reread.current) return;
    reread.current = true;
    revalidator.revalidate();
  }, [finished, revalidator]);
  return <ProgressBar state={state} label={label} />;
}
