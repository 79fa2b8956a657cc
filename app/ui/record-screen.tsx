// The parts every screen of one record (a location, vendor, service, printer profile, product,
// user) shares: its header (the link back to its list, its name, active or archived, a line or two
// about it) and its details form (Save changes, under optimistic concurrency where the record has a
// version). The archive card is ArchiveCard (ui/form.tsx), the 404 recordErrorBoundary. So a new
// record screen (a transfer, a count, an order) looks and answers the same, and the back link,
// heading and buttons stay the ones the browser tests find.
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button, FormAlert, StatusBadge } from "~/ui/form";

/** "← Products": back to the list (or the screen) a record screen was reached from. */
export function BackLink({ to, label }: { to: string; label: ReactNode }) {
  return (
    <Link to={to} className="text-sky-800 text-sm hover:underline">
      ← {label}
    </Link>
  );
}

export function RecordHeader({
  back,
  title,
  active,
  statusLabels = ["Active", "Archived"],
  tags,
  badges,
  children,
}: {
  back: { to: string; label: string };
  title: ReactNode;
  /** Archived records (deactivated users) stay visible: the badge says which they are. */
  active: boolean;
  statusLabels?: [string, string];
  /** Beside the name, before the status: a code, "Default". */
  tags?: ReactNode;
  /** After the status: "Controlled", "ORG ADMIN". */
  badges?: ReactNode;
  /** The lines under the heading. */
  children?: ReactNode;
}) {
  return (
    <div>
      <BackLink to={back.to} label={back.label} />
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="font-semibold text-2xl">{title}</h1>
        {tags}
        <StatusBadge active={active} labels={statusLabels} />
        {badges}
      </div>
      {children}
    </div>
  );
}

/**
 * The Details card's form: posts intent "update". With `version` (records saved under optimistic
 * concurrency) it sends the version it shows, and a new version (saved here or by someone else)
 * remounts the form, so it shows the current values.
 */
export function DetailsForm({
  version,
  formError,
  busy,
  children,
}: {
  version?: number;
  formError?: string | null;
  busy: boolean;
  children: ReactNode;
}) {
  return (
    <Form key={version} method="post" className="flex flex-col gap-4" noValidate>
      <FormAlert message={formError} />
      {version !== undefined && <input type="hidden" name="version" value={version} />}
      {children}
      <div>
        <Button name="intent" value="update" disabled={busy}>
          Save changes
        </Button>
      </div>
    </Form>
  );
}
