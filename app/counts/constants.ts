// The cycle counts' words and limits, browser-safe: the screens, the forms and the verbs share them.
import type { AuditStatus } from "../../db/schema/counts/constants";

export { AUDIT_SCOPES, AUDIT_STATUSES, type AuditScope, type AuditStatus } from "../../db/schema/counts/constants";

/** A reviewer's note when sending a count back: required, at most this long. */
export const NOTE_MAX = 500;
/** A category name, as the catalogue keeps it. */
export const CATEGORY_MAX = 100;
/** At most this many products chosen for one count. */
export const SCOPE_PRODUCTS_MAX = 200;
/** Longest quantity text read: more digits than any shelf holds is a typo. */
export const QUANTITY_TEXT_MAX = 20;
/** Sessions a page of the review list shows. */
export const SESSIONS_PAGE_SIZE = 25;

export const STATUS_LABELS: Record<AuditStatus, string> = {
  in_progress: "Counting",
  submitted: "Waiting for review",
  approved: "Approved",
  rejected: "Sent back",
};

export const COUNT_MESSAGES = {
  location: "Choose a location to count.",
  scope:
    'Choose what to count: {"kind":"all"}, {"kind":"category","category":...} or {"kind":"products","productIds":[...]}.',
  category: `Choose a category to count (at most ${CATEGORY_MAX} characters).`,
  products: `Choose the products to count: from 1 to ${SCOPE_PRODUCTS_MAX}.`,
  labelCode: "Scan or type the vial's label code.",
  variation: "Choose the product and size counted.",
  lot: "A lot has at most 40 characters.",
  quantity: "Enter the quantity counted as a number, zero or more, e.g. 12 or 2.5.",
  quantityScale: (decimals: number, unit: string) =>
    decimals === 0
      ? `Enter the quantity counted as a whole number of ${unit}, zero or more.`
      : `Enter the quantity counted in ${unit}, zero or more, with at most ${decimals} decimal${decimals === 1 ? "" : "s"}.`,
  unitsLeft: "Enter the units left in this vial as a number, zero or more, e.g. 40 or 0.5.",
  note: `Say in the note what to recount (at most ${NOTE_MAX} characters).`,
  countOrScan: "Scan a vial's label, or choose a product and size with a quantity.",
} as const;

export const auditPath = (id: string) => `/admin/audits/${id}`;
