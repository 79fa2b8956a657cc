// Plain values the vendor pages render, apart from the zod schemas (see app/users/constants.ts).

export const VENDORS_PAGE_SIZE = 25;
/** How many of a vendor's products its page lists (the count covers them all). */
export const VENDOR_PRODUCTS_SHOWN = 25;
export const LEAD_TIME_MAX_DAYS = 365;

/** The fields of the vendor form, in the order the form and activity summaries list them. */
export const VENDOR_FIELDS = [
  "name",
  "accountNumber",
  "contactName",
  "email",
  "phone",
  "leadTimeDays",
  "notes",
] as const;

export const VENDOR_STATUS_FILTERS = ["active", "archived", "all"] as const;
export type VendorStatusFilter = (typeof VENDOR_STATUS_FILTERS)[number];
export const VENDOR_STATUS_LABELS: Record<VendorStatusFilter, string> = {
  active: "Active",
  archived: "Archived",
  all: "All",
};

export const VENDOR_INTENTS = ["update", "archive", "restore"] as const;
export type VendorIntent = (typeof VENDOR_INTENTS)[number];
