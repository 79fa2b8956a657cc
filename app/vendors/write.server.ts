// Shared SQL of the vendor verbs: the name rule (unique per organization, ignoring case) and the
// shape vendor fields take in activity summaries (as the catalogue's: only what changed).
import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { constraintFailed, organizationOf } from "~/db/sql.server";
import type { VendorInput } from "./forms";

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

/** Summary key → column of every field the vendor form sets. */
export const VENDOR_COLUMNS = {
  name: "name",
  accountNumber: "account_number",
  contactName: "contact_name",
  email: "email",
  phone: "phone",
  leadTimeDays: "lead_time_days",
  notes: "notes",
} as const satisfies Record<keyof VendorInput, string>;
const KEYS = Object.keys(VENDOR_COLUMNS) as (keyof VendorInput)[];
const column = (key: keyof VendorInput) => sql.identifier(VENDOR_COLUMNS[key]);

/** The vendor's fields as a JSON object, read from the `vendors` row of the statement. */
export const VENDOR_JSON = sql`json_object(${sql.join(
  KEYS.map((k) => sql`${k}, ${column(k)}`),
  sql`, `,
)})`;

/** Whether the `vendors` row of the statement differs from `values` in any field. */
export function differsFrom(values: VendorInput): SQL {
  return sql`(${sql.join(
    KEYS.map((k) => sql`${column(k)} IS NOT ${values[k]}`),
    sql` OR `,
  )})`;
}

/**
 * `before`/`after` objects holding only the fields that change: json_remove drops each unchanged
 * key (and ignores the made-up path it gets for a changed one).
 */
export function changedFields(values: VendorInput): { before: SQL; after: SQL } {
  const paths = sql.join(
    KEYS.map((k) => sql`CASE WHEN ${column(k)} IS NOT ${values[k]} THEN '$.__changed' ELSE ${`$.${k}`} END`),
    sql`, `,
  );
  const after = Object.fromEntries(KEYS.map((k) => [k, values[k]]));
  return {
    before: sql`json_remove(${VENDOR_JSON}, ${paths})`,
    after: sql`json_remove(json(${JSON.stringify(after)}), ${paths})`,
  };
}
