// What a vial form carries so that, with no connection, it can be saved on the device (app/offline/
// cart-action): what the page shows of the vial. Tiny and static, so the forms' pages ship only this;
// the code that saves is loaded when a form is sent.

/** What a vial form carries for saving offline (one hidden field, `offlineVial`, as JSON): what the page shows. */
export interface OfflineVialFacts {
  /** "Botox 100 U (lot C1234)" */
  name: string;
  /** The product's unit, "U". */
  unit: string;
  /** As the page shows it: "80 U". */
  unitsLeft: string;
  /** The same in base units: what an empty or discard would waste. */
  wasting: number;
  /** The vial's location: the entry is sent there. */
  locationId: string;
  /** Its waste needs a witness (a controlled substance): offline, it is sent without one and flagged. */
  witness: boolean;
}

export const OFFLINE_VIAL_FIELD = "offlineVial";

/** "Botox 100 U (lot C1234)": the vial as a summary names it. */
export function vialName(vial: { productName: string; variationName: string; lot: string | null }): string {
  return `${vial.productName} ${vial.variationName}${vial.lot ? ` (lot ${vial.lot})` : ""}`;
}

export function offlineVialField(facts: OfflineVialFacts): Record<string, string> {
  return { [OFFLINE_VIAL_FIELD]: JSON.stringify(facts) };
}

/** What a count form carries for saving offline (one hidden field, `offlineCount`, as JSON). */
export interface OfflineCountFacts {
  /** The count's location: the entry is sent there. */
  locationId: string;
  /** A bulk form's product and size as the page shows them, "Gauze 4x4 · Box of 100". */
  name?: string;
  /** A bulk form's unit. */
  unit?: string;
}

export const OFFLINE_COUNT_FIELD = "offlineCount";

export function offlineCountField(facts: OfflineCountFacts): Record<string, string> {
  return { [OFFLINE_COUNT_FIELD]: JSON.stringify(facts) };
}
