// The backup screen's actions, one small handler per intent: parse its form (./forms), call one
// backup verb, answer with the shared glue (app/http/outcome.server.ts). The route only admits
// (WRITE_BACKUPS where the user stands) and looks the handler up in BACKUP_INTENTS.
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { orOutage } from "~/http/outage.server";
import { done, invalid, refused } from "~/http/outcome.server";
import { BackupNowForm, RestoreForm } from "./forms";
import { BACKUPS_PATH } from "./links";
import { requestBackup } from "./request-backup.server";
import { requestRestore } from "./request-restore.server";

export const BACKUP_INTENT_NAMES = ["backup", "restore"] as const;
export type BackupIntent = (typeof BACKUP_INTENT_NAMES)[number];

type Handler = (db: Database, actor: ScopedActor, form: Record<string, FormDataEntryValue>) => ReturnType<typeof run>;

async function run(db: Database, actor: ScopedActor, form: Record<string, FormDataEntryValue>, intent: BackupIntent) {
  if (intent === "backup") {
    const parsed = BackupNowForm.safeParse(form);
    if (!parsed.success) return invalid(parsed.error, { intent, typed: null });
    const outcome = await orOutage(requestBackup(db, actor, parsed.data));
    if (!outcome.ok) return refused(outcome, { intent, typed: null });
    return done(
      BACKUPS_PATH,
      "Backup started",
      "The snapshot is being written in the background; its progress shows in the list.",
    );
  }
  const typed = typeof form.organizationName === "string" ? form.organizationName : "";
  const parsed = RestoreForm.safeParse(form);
  if (!parsed.success) return invalid(parsed.error, { intent, typed });
  const outcome = await orOutage(requestRestore(db, actor, parsed.data));
  if (!outcome.ok) {
    return refused(
      outcome,
      { intent, typed },
      {
        fields: { name_mismatch: "organizationName" },
        status: outcome.refusal === "organization_admins_only" ? 403 : outcome.refusal === "name_mismatch" ? 422 : 409,
      },
    );
  }
  return done(
    BACKUPS_PATH,
    "Restore queued",
    "The snapshot is checked, then switched in. Everyone, you included, is signed out when it finishes.",
  );
}

export const BACKUP_INTENTS: Record<BackupIntent, Handler> = {
  backup: (db, actor, form) => run(db, actor, form, "backup"),
  restore: (db, actor, form) => run(db, actor, form, "restore"),
};
