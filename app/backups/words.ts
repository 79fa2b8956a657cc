// How the backup screen words a snapshot's facts (browser-safe, no server code).
import type { BackupOrigin, BackupStatus, RehearsalStatus, RestoreStatus } from "../../db/schema/backups/constants";

/** Bytes as people read them: "812 B", "14.2 KB", "3.1 MB", "1.25 GB" (powers of 1,000, as storage bills). */
export function sizeText(bytes: number | null): string {
  if (bytes === null) return "—";
  if (bytes < 1000) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.5 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

/** Who or what made it. */
export function madeByText(origin: BackupOrigin, requestedBy: string | null): string {
  if (origin === "schedule") return "Nightly schedule";
  if (origin === "upload") return `Uploaded by ${requestedBy ?? "a former user"}`;
  return requestedBy ?? "A former user";
}

/** Who or what made it, as a sentence's start: "Made by Olivia Owner", "Uploaded by …", "Made by the nightly schedule". */
export function madeBySentence(origin: BackupOrigin, requestedBy: string | null): string {
  if (origin === "schedule") return "Made by the nightly schedule";
  if (origin === "upload") return `Uploaded by ${requestedBy ?? "a former user"}`;
  return `Made by ${requestedBy ?? "a former user"}`;
}

export const BACKUP_STATUS_TEXT: Record<BackupStatus, string> = {
  queued: "Queued",
  writing: "Writing",
  ready: "Ready",
  failed: "Failed",
  deleted: "Deleted (retention)",
};

export const REHEARSAL_TEXT: Record<RehearsalStatus, string> = {
  pending: "Not rehearsed yet",
  running: "Rehearsing",
  passed: "Restore rehearsed: passed",
  failed: "Restore rehearsal failed",
};

export const RESTORE_STATUS_TEXT: Record<RestoreStatus, string> = {
  queued: "Queued",
  checking: "Checking the file",
  staging: "Loading into staging",
  switching: "Switching in",
  done: "Restored",
  refused: "Refused (nothing changed)",
  failed: "Failed (nothing changed)",
};

/** A snapshot a restore can be asked for: ready, and not one whose rehearsal failed. */
export function restorable(backup: { status: BackupStatus; rehearsal: { status: RehearsalStatus | null } }): boolean {
  return backup.status === "ready" && backup.rehearsal.status !== "failed";
}
