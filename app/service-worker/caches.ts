// The worker's caches. Both names carry the build's version, so a new build's worker drops the old
// build's assets and the pages that named them when it activates.
// - pages: one person's saved screens, screen data and scan lookups; dropped at sign-out and sign-in.
// - assets: the build's hashed files; nobody's in particular.

const PREFIX = "clinic-";

export interface CacheNames {
  pages: string;
  assets: string;
}

export function cacheNames(version: string): CacheNames {
  return { pages: `${PREFIX}pages-${version}`, assets: `${PREFIX}assets-${version}` };
}

/** The caches a worker of `version` drops when it activates: this app's caches of any other version. */
export function cachesToDrop(existing: readonly string[], version: string): string[] {
  const keep = Object.values(cacheNames(version));
  return existing.filter((name) => name.startsWith(PREFIX) && !keep.includes(name));
}

/** The unhashed files of public/ the shell and its pages show (the logo, the icon). */
export const SHELL_FILES: readonly string[] = ["/favicon.svg", "/favicon.ico"];

/** The build's own files among the addresses a page loaded: same origin, under /assets/, or the shell's icons. */
export function buildAssets(urls: readonly string[], origin: string): string[] {
  const assets = new Set<string>();
  for (const raw of urls) {
    let url: URL;
    try {
      url = new URL(raw, origin);
    } catch {
      continue;
    }
    if (url.origin !== origin) continue;
    if (url.pathname.startsWith("/assets/") || SHELL_FILES.includes(url.pathname))
      assets.add(url.origin + url.pathname);
  }
  return [...assets];
}

/** Whether a server's answer is one worth keeping as a saved copy: a whole, successful, unredirected 200. */
export function worthSaving(response: { status: number; type: string; redirected: boolean }): boolean {
  return response.status === 200 && response.type === "basic" && !response.redirected;
}

/** How old a screen's saved document may grow while its data is being saved fresher, before it is fetched again. */
export const DOCUMENT_REFRESH_MS = 10 * 60_000;

/** Whether a screen's document (saved at `savedAt`, or never) is to be fetched and saved again. */
export function documentDue(savedAt: string | null, now: Date): boolean {
  const at = savedAt === null ? Number.NaN : Date.parse(savedAt);
  return Number.isNaN(at) || now.getTime() - at >= DOCUMENT_REFRESH_MS || at > now.getTime();
}
