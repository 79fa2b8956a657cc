// A second person confirming, with their own password, that a controlled substance's units left
// are wasted (domain.md "Stock"): an active user of the vial's organization, not the actor, who
// works at the vial's location (a role there, or an organization admin). An unknown email and a
// wrong password get the same answer, and guesses count against the sign-in throttle (ADR 0011)
// on the witness's account, paired with the actor, so a witness field is no side door for guessing.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { verifyAgainstNothing, verifyPassword } from "~/auth/password.server";
import {
  admission,
  lockedMessage,
  readLocks,
  releaseAttempt,
  reserveAttempt,
  throttleKeys,
} from "~/auth/throttle.server";
import type { Database } from "~/db/client.server";
import type { Vial } from "~/stock/vials.server";
import type { Witness } from "./forms";
import { refuse, type VialRefused } from "./outcome";

export interface ConfirmedWitness {
  id: string;
  name: string;
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
  const now = new Date();
  // The "address" of the pair is the actor: one colleague guessing is stopped after a few tries.
  const keys = throttleKeys(email, `witness-for:${actor.id}`);
  const [found, reserved, locks] = await db.batch([
    db.all<{ id: string; name: string; passwordHash: string; eligible: number }>(sql`SELECT u.id,
        u.first_name || ' ' || u.last_name AS name, u.password_hash AS passwordHash,
        (u.active = 1 AND u.id <> ${actor.id} AND u.organization_id = loc.organization_id
          AND (u.organization_role = 'ORGANIZATION_ADMIN'
            OR EXISTS (SELECT 1 FROM user_location_roles AS r WHERE r.user_id = u.id AND r.location_id = loc.id))) AS eligible
      FROM users AS u, locations AS loc WHERE u.email = ${email} AND loc.id = ${vial.locationId}`),
    reserveAttempt(db, keys, now),
    readLocks(db, keys),
  ]);
  const attempt = admission(keys, reserved, locks, now);
  if (!attempt.admitted) return refuse("witness_invalid", lockedMessage(attempt.lockedForMs));
  const user = found[0];
  const passwordOk = user
    ? await verifyPassword(witness.password, user.passwordHash)
    : await verifyAgainstNothing(witness.password);
  if (!user || !passwordOk) return refuse("witness_invalid");
  // The password was right: the attempt is given back, whether or not this person may witness here.
  await db.batch(releaseAttempt(db, keys));
  if (!user.eligible) return refuse("witness_invalid");
  return { id: user.id, name: user.name };
}

export function isWitness(value: ConfirmedWitness | VialRefused): value is ConfirmedWitness {
  return !("ok" in value);
}
