// What the reorder view and the add-items suggestions show (issue 23.5): the reorder suggestions of
// a location grouped by the products' default vendor, and the transfers another location offers
// instead. Plain values only (the route composes the transfers' part in: purchasing never reads
// transfers), browser-safe.

/** One reorder suggestion (./suggestions.server.ts): base units, except `packages`. */
export interface ReorderSuggestion {
  variationId: string;
  productId: string;
  productName: string;
  variationName: string;
  tracking: "serialized" | "bulk";
  sku: string | null;
  /** The product's default vendor (null: none set, so no order can be drafted for it from here). */
  vendorId: string | null;
  vendorName: string | null;
  unitsPerPackage: number;
  /** Base units. */
  reorderPoint: number;
  max: number | null;
  par: number;
  onHand: number;
  onOrder: number;
  inTransit: number;
  /** Base units a day over the last 90 days. */
  dailyUsage: number;
  shelfLifeDays: number | null;
  /** Whole packages to order (0 when the shelf-life cap leaves nothing to order). */
  packages: number;
  /** The cap in packages when it cut the order. */
  cappedAt: number | null;
  /** A draft order of this location that already has the variation. */
  onDraft: { id: string; number: string } | null;
  why: string;
}

/**
 * The reorder view shows the vendors with the most suggestions first, this many of them, and links
 * to all (a location short of 150 variations from 59 vendors is a page too long to send and read).
 */
export const REORDER_VENDORS_SHOWN = 10;
/** The /purchase-orders query parameter (`vendors=all`) that shows every vendor's suggestions. */
export const ALL_VENDORS_PARAM = "vendors";

/** The form contract of /purchase-orders and /purchase-orders/{id}/add-items (the brief's shared contract). */
export const CREATE_INTENT = "create";
export const ADD_LINES_INTENT = "addLines";

/**
 * Stock another location could send instead of ordering (a balancing transfer of issue 22), as the
 * route hands it over: who has it, what would move in a few words, and the draft it would make.
 */
export interface TransferOffer {
  variationId: string;
  fromLocationId: string;
  fromLocationName: string;
  toLocationId: string;
  /** "2 vials", "1 bulk quantity". */
  carries: string;
  /** The lines of the draft transfer, as the transfers page's form sends them (JSON). */
  lines: string;
  /** Whether the reader may make the draft (WRITE_TRANSFERS at the sender); else they request it. */
  canDraft: boolean;
}

/** What the reorder view and add-items show of a suggestion: what a page carries to the browser, no more. */
export type ShownSuggestion = Pick<
  ReorderSuggestion,
  | "variationId"
  | "productName"
  | "variationName"
  | "tracking"
  | "vendorId"
  | "vendorName"
  | "packages"
  | "onDraft"
  | "why"
>;

/** A suggestion as a page carries it (its loader's data is sent along with the page). */
export function shownSuggestion(s: ReorderSuggestion): ShownSuggestion {
  return {
    variationId: s.variationId,
    productName: s.productName,
    variationName: s.variationName,
    tracking: s.tracking,
    vendorId: s.vendorId,
    vendorName: s.vendorName,
    packages: s.packages,
    onDraft: s.onDraft,
    why: s.why,
  };
}

export interface ReorderGroup {
  /** null: products without a default vendor (no order can be drafted for them from here). */
  vendorId: string | null;
  vendorName: string | null;
  /** What a draft order of this vendor would carry: packages above 0, not on a draft already. */
  lines: ShownSuggestion[];
  /** Suggested, but held back: on a draft already, or capped to nothing. Shown with why. */
  held: ShownSuggestion[];
}

/** The suggestions (in their order: vendor, product, variation) grouped by default vendor. */
export function groupByVendor(suggestions: readonly ShownSuggestion[]): ReorderGroup[] {
  const groups = new Map<string, ReorderGroup>();
  for (const s of suggestions) {
    const key = s.vendorId ?? "";
    let group = groups.get(key);
    if (!group) {
      group = { vendorId: s.vendorId, vendorName: s.vendorName, lines: [], held: [] };
      groups.set(key, group);
    }
    (s.onDraft || s.packages === 0 ? group.held : group.lines).push(s);
  }
  return [...groups.values()];
}

/** The offers of each variation, from the route's transfer offers. */
export function offersByVariation(offers: readonly TransferOffer[]): Map<string, TransferOffer[]> {
  const byVariation = new Map<string, TransferOffer[]>();
  for (const offer of offers) {
    const list = byVariation.get(offer.variationId);
    if (list) list.push(offer);
    else byVariation.set(offer.variationId, [offer]);
  }
  return byVariation;
}
