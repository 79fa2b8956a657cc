// What an activity row says in words and what it links to: "Archived vendor Allergan" →
// /vendors/{id}, "Started vial BTX-100U lot A123" → /inventory/{itemId}. Each verb's words read
// only what that verb already puts in its summary (app/**/<verb>.server.ts); a row whose summary
// lacks a field still reads as a sentence ("Archived vendor"), never as an action code. Old rows
// (noun_verb names, before ADR 0027) read exactly as new ones. Browser-safe: the activity log, the
// dashboard's recent activity and their CSV use it alike.
import type { LocationRole } from "../../db/schema/people/location-roles";
import type { AdjustReason } from "../../db/schema/stock/constants";
import { type ActivityAction, currentAction } from "./actions";
import { ACTION_LABELS } from "./labels";

export interface ActivityRow {
  action: string;
  entity: string;
  entityId: string | null;
  summary: Record<string, unknown> | null;
  locationId: string | null;
}

export interface ActivityWords {
  /** What happened, as a sentence without its full stop. */
  text: string;
  /** Where the thing it is about lives in the app, or null when it has no page. */
  href: string | null;
}

type Summary = Record<string, unknown>;

interface Verb {
  /** The row in words; the action's name in words (./labels) is the fallback. */
  text?: (s: Summary, row: ActivityRow) => string | null;
  href?: (s: Summary, row: ActivityRow) => string | null;
}

