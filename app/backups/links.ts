// Where the backup screen and its files live (browser-safe: pages and actions link with these).
export const BACKUPS_PATH = "/backup-restore";

/** The snapshot's file, streamed from storage (organization admins). */
export const downloadPath = (backupId: string) => `${BACKUPS_PATH}/${encodeURIComponent(backupId)}/download`;

/** The screen asking to confirm the restore of this snapshot. */
export const restorePath = (backupId: string) => `${BACKUPS_PATH}?restore=${encodeURIComponent(backupId)}`;
