// The top of every screen of one record (a location, vendor, service, printer profile, product,
// user): the link back to its list, its name, whether it is active or archived, and a line or two
// about it. One component, so a new record screen (a transfer, a count, an order) looks the same
// and the back link and heading stay the ones the browser tests find.
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { StatusBadge } from "~/ui/form";

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
