// Where a lot's trace lives: the usage log links each row's lot here, the recalls screen each recall.

/** The recall report (every use and every unused vial) of one lot of a variation, recalled or not. */
export function recallReportPath(variationId: string, lot: string): string {
  return `/recalls/report?${new URLSearchParams({ variationId, lot })}`;
}
