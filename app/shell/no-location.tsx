// What a signed-in person with no location (and no organization role) sees at every screen: their
// account works, but everything in the product happens at a location, so an administrator must add
// them to one first. Said once, by the shell (a 403 its boundary draws with the sidebar), instead
// of a menu whose every link is refused.
import { Link } from "@remix-run/react";
import type { Scope } from "~/access/location-choice.server";
import type { CurrentUser } from "~/auth/user";
import { Card, LINK_BUTTON } from "~/ui/form";
import { SignOutForm } from "./sidebar";

/** What the shell's loader throws for such a person: enough to draw the shell around the screen. */
export interface NoLocation {
  noLocation: { user: CurrentUser; scope: Scope };
}

export function isNoLocation(value: unknown): value is NoLocation {
  return typeof value === "object" && value !== null && "noLocation" in value;
}

export const NO_LOCATION_TITLE = "You are not assigned to a location yet";

export function NoLocationScreen({ user }: { user: CurrentUser }) {
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-4" data-testid="no-location">
      <h1 className="font-semibold text-2xl">{NO_LOCATION_TITLE}</h1>
      <Card title="Ask an administrator to add you to a location">
        <div className="flex flex-col gap-3 text-slate-700">
          <p>
            Signed in as{" "}
            <strong data-testid="signed-in-user">
              {user.firstName} {user.lastName}
            </strong>{" "}
            <span className="text-slate-600">({user.email})</span>.
          </p>
          <p>
            Your account works, but stock, receiving and labels are kept per location, and you have none yet. An
            administrator must add you to a location: ask them to open Users, find {user.email} and give you a role at
            your clinic's location. Then open this page again to start.
          </p>
          <div className="flex flex-wrap items-center gap-3 pt-1">
            <Link to="/change-password" className={LINK_BUTTON}>
              Change password
            </Link>
            <SignOutForm label="Sign out" />
          </div>
        </div>
      </Card>
    </div>
  );
}
