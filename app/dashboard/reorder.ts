// What to order for a level below its par (browser-safe, pure): whole packages that bring the
// usable stock up to the maximum, or to par when the location set no maximum.

/**
 * Packages to order: the shortfall of `usable` base units against max (else par) packages of
 * `unitsPerPackage`, rounded up to whole packages (what is left in a started one counts for its units);
 * zero when nothing is short.
 */
export function reorderPackages(level: {
  usable: number;
  unitsPerPackage: number;
  parLevel: { par: number; max: number | null } | null;
}): number {
  if (!level.parLevel || level.unitsPerPackage <= 0) return 0;
  const target = (level.parLevel.max ?? level.parLevel.par) * level.unitsPerPackage;
  const short = target - Math.max(0, level.usable);
  return short > 0 ? Math.ceil(short / level.unitsPerPackage) : 0;
}
