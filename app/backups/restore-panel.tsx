// The restore's confirmation, asked before anything happens: which snapshot, what will be lost
// (everything recorded since it was made), that everyone is signed out, and the organization's
// name typed to confirm. A plain form: it works before JavaScript.
import { Form, Link } from "@remix-run/react";
import { type ShownInstant, Time } from "~/ui/dates";
import { Button, Field, FormAlert } from "~/ui/form";
import { BACKUPS_PATH, restorePath } from "./links";

export function RestorePanel({
  backupId,
  madeAt,
  uploadedAt,
  madeBy,
  organizationName,
  idempotencyKey,
  error,
  fieldError,
  typed,
}: {
  backupId: string;
  /** When its rows were frozen; null for an upload not checked yet (its file says). */
  madeAt: ShownInstant | null;
  /** When it was uploaded, for an upload. */
  uploadedAt: ShownInstant | null;
  madeBy: string;
  organizationName: string;
  idempotencyKey: string;
  error?: string | null;
  fieldError?: string;
  typed?: string;
}) {
  return (
    <section
      id="restore"
      aria-labelledby="restore-title"
      className="flex flex-col gap-3 rounded-lg border-2 border-red-300 bg-white p-4 shadow-sm"
    >
      <h2 id="restore-title" className="font-semibold text-lg text-red-800">
        {madeAt ? (
          <>
            Restore {uploadedAt ? "the uploaded snapshot" : "the snapshot"} of <Time at={madeAt} />?
          </>
        ) : (
          <>
            Restore the snapshot uploaded <Time at={uploadedAt} />?
          </>
        )}
      </h2>
      <p className="text-sm">
        {madeBy}. Before anything changes, the file is checked (its manifest, every checksum and its schema version); a
        damaged or foreign file is refused and nothing changes.
      </p>
      <ul className="list-disc space-y-1 pl-5 text-red-900 text-sm">
        <li>
          Everything recorded since{" "}
          {madeAt ? <Time at={madeAt} /> : "the snapshot was taken (the file says when; it is checked first)"} is lost,
          at every location: vials received, opened or discarded, usage, counts, products, vendors, users and settings
          go back to how they were then.
        </li>
        <li>Everyone is signed out when the restore finishes, you included: sign in again afterwards.</li>
        <li>The restore itself is kept in the activity log, and so are the backups made after this snapshot.</li>
      </ul>
      <FormAlert message={error} />
      <Form method="post" action={restorePath(backupId)} className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="restore" />
        <input type="hidden" name="backupId" value={backupId} />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <Field
          label={`Type the organization's name, ${organizationName}, to confirm`}
          name="organizationName"
          autoComplete="off"
          defaultValue={typed}
          error={fieldError}
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button tone="danger">Restore this snapshot</Button>
          <Link to={BACKUPS_PATH} className="font-medium text-sky-800 text-sm hover:underline">
            Cancel
          </Link>
        </div>
      </Form>
    </section>
  );
}
