// The scan screen's data as the client layer names it (spec section 7: a generic query's key is its
// path): a code's lookup, GET /api/barcodes/{code}, and a variation's items here,
// GET /api/vials?variationId=&pageSize=, which every vial action's refresh set covers.
import { QUERY_KEYS } from "~/browser/query-client";

/** How many of a variation's items the screen lists: the first few to use are what matter at the cart. */
export const SCAN_ITEMS_SHOWN = 10;

export const itemsQueryOf = (variationId: string) => ({ variationId, pageSize: SCAN_ITEMS_SHOWN });

export const lookupKey = (code: string) => ["/api/barcodes", code] as const;
export const itemsKey = (variationId: string) => [...QUERY_KEYS.vials, itemsQueryOf(variationId)] as const;

/** A value as JSON carries it (an instant becomes its ISO text): what the API answers and the cache keeps. */
export type Json<T> = T extends Date ? string : T extends object ? { [K in keyof T]: Json<T[K]> } : T;
