// Where a snapshot file lives in the FILES bucket. One key per backup row, chosen when the row is
// made (by the jobs worker for the schedule, by the backup screen for "Back up now" or an upload).

/** The R2 key of backup `id`'s snapshot file: gzip members of JSON lines, see ADR 0028. */
export function backupKey(id: string): string {
  return `backups/${id}.jsonl.gz`;
}
