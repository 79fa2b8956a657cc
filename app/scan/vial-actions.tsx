// What the person may do with a scanned vial now: the vial page's own forms (app/vials/vial-forms),
// offered by the rules of app/vials/rules (the same the verbs check) to a user with WRITE_INVENTORY
// at its location, and posted to the scan screen's action, which answers back to this scan result.
// Plain forms, rendered by the server with the card, so they work before JavaScript loads; where
// start and draw are not offered, the rules' reason is said (a recall by the card's own banner).
import { can } from "~/access/permissions";
import { useCurrentUser } from "~/access/viewer-context";
import type { VialIntent, VialProblem } from "~/vials/actions";
import { closedReason, openActions, unitsText } from "~/vials/rules";
import { VialForms } from "~/vials/vial-forms";
import type { VialData } from "./vial-card";

export interface ServiceChoice {
  id: string;
  name: string;
}

/** The scan result a vial form posts to and comes back to. */
export const scanPath = (code: string) => `/scan?code=${encodeURIComponent(code)}`;

export function VialActions({
  vial,
  code,
  now,
  services,
  keys,
  problem,
  hidden,
}: {
  vial: VialData;
  /** The code scanned: the forms come back to its result. */
  code: string;
  /** The loader's instant, so the actions offered are the ones the server rendered. */
  now: string;
  services: readonly ServiceChoice[];
  keys: Record<VialIntent, string>;
  /** What the last post of one of these forms came back with (`offline`: asked on the device). */
  problem: (VialProblem & { offline?: boolean }) | undefined;
  /** More hidden fields for every form (what the route's offline queue needs to save it on the device). */
  hidden?: Record<string, string>;
}) {
  const user = useCurrentUser();
  if (!can(user, "WRITE_INVENTORY", vial.locationId)) return null;
  const at = new Date(now);
  const facts = { ...vial, expiresAt: vial.expiresAt ? new Date(vial.expiresAt) : null };
  const closed = closedReason(facts, at, vial.location.timeZone);
  const back = scanPath(code);
  const actions = openActions(facts, at);
  const mine = problem?.typed.itemId === vial.id ? problem : undefined;
  return (
    <VialForms
      compact
      // Offline, a witness is not asked (a password is never kept on the device): the question says so.
      actions={mine?.offline ? { ...actions, witness: false } : actions}
      keys={keys}
      services={services}
      unit={vial.baseUnit}
      unitsLeft={unitsText(vial, vial.unitsRemaining)}
      // Another vial's answer (a code scanned since) is not this one's.
      problem={mine}
      // The card says a recall in its red banner already.
      closed={closed && closed.refusal !== "recalled" ? closed.message : null}
      discardAs={closed?.discardAs}
      action={back}
      hidden={{ ...hidden, itemId: vial.id }}
      cancelTo={back}
    />
  );
}
