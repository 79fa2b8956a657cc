// /backup-restore: the organization's snapshots, newest first by keyset (READ_BACKUPS to see),
// with sizes, times, who or what made each, its restore rehearsal (a failure is a red line with its
// message) and a progress bar that moves while one is written; the retention rule; and, for
// WRITE_BACKUPS, "Back up now". Organization admins also download, upload and restore: a snapshot
// holds every location's records and every user's sign-in details. A restore asks first: what will
// be lost, and the organization's name typed. Anyone else sees why the actions are not theirs.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { timeZoneHere } from "~/access/actor";
import { actorHere } from "~/access/door.server";
import { can, isOrganizationAdmin } from "~/access/permissions";
import { BackupTable, RestoreTable } from "~/backups/backup-list";
import { BACKUP_INTENT_NAMES, BACKUP_INTENTS } from "~/backups/intents.server";
import { BACKUPS_PATH } from "~/backups/links";
import { BackupListQuery, type BackupSummary, backupScreen, readBackup } from "~/backups/list.server";
import { RestorePanel } from "~/backups/restore-panel";
import { retentionRule } from "~/backups/retention.server";
import { UploadForm } from "~/backups/upload-form";
import { madeBySentence, restorable } from "~/backups/words";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { intentOf } from "~/http/outcome.server";
import { area } from "~/shell/areas";
import { showInstant } from "~/ui/dates";
import { Button, Card, FormAlert } from "~/ui/form";
import { cursorLinks, Pagination } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Backup & Restore · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/backup-restore").permission);
  const searchParams = new URL(args.request.url).searchParams;
  const query = BackupListQuery.parse(Object.fromEntries(searchParams));
  const screen = await orOutage(backupScreen(args.context.db, actor, query));
  const organizationAdmin = isOrganizationAdmin(actor);
  const timeZone = timeZoneHere(actor);
  const now = new Date();
  const at = (iso: string | null) => showInstant(iso, timeZone, now);
  const shown = (b: BackupSummary) => ({
    ...b,
    requestedAt: at(b.requestedAt),
    takenAt: at(b.takenAt),
    finishedAt: at(b.finishedAt),
    rehearsedAt: at(b.rehearsal.at),
  });
  // The snapshot a restore was asked for (?restore=): on this page, else read on its own.
  const asked = organizationAdmin ? searchParams.get("restore") : null;
  const target = asked
    ? (screen.items.find((b) => b.id === asked) ?? (await orOutage(readBackup(args.context.db, actor, asked))))
    : null;
  return {
    backups: screen.items.map(shown),
    total: screen.total,
    totalExact: screen.totalExact,
    ...cursorLinks(BACKUPS_PATH, {}, screen),
    restores: screen.restores.map((r) => ({
      ...r,
      requestedAt: at(r.requestedAt),
      finishedAt: at(r.finishedAt),
      backupRequestedAt: at(r.backupRequestedAt),
    })),
    busy: screen.items.some((b) => b.status === "queued" || b.status === "writing"),
    restoring: screen.restores.some((r) => ["queued", "checking", "staging", "switching"].includes(r.status)),
    canBackUp: can(actor, "WRITE_BACKUPS", actor.locationId),
    organizationAdmin,
    organizationName: organizationAdmin ? screen.organizationName : "",
    restoreTarget:
      target && restorable(target)
        ? {
            id: target.id,
            // What is lost is everything since the rows were frozen: an upload's own time, once read.
            madeAt: at(target.takenAt ?? (target.origin === "upload" ? null : target.requestedAt)),
            uploadedAt: target.origin === "upload" ? at(target.requestedAt) : null,
            madeBy: madeBySentence(target.origin, target.requestedBy),
          }
        : null,
    restoreUnavailable: Boolean(asked) && !(target && restorable(target)),
    keys: { backup: newIdempotencyKey(), restore: newIdempotencyKey() },
    retentionRule,
  };
}

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_BACKUPS");
  const form = Object.fromEntries(await args.request.formData());
  const intent = intentOf(form, BACKUP_INTENT_NAMES);
  return BACKUP_INTENTS[intent](args.context.db, actor, form);
}

