// The worker's own page for a screen that works offline but was never seen on this device (or whose
// copy was dropped at sign-out): what works offline, and links to the screens it has copies of.
import { ageOf } from "~/browser/saved-copy";

export interface SavedScreen {
  /** Address of the saved document (path and query). */
  href: string;
  /** Its <title>, or the address when it had none. */
  title: string;
  savedAt: Date;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

/** The <title> of a saved page's HTML (entities left as written), or null. */
export function titleOf(html: string): string | null {
  const match = /<title[^>]*>([^<]*)<\/title>/i.exec(html);
  const title = match?.[1]?.trim();
  return title ? title : null;
}

/** The offline page's HTML. It runs no script and loads nothing: it has to work with no connection. */
export function offlinePageHtml(pathname: string, saved: readonly SavedScreen[], now: Date): string {
  const items = saved
    .map(
      (s) =>
        `<li><a href="${escapeHtml(s.href)}">${escapeHtml(s.title)}</a> <span class="age">saved ${escapeHtml(ageOf(s.savedAt, now))}</span></li>`,
    )
    .join("");
  const list =
    saved.length > 0
      ? `<p>This device has saved copies of these screens:</p><ul>${items}</ul>`
      : "<p>This device has no saved copy of any screen yet: they are kept as you open them while connected, and dropped when someone signs out.</p>";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Offline</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:1.5rem;color:#111827;background:#f9fafb;line-height:1.5}
main{max-width:36rem;margin:0 auto}
h1{font-size:1.25rem;margin:0 0 .75rem}
ul{padding-left:1.25rem}
li{margin:.5rem 0}
a{color:#1d4ed8}
.age{color:#4b5563;font-size:.875rem}
</style>
</head>
<body>
<main>
<h1>No connection</h1>
<p>${escapeHtml(pathname)} has not been opened on this device while connected, so there is no saved copy of it to show.</p>
<p>Offline, Inventory, Scan and Audit show their last saved copy, and starts, draws, empties, discards and counts wait on this device until the connection is back. Other screens need the connection.</p>
${list}
<p><a href="${escapeHtml(pathname)}">Try again</a></p>
</main>
</body>
</html>`;
}

/** The offline page's own headers: nothing runs, nothing loads from elsewhere. */
export const OFFLINE_PAGE_HEADERS: Record<string, string> = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Content-Security-Policy":
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
};
