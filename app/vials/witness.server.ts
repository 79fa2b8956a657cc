// A second person confirming, with their own password, that a controlled substance's units left
// are wasted (domain.md "Stock"): another active user of the vial's organization who works at the
// vial's location (a role there, or an organization admin) and chose their own password. An
// account still on a password an administrator set or reset (`must_change_password`, cleared only
// by its owner's own change) cannot witness: its password is known to someone else, who could be
// the actor. An unknown email and a wrong password get the same answer; only once the password
// was right does a refusal say why. Wrong guesses are throttled per actor and witness (ADR 0011):
// they stop that colleague guessing, and never lock the witness out of signing in.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { checkPasswordThrottled, lockedMessage, witnessKeys } from "~/auth/throttle.server";
import type { Database } from "~/db/client.server";
import type { Vial } from "~/stock/vials.server";
import type { Witness } from "./forms";
import { refuse, type VialRefused } from "./outcome";

export interface ConfirmedWitness {
  id: string;
  name: string;
}

/** Why a witness whose password was right cannot witness here. */
export const WITNESS_MESSAGES = {
  yourself:
    "A witness cannot be yourself: ask a colleague who works here to confirm with their own email and password.",
  inactive: (name: string) => `${name}'s account is deactivated: ask another colleague.`,
  mustChoose: (name: string) =>
    `${name} must choose their own password before witnessing: ask them to sign in and change it.`,
  elsewhere: (name: string, location: string) => `${name} does not work at ${location}.`,
};

interface Candidate {
  id: string;
  name: string;
  passwordHash: string;
  active: number;
  mustChangePassword: number;
  worksHere: number;
  location: string;
}

/** The witness confirmed, or the refusal: witness_required (none given) or witness_invalid. */
export async function confirmWitness(
  db: Database,
  actor: ScopedActor,
  vial: Pick<Vial, "locationId">,
  witness: Witness | null | undefined,
): Promise<ConfirmedWitness | VialRefused> {
  if (!witness) return refuse("witness_required");
  const email = witness.email.trim().toLowerCase();
  const keys = witnessKeys(email, actor.id);
  const check = await checkPasswordThrottled(db, keys, {
    password: witness.password,
    // Another organization's account is as unknown here as an email nobody has.
    read: () =>
      [
        db.all<Candidate>(sql`SELECT u.id, u.first_name || ' ' || u.last_name AS name,
          u.password_hash AS passwordHash, u.active, u.must_change_password AS mustChangePassword,
          (u.organization_role = 'ORGANIZATION_ADMIN'
            OR EXISTS (SELECT 1 FROM user_location_roles AS r WHERE r.user_id = u.id AND r.location_id = loc.id)) AS worksHere,
          loc.name AS location
        FROM users AS u JOIN locations AS loc ON loc.organization_id = u.organization_id
        WHERE u.email = ${email} AND loc.id = ${vial.locationId}`),
      ] as const,
    hashOf: ([found]) => found[0]?.passwordHash ?? null,
    // A wrong witness is answered at once: the lock alone bounds a colleague's guesses.
    sleep: null,
  });
  if (check.password === "locked") return refuse("witness_invalid", lockedMessage(check.lockedForMs));
  const user = check.found[0][0];
  if (check.password !== "right" || !user) return refuse("witness_invalid");
  // The password was right: the attempt is given back, whether or not this person may witness here.
  await db.batch(check.release);
  if (user.id === actor.id) return refuse("witness_invalid", WITNESS_MESSAGES.yourself);
  if (!user.active) return refuse("witness_invalid", WITNESS_MESSAGES.inactive(user.name));
  if (user.mustChangePassword) return refuse("witness_invalid", WITNESS_MESSAGES.mustChoose(user.name));
  if (!user.worksHere) return refuse("witness_invalid", WITNESS_MESSAGES.elsewhere(user.name, user.location));
  return { id: user.id, name: user.name };
}

export function isWitness(value: ConfirmedWitness | VialRefused): value is ConfirmedWitness {
  return !("ok" in value);
}
