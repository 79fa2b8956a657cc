// Shared SQL of the vendor verbs: the name rule (unique per organization, ignoring case) and the
// name clash the unique index backs it up with.
import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { constraintFailed, organizationOf } from "~/db/sql.server";

/**
 * Whether another vendor of the organization already has this name, in any case ("Allergan" and
 * "ALLERGAN" are one supplier). Part of the write's own condition, so two saves cannot race past it.
 */
export function nameTaken(actor: Actor, name: string, exceptId: string | null = null): SQL {
  return sql`EXISTS (SELECT 1 FROM vendors AS other
    WHERE other.organization_id = ${organizationOf(actor)} AND lower(other.name) = lower(${name})
      ${exceptId ? sql`AND other.id <> ${exceptId}` : sql``})`;
}

/** The unique index on (organization, name) backs the rule up for names typed in the same case. */
export function isNameClash(error: unknown): boolean {
  return constraintFailed(error, /vendors\.organization_id, vendors\.name|vendors\.name/);
}