/** A summary's text field, trimmed; null when absent or not text. */
function str(s: Summary, key: string): string | null {
  const value = s[key];
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

function num(s: Summary, key: string): number | null {
  const value = s[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function obj(value: unknown): Summary | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Summary) : null;
}

/** Words joined with single spaces, the missing ones left out. */
function words(...parts: (string | null | undefined | false)[]): string {
  return parts.filter((p): p is string => typeof p === "string" && p !== "").join(" ");
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A summary field's name in words: "costCents" → "cost", "defaultVendorId" → "default vendor". */
const FIELD_WORDS: Record<string, string> = {
  costCents: "cost",
  priceCents: "price",
  defaultVendorId: "default vendor",
  beyondUseHours: "beyond-use time",
  unitScale: "scale",
  unitsPerPackage: "units per package",
  reorderPoint: "reorder point",
  isDefault: "default",
  gtin: "GTIN",
  sku: "SKU",
  zplDelivery: "ZPL delivery",
  widthTenthMm: "width",
  heightTenthMm: "height",
  gapTenthMm: "gap",
  dpi: "DPI",
  timezone: "time zone",
};

export function fieldWords(key: string): string {
  return FIELD_WORDS[key] ?? key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
}

/** ": price, par" for an edit's summary, naming the fields that changed (before/after keys). */
function changedFields(s: Summary): string {
  const keys = new Set([...Object.keys(obj(s.before) ?? {}), ...Object.keys(obj(s.after) ?? {})]);
  return keys.size > 0 ? `: ${[...keys].map(fieldWords).join(", ")}` : "";
}

/** "Botox 100U": a product and its variation as the summary names them. */
function item(s: Summary, product = "product", variation = "variation"): string | null {
  return words(str(s, product), str(s, variation)) || null;
}

function lot(s: Summary): string | null {
  const l = str(s, "lot");
  return l ? `lot ${l}` : null;
}

/**
 * A quantity stored in base units at the product's scale (10, 100, 1000 parts of the unit), in
 * digits: 150 at 100 → "1.5". The catalogue's formatter says the same; the activity log stands
 * below the catalogue (which records activity), so it keeps this one line of its own.
 */
function scaled(value: number, scale: number): string {
  const decimals = { 1: 0, 10: 1, 100: 2, 1000: 3 }[scale] ?? 0;
  const digits = String(Math.abs(Math.trunc(value))).padStart(decimals + 1, "0");
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${value < 0 ? "-" : ""}${digits.slice(0, digits.length - decimals)}${fraction ? `.${fraction}` : ""}`;
}

const ADJUST_REASONS: Record<AdjustReason, string> = {
  count_correction: "count correction",
  damaged: "damaged",
  expired: "expired",
  donated: "donated",
  other: "other",
};

const VIAL_REASONS: Record<string, string> = {
  expired: "expired",
  contaminated: "contaminated",
  damaged: "damaged",
  recalled: "recalled",
  other: "other",
  beyond_use_deadline: "past its beyond-use deadline",
  lost_in_transit: "lost in transit",
  missing_in_count: "missing in a count",
};

const ROLE_WORDS: Record<LocationRole, string> = { ADMIN: "admin", MANAGER: "manager", STAFF: "staff" };

function role(value: unknown): string | null {
  return typeof value === "string" ? (ROLE_WORDS[value as LocationRole] ?? value.toLowerCase()) : null;
}

const by = (path: string) => (_s: Summary, row: ActivityRow) => (row.entityId ? `${path}/${row.entityId}` : null);
const product = by("/products");
const vendor = by("/vendors");
const vial = by("/inventory");
const user = by("/users");
const location = by("/locations");
const service = by("/services");
const printer = by("/printer-settings");
const receipt = (_s: Summary, row: ActivityRow) => (row.entityId ? `/receiving/${row.entityId}/add-products` : null);
/** A variation's rows link to its product, which their summaries name. */
const ofProduct = (s: Summary) => {
  const id = str(s, "productId");
  return id ? `/products/${id}` : null;
};
const recallReport = (s: Summary) => {
  const variationId = str(s, "variationId");
  const l = str(s, "lot");
  return variationId && l ? `/recalls/report?${new URLSearchParams({ variationId, lot: l })}` : "/recalls";
};
const backups = () => "/backup-restore";
const transfer = by("/transfers");
const order = by("/purchase-orders");

/** "from DTN to WST", from a transfer's summary. */
function route(s: Summary): string | null {
  const [from, to] = [str(s, "from"), str(s, "to")];
  return from || to ? words(from && `from ${from}`, to && `to ${to}`) : null;
}

/** "(3 vials, 1 bulk line)", from a transfer's summary. */
function contents(s: Summary): string | null {
  const [vials, lines] = [num(s, "vials"), num(s, "lines")];
  const parts = [
    vials !== null && vials > 0 && plural(vials, "vial"),
    lines !== null && lines > 0 && plural(lines, "bulk line"),
  ];
  const shown = parts.filter((p): p is string => typeof p === "string");
  return shown.length ? `(${shown.join(", ")})` : null;
}

/** "at DTN", from a count's summary. */
function place(s: Summary): string | null {
  return str(s, "location") && `at ${str(s, "location")}`;
}

/** "vial BTX-100U-0001" or "Prep pads", from a line's summary. */
function lineWords(s: Summary): string | null {
  return str(s, "item") ? `vial ${str(s, "item")}` : str(s, "product");
}

/** "Started vial BTX-100U-0001 Botox 100U lot A123": a vial's rows (the vial verbs' shared summary). */
/** "Flagged a record made offline: Draw 10 U from…", or the words alone without a summary. */
function titled(what: string, s: Summary): string {
  const summary = str(s, "summary");
  return summary ? `${what}: ${summary}` : what;
}

function vialWords(verb: string, s: Summary, tail?: string | null): string {
  return words(verb, "vial", str(s, "labelCode"), item(s), lot(s), tail);
}

function userWords(s: Summary): string | null {
  const name = words(str(s, "firstName"), str(s, "lastName"));
  const email = str(s, "email");
  return name && email ? `${name} (${email})` : name || email;
}

const VERBS: Record<ActivityAction, Verb> = {
  sign_in: {},
  sign_out: {},
  sign_in_failed: { text: (s) => words("Failed sign-in as", str(s, "email")), href: user },
  sign_in_refused: {
    text: (s) => words("Refused sign-in as", str(s, "email"), str(s, "reason") && `(${str(s, "reason")})`),
    href: user,
  },
  change_password_failed: { text: (s) => words("Failed password change for", str(s, "email")), href: user },
  change_password_refused: {
    text: (s) => words("Refused password change for", str(s, "email"), "(too many failed attempts)"),
    href: user,
  },
  change_password: {
    text: (s) => words("Changed own password", s.forced === true && "(required at sign-in)"),
    href: user,
  },
  reset_password: { text: (s) => words("Reset the password of", str(s, "email")), href: user },
  receive_vials: {
    text: (s) => {
      const received = Array.isArray(s.received) ? s.received.map(obj).filter((r): r is Summary => r !== null) : [];
      const first = received[0];
      const what = first
        ? words(item(first), lot(first), received.length > 1 && `and ${plural(received.length - 1, "more line")}`)
        : null;
      const items = num(s, "items");
      return words(
        "Received",
        items ? plural(items, "vial") : null,
        what && (items ? `of ${what}` : what),
        str(s, "vendor") && `from ${str(s, "vendor")}`,
        str(s, "reference") && `(${str(s, "reference")})`,
      );
    },
    href: receipt,
  },
  start_vial: { text: (s) => vialWords("Started", s), href: vial },
  draw_units: {
    text: (s) =>
      words(
        "Drew",
        str(s, "unitsText") ?? (num(s, "units") !== null ? plural(num(s, "units") as number, "unit") : null),
        "from",
        vialWords("", s).trim(),
        str(s, "service") && `for ${str(s, "service")}`,
      ),
    href: vial,
  },
  empty_vial: { text: (s) => vialWords("Emptied", s), href: vial },
  discard_vial: {
    text: (s) => {
      const reason = str(s, "reason");
      return vialWords("Discarded", s, reason ? `(${VIAL_REASONS[reason] ?? reason})` : null);
    },
    href: vial,
  },
  recall_lot: { text: (s) => words("Recalled", lot(s), item(s) && `of ${item(s)}`), href: recallReport },
  lift_recall: {
    text: (s) => words("Lifted the recall of", lot(s) ?? "a lot", item(s) && `of ${item(s)}`),
    href: recallReport,
  },
  create_product: { text: (s) => words("Added product", str(s, "name")), href: product },
  update_product: { text: (s) => `${words("Changed product", str(s, "name"))}${changedFields(s)}`, href: product },
  archive_product: { text: (s) => words("Archived product", str(s, "name")), href: product },
  restore_product: { text: (s) => words("Restored product", str(s, "name")), href: product },
  create_variation: { text: (s) => words("Added variation", item(s, "product", "name")), href: ofProduct },
  update_variation: {
    text: (s) => `${words("Changed variation", item(s, "product", "name"))}${changedFields(s)}`,
    href: ofProduct,
  },
  archive_variation: { text: (s) => words("Archived variation", item(s, "product", "name")), href: ofProduct },
  restore_variation: { text: (s) => words("Restored variation", item(s, "product", "name")), href: ofProduct },
  add_barcode: { text: (s) => words("Added barcode", str(s, "code"), item(s) && `to ${item(s)}`), href: ofProduct },
  remove_barcode: {
    text: (s) => words("Removed barcode", str(s, "code"), item(s) && `from ${item(s)}`),
    href: ofProduct,
  },
  set_par_level: {
    text: (s) => {
      const after = obj(s.after);
      const par = after ? num(after, "par") : null;
      return words(
        "Set par level",
        par !== null && `to ${par}`,
        item(s) && `for ${item(s)}`,
        str(s, "location") && `at ${str(s, "location")}`,
      );
    },
    href: ofProduct,
  },
  clear_par_level: {
    text: (s) =>
      words("Cleared par level", item(s) && `of ${item(s)}`, str(s, "location") && `at ${str(s, "location")}`),
    href: ofProduct,
  },
  adjust_stock: {
    text: (s) => {
      const quantity = num(s, "quantity");
      const change =
        quantity === null
          ? null
          : words(`${quantity > 0 ? "+" : ""}${scaled(quantity, num(s, "unitScale") ?? 1)}`, str(s, "baseUnit"));
      const reason = str(s, "reason");
      return words(
        "Adjusted stock of",
        item(s) ?? "a product",
        change && `by ${change}`,
        reason && `(${ADJUST_REASONS[reason as AdjustReason] ?? reason})`,
        str(s, "location") && `at ${str(s, "location")}`,
      );
    },
    href: () => "/stock-levels",
  },
  import_sales: {
    text: (s) => {
      // Logged twice: when a person queues the file (`queued`), and when the worker has imported it.
      if (num(s, "queued") === 1) {
        const rows = num(s, "rows");
        return words("Queued sales", str(s, "fileName"), "for import", rows !== null && `(${plural(rows, "row")})`);
      }
      const lines = num(s, "lines") ?? num(s, "rows");
      return words("Imported sales", str(s, "fileName"), lines !== null && `(${plural(lines, "line")})`);
    },
    href: () => "/sales-import",
  },
  audit_complete: {
    text: (s) => words("Approved the count", place(s)),
    href: by("/admin/audits"),
  },
  transfer_complete: { text: (s) => words("Completed the transfer", route(s)), href: by("/transfers") },
  create_user: { text: (s) => words("Added user", userWords(s)), href: user },
  update_user: {
    text: (s) => {
      const after = obj(s.after) ?? {};
      return `${words("Changed user", userWords(after))}${changedFields(s)}`;
    },
    href: user,
  },
  deactivate_user: { text: (s) => words("Deactivated user", str(s, "email")), href: user },
  reactivate_user: { text: (s) => words("Reactivated user", str(s, "email")), href: user },
  grant_role: {
    text: (s) =>
      words(
        "Gave",
        str(s, "email") ?? "a user",
        "the",
        role(s.after) ?? "",
        "role",
        str(s, "location") && `at ${str(s, "location")}`,
      ),
    href: user,
  },
  change_role: {
    text: (s) =>
      words(
        "Changed the role of",
        str(s, "email") ?? "a user",
        str(s, "location") && `at ${str(s, "location")}`,
        role(s.before) && `from ${role(s.before)}`,
        role(s.after) && `to ${role(s.after)}`,
      ),
    href: user,
  },
  revoke_role: {
    text: (s) =>
      words(
        "Removed the",
        role(s.before) ?? "",
        "role of",
        str(s, "email") ?? "a user",
        str(s, "location") && `at ${str(s, "location")}`,
      ),
    href: user,
  },
  create_location: {
    text: (s) => words("Added location", str(s, "name"), str(s, "code") && `(${str(s, "code")})`),
    href: location,
  },
  update_location: {
    text: (s) => {
      const after = obj(s.after) ?? {};
      return `${words("Changed location", str(after, "name"), str(after, "code") && `(${str(after, "code")})`)}${changedFields(s)}`;
    },
    href: location,
  },
  archive_location: { text: (s) => words("Archived location", str(s, "code")), href: location },
  restore_location: { text: (s) => words("Restored location", str(s, "code")), href: location },
  create_service: {
    text: (s) => words("Added service", str(s, "name"), str(s, "code") && `(${str(s, "code")})`),
    href: service,
  },
  update_service: {
    text: (s) => {
      const named = obj(s.after) ?? {};
      const before = obj(s.before) ?? {};
      return `${words("Changed service", str(named, "name") ?? str(before, "name") ?? str(named, "code") ?? str(before, "code"))}${changedFields(s)}`;
    },
    href: service,
  },
  archive_service: { text: (s) => words("Archived service", str(s, "code")), href: service },
  restore_service: { text: (s) => words("Restored service", str(s, "code")), href: service },
  update_recipe: { text: (s) => words("Changed the recipe of service", str(s, "code")), href: service },
  create_vendor: { text: (s) => words("Added vendor", str(s, "name")), href: vendor },
  update_vendor: { text: (s) => `${words("Changed vendor", str(s, "name"))}${changedFields(s)}`, href: vendor },
  archive_vendor: { text: (s) => words("Archived vendor", str(s, "name")), href: vendor },
  restore_vendor: { text: (s) => words("Restored vendor", str(s, "name")), href: vendor },
  open_receipt: {
    text: (s) =>
      words(
        "Opened a receipt",
        str(s, "vendor") && `from ${str(s, "vendor")}`,
        str(s, "reference") && `(${str(s, "reference")})`,
      ),
    href: receipt,
  },
  add_receipt_line: {
    text: (s) => {
      const quantity = num(s, "quantity");
      return words("Added", quantity !== null && `${quantity} ×`, item(s) ?? "a line", lot(s), "to a receipt");
    },
    href: receipt,
  },
  remove_receipt_line: { text: (s) => words("Removed", item(s) ?? "a line", lot(s), "from a receipt"), href: receipt },
  cancel_receipt: {
    text: (s) => {
      const lines = num(s, "lines");
      return words("Cancelled receipt", str(s, "reference"), lines !== null && `(${plural(lines, "line")})`);
    },
    href: receipt,
  },
  create_printer_profile: { text: (s) => words("Added printer profile", str(s, "name")), href: printer },
  update_printer_profile: {
    text: (s) => {
      const replaced = str(s, "replacedDefault");
      return `${words("Changed printer profile", str(s, "name"))}${changedFields(s)}${replaced ? ` (was ${replaced})` : ""}`;
    },
    href: printer,
  },
  archive_printer_profile: { text: (s) => words("Archived printer profile", str(s, "name")), href: printer },
  restore_printer_profile: { text: (s) => words("Restored printer profile", str(s, "name")), href: printer },
  request_backup: { text: () => "Asked for a backup", href: backups },
  create_backup: { text: () => "Made a backup", href: backups },
  upload_backup: { text: () => "Uploaded a backup", href: backups },
  request_restore: { text: () => "Asked to restore a backup", href: backups },
  restore_backup: { text: () => "Restored the data from a backup", href: backups },
  delete_backup: { text: () => "Deleted a backup", href: backups },
  rehearse_backup: { text: () => "Rehearsed the restore of a backup", href: backups },
  // Transfers (app/transfers/): a summary names `from` and `to` (location codes or names) and may
  // count its `vials` and bulk `lines`; a line's verb names the `item` (label code) or `product`.
  create_transfer: { text: (s) => words("Created a transfer", route(s)), href: transfer },
  request_transfer: { text: (s) => words("Asked for stock", route(s)), href: transfer },
  add_transfer_line: { text: (s) => words("Added", lineWords(s), "to a transfer", route(s)), href: transfer },
  remove_transfer_line: {
    text: (s) => words("Removed", lineWords(s), "from a transfer", route(s)),
    href: transfer,
  },
  send_transfer: { text: (s) => words("Sent a transfer", route(s), contents(s)), href: transfer },
  receive_transfer: { text: (s) => words("Received a transfer", route(s), contents(s)), href: transfer },
  resolve_discrepancy: { text: (s) => words("Resolved a discrepancy", route(s)), href: transfer },
  cancel_transfer: { text: (s) => words("Cancelled a transfer", route(s)), href: transfer },
  recall_transfer: { text: (s) => words("Recalled a transfer", route(s), "to its sender"), href: transfer },
  // Counts (app/counts/): a summary names the `location` (code or name) and may name the `item`
  // (label code) or `product` counted.
  start_count: {
    text: (s) => words(s.blind === true ? "Started a blind count" : "Started a count", place(s)),
    href: by("/admin/audits"),
  },
  count_stock: { text: (s) => words("Counted", lineWords(s), place(s)), href: by("/admin/audits") },
  submit_count: { text: (s) => words("Submitted the count", place(s)), href: by("/admin/audits") },
  reject_count: {
    text: (s) => words("Sent the count back for a recount", place(s), str(s, "note") && `(${str(s, "note")})`),
    href: by("/admin/audits"),
  },
  // Purchasing (app/purchasing/): a summary names the order's `number` and `vendor` (its name) and
  // may name the `product` of a line, a `reason` and a `revision`.
  create_purchase_order: {
    text: (s) => words("Created purchase order", str(s, "number"), str(s, "vendor") && `for ${str(s, "vendor")}`),
    href: order,
  },
  add_purchase_order_line: {
    text: (s) => words("Added", str(s, "product"), "to purchase order", str(s, "number")),
    href: order,
  },
  change_purchase_order_line: {
    text: (s) => words("Changed", str(s, "product"), "on purchase order", str(s, "number")),
    href: order,
  },
  remove_purchase_order_line: {
    text: (s) => words("Removed", str(s, "product"), "from purchase order", str(s, "number")),
    href: order,
  },
  submit_purchase_order: {
    text: (s) => words("Submitted purchase order", str(s, "number"), str(s, "vendor") && `to ${str(s, "vendor")}`),
    href: order,
  },
  revise_purchase_order: {
    text: (s) =>
      words(
        "Revised purchase order",
        str(s, "number"),
        num(s, "revision") !== null && `(revision ${num(s, "revision")})`,
        str(s, "reason") && `: ${str(s, "reason")}`,
      ),
    href: order,
  },
  cancel_purchase_order: { text: (s) => words("Cancelled purchase order", str(s, "number")), href: order },
  close_purchase_order: {
    text: (s) => words("Closed purchase order", str(s, "number"), str(s, "reason") && `(${str(s, "reason")})`),
    href: order,
  },
  receive_purchase_order: {
    text: (s) => words("Received against purchase order", str(s, "number")),
    href: order,
  },
  apply_par_suggestions: {
    text: (s) =>
      words("Set", num(s, "count") !== null && plural(num(s, "count") ?? 0, "par level"), "from usage", place(s)),
    href: () => "/products/par-levels",
  },
  // The imports (issue 24): each names its file, and links to the imports page.
  upload_import: {
    text: (s) => words("Uploaded", str(s, "fileName"), "to import", place(s)),
    href: () => "/sales-import",
  },
  discard_import: { text: (s) => words("Discarded the upload", str(s, "fileName")), href: () => "/sales-import" },
  map_sale_item: {
    text: (s) => words("Mapped the sold item", str(s, "name"), str(s, "target") && `to ${str(s, "target")}`),
    href: () => "/sales-import",
  },
  book_sales: {
    text: (s) =>
      words("Booked", num(s, "lines") !== null && plural(num(s, "lines") ?? 0, "retail sales line"), "from stock"),
    href: () => "/reconciliation",
  },
  import_recipes: {
    text: (s) =>
      words("Imported recipes", num(s, "changes") !== null && `(${plural(num(s, "changes") ?? 0, "change")})`),
    href: () => "/services",
  },
  // Flagged records (app/offline/): a summary names what the person saw at the cart (`summary`);
  // a resolution names its `note`.
  flag_offline_command: {
    text: (s) => titled("Flagged a record made offline", s),
    href: () => "/flagged",
  },
  resolve_offline_flag: {
    text: (s) => words(titled("Resolved a flagged record", s), str(s, "note") && `(${str(s, "note")})`),
    href: () => "/flagged",
  },
};

export { actionChoices, actionLabel } from "./labels";

/**
 * What an activity row says happened, in words, and where what it is about lives. An unknown
 * action (written by a later version, read by this one) reads as its code with spaces.
 */
export function describeActivity(row: ActivityRow): ActivityWords {
  const action = currentAction(row.action);
  if (!action) return { text: row.action.replaceAll("_", " "), href: null };
  const verb = VERBS[action];
  const summary = obj(row.summary) ?? {};
  const text = verb.text?.(summary, row) || ACTION_LABELS[action];
  return { text, href: verb.href?.(summary, row) ?? null };
}
