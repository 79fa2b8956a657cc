// The purchasing screens' words and limits, browser-safe (no database code): what the list and an
// order's page say about a status, how long a note or a reason may be, and where an order lives.
import type { PurchaseOrderStatus } from "../../db/schema/purchasing/constants";

export {
  MAX_PACKAGES_A_LINE,
  MAX_UNIT_COST_CENTS,
  ON_ORDER_STATUSES,
  PURCHASE_ORDER_STATUSES,
} from "../../db/schema/purchasing/constants";
export type { PurchaseOrderStatus };

/** A note for the vendor, in characters. */
export const NOTE_MAX = 500;
/** A reason (a revision, a cancel, a close with lines outstanding), in characters. */
export const REASON_MAX = 500;
/** The vendor's SKU for a line, in characters. */
export const VENDOR_SKU_MAX = 64;
/** One order carries at most this many lines. */
export const ORDER_LINES_MAX = 200;
/** The list shows this many orders a page. */
export const ORDERS_PAGE_SIZE = 25;
/** The add-items search shows at most this many variations. */
export const ADD_ITEMS_LIMIT = 40;

export const PURCHASE_ORDER_STATUS_LABELS: Record<PurchaseOrderStatus, string> = {
  draft: "Draft",
  submitted: "Submitted",
  partially_received: "Partly received",
  received: "Received",
  closed: "Closed",
  cancelled: "Cancelled",
};

/** Orders still being worked on: a draft, or sent and waiting for what is outstanding. */
export const OPEN_STATUSES = ["draft", "submitted", "partially_received", "received"] as const;

export const purchaseOrderPath = (id: string) => `/purchase-orders/${id}`;
export const addItemsPath = (id: string) => `/purchase-orders/${id}/add-items`;
export const linesCsvPath = (id: string) => `/purchase-orders/${id}/lines.csv`;

export const PURCHASING_MESSAGES = {
  location: "Choose a location.",
  vendor: "Choose a vendor.",
  variation: "Choose a product variation.",
  line: "Choose a line.",
  packages: "Enter a whole number of packages, from 1 to 10,000.",
  unitCost: "Enter the cost of one package in dollars and cents, from $0.00 to $1,000,000.00.",
  unitCostCents: "Send unitCostCents as a whole number of cents, from 0 to 100000000.",
  vendorSku: `Keep the vendor's SKU under ${VENDOR_SKU_MAX} characters.`,
  expectedOn: "Enter the expected date as YYYY-MM-DD.",
  note: `Keep the note under ${NOTE_MAX} characters.`,
  reason: `Give a reason of at most ${REASON_MAX} characters.`,
  reasonNeeded: "Say why (the vendor and the clinic see the reason in the order's history).",
  lines: "Add at least one line.",
  tooManyLines: `An order holds at most ${ORDER_LINES_MAX} lines.`,
  pairs: "Each product needs its number of packages.",
  nothingToRevise: "Change a line's packages or cost, add a line or remove one: nothing was changed.",
  version: "Reload the page: the order's version is missing.",
} as const;