const LINK = "font-medium text-sky-800 hover:underline";

export default function BackupRestoreScreen() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { backups, restores, canBackUp, organizationAdmin, busy, restoreTarget } = data;
  const backupError = answer && "intent" in answer && answer.intent === "backup" ? answer.formError : null;
  const restoreAnswer = answer && "intent" in answer && answer.intent === "restore" ? answer : null;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="font-semibold text-2xl">Backup &amp; Restore</h1>
        <p className="text-slate-600 text-sm">
          Snapshots of the whole organization's records (every location), kept in storage and checked by restoring each
          nightly one into a scratch copy. Restoring one brings every location back to how it was then.
        </p>
      </div>

      {restoreTarget && (
        <RestorePanel
          backupId={restoreTarget.id}
          madeAt={restoreTarget.madeAt}
          uploadedAt={restoreTarget.uploadedAt}
          madeBy={restoreTarget.madeBy}
          organizationName={data.organizationName}
          idempotencyKey={data.keys.restore}
          error={restoreAnswer?.formError}
          fieldError={restoreAnswer?.fieldErrors.organizationName}
          typed={restoreAnswer?.typed ?? undefined}
        />
      )}
      {data.restoreUnavailable && (
        <FormAlert message="That snapshot cannot be restored: it is not ready, was deleted, or failed its restore rehearsal. Choose a ready one below." />
      )}

      <Card title="Back up now">
        {canBackUp ? (
          <Form method="post" action={BACKUPS_PATH} className="flex flex-col gap-3">
            <input type="hidden" name="intent" value="backup" />
            <input type="hidden" name="idempotencyKey" value={data.keys.backup} />
            <p className="text-slate-600 text-sm">
              Writes a snapshot of every location's records now, in the background; you can leave this page. One
              snapshot is written at a time.
            </p>
            <FormAlert message={backupError} />
            {busy && (
              <p className="text-slate-700 text-sm">A backup is being made now: its progress is in the list below.</p>
            )}
            <div>
              <Button disabled={busy}>Back up now</Button>
            </div>
          </Form>
        ) : (
          <p className="text-slate-700 text-sm" data-testid="no-backup-actions">
            You can see the backups, but making, downloading, uploading and restoring them is for administrators: ask an
            organization admin or your location's admin.
          </p>
        )}
        {canBackUp && !organizationAdmin && (
          <p className="mt-3 text-slate-600 text-sm">
            Downloading, uploading and restoring snapshots is for organization admins: a snapshot holds every location's
            records and every user's sign-in details.
          </p>
        )}
      </Card>

      <section aria-labelledby="snapshots-title" className="flex flex-col gap-3">
        <h2 id="snapshots-title" className="font-semibold text-lg">
          Snapshots
        </h2>
        <p className="text-slate-600 text-sm" data-testid="retention-rule">
          A snapshot is made every night at 03:00 UTC. {data.retentionRule}
        </p>
        {busy && (
          <p className="text-slate-700 text-sm" role="status">
            A backup is being made now; its bar moves by itself while this page is open.{" "}
            <Link to={BACKUPS_PATH} className={LINK}>
              Refresh
            </Link>{" "}
            to see how far it has got.
          </p>
        )}
        <BackupTable backups={backups} organizationAdmin={organizationAdmin} />
        <Pagination
          total={data.total}
          totalExact={data.totalExact}
          noun="backups"
          previous={data.previous}
          next={data.next}
        />
      </section>

      {organizationAdmin && <UploadForm />}

      <section aria-labelledby="restores-title" className="flex flex-col gap-3">
        <h2 id="restores-title" className="font-semibold text-lg">
          Restores
        </h2>
        {data.restoring && (
          <p className="text-slate-700 text-sm" role="status">
            A restore is under way: when it finishes, everyone is signed out.{" "}
            <Link to={BACKUPS_PATH} className={LINK}>
              Refresh
            </Link>{" "}
            to see how far it has got.
          </p>
        )}
        <RestoreTable restores={restores} />
      </section>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
