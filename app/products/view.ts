// Shapes the product page renders, shared by the route and its section components.
import type { ProductIntent } from "./constants";

export interface ParLevelView {
  par: number;
  reorderPoint: number;
  max: number | null;
}

export interface VariationLocationView {
  locationId: string;
  name: string;
  code: string;
  onHand: number;
  parLevel: ParLevelView | null;
  /** WRITE_PRODUCTS at this location: the viewer may set or clear its par level. */
  canEdit: boolean;
}

export interface VariationView {
  id: string;
  name: string;
  sku: string | null;
  gtin: string | null;
  unitsPerPackage: number;
  costCents: number | null;
  active: boolean;
  version: number;
  barcodes: { id: string; code: string }[];
  locations: VariationLocationView[];
}

/** What a refused form on the product page gets back, to show next to that form only. */
export interface Failure {
  intent: ProductIntent;
  /** The variation, `variation:location` (par levels) or barcode the form was about; null for the product. */
  target: string | null;
  fieldErrors: Record<string, string>;
  formError: string | null;
  /** Every barcode rule the code broke (spec section 5), and the code with bad characters stripped. */
  barcodeErrors?: string[];
  suggestion?: string | null;
  /** The values as typed; with `conflict`, what the person tried to save over someone else's change. */
  typed?: Record<string, string> | null;
  conflict?: boolean;
}

export const parTarget = (variationId: string, locationId: string) => `${variationId}:${locationId}`;
