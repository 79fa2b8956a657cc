// A usage entry as a draw answers it and the API shows it: units drawn from one vial for a
// treatment. Browser-safe (a type only), so screens may name it.

export interface UsageEntry {
  id: string;
  itemId: string;
  /** Base units drawn, at the product's unit scale. */
  units: number;
  /** The units as the clinic reads them, in the product's unit: "20 U", "0.5 mL". */
  unitsText: string;
  serviceId: string | null;
  serviceName: string | null;
  provider: string | null;
  /** Opaque (a chart number), never a name. */
  patientRef: string | null;
  usedAt: Date;
  /** Who recorded it. */
  userId: string | null;
}
