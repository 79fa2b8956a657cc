// What the activity log's rows are about, in words, and its location filter's organization-wide
// choice: browser-safe, for the screen's filters.
import { CATALOGUE_ENTITIES as CATALOGUE_ENTITY_NAMES } from "../../db/schema/activity/actions";

/** What each entity is called in the filter: the things the activity log's rows are about. */
export const ENTITY_LABELS = {
  item: "Vials",
  receipt: "Receipts",
  product: "Products",
  variation: "Variations",
  vendor: "Vendors",
  service: "Services",
  lot_recall: "Lot recalls",
  location: "Locations",
  user: "Users",
  session: "Sign-ins and sign-outs",
  printer_profile: "Printer profiles",
  backup: "Backups",
  transfer: "Transfers",
  audit_session: "Cycle counts",
  purchase_order: "Purchase orders",
  import_job: "Imports",
  sale_item: "Sold items",
  offline_flag: "Flagged records",
} as const;
export type ActivityEntity = keyof typeof ENTITY_LABELS;

/** Rows with no location a location's admin or manager sees: the catalogue every location uses (ADR 0027). */
export const CATALOGUE_ENTITIES: readonly ActivityEntity[] = CATALOGUE_ENTITY_NAMES;

/** The location filter's choice for rows filed at no location (organization mode only). */
export const NO_LOCATION = "none";

/**
 * What is always filed at a location (a vial, a receipt, a printer profile, a location itself):
 * a filter on one of these, or on an action on one, never matches a row filed at no location.
 */
export const LOCATED_ENTITIES: readonly ActivityEntity[] = [
  "item",
  "receipt",
  "printer_profile",
  "location",
  "transfer",
  "audit_session",
  "purchase_order",
  "offline_flag",
];

/** How many users a name search offers to choose from; past it, the search is to be narrowed. */
export const USER_CHOICES = 20;
