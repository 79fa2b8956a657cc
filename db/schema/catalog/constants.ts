// The catalogue vocabulary the products table checks. Imports nothing, so the product pages can
// list these without pulling database code into the browser.

/** Serialized: item by item with a label each (vials); bulk: quantities only (gauze). */
export const TRACKING_MODES = ["serialized", "bulk"] as const;
export type TrackingMode = (typeof TRACKING_MODES)[number];

export const STORAGE_CONDITIONS = ["room", "refrigerated", "frozen"] as const;
export type StorageCondition = (typeof STORAGE_CONDITIONS)[number];
