// Cross-site request forgery guard for every state-changing request. Sessions are SameSite=Lax
// cookies already; on top of that a write must come from our own origin: browsers always send
// Origin on cross-origin POSTs and Sec-Fetch-Site on all modern requests.

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_SITE_REFUSED =
  "This request came from another website and was refused. Open the page in this app and submit it again.";

export function isCrossSiteWrite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.get("Origin");
  if (origin && origin !== "null") return origin !== new URL(request.url).origin;
  if (origin === "null") return true;
  const site = request.headers.get("Sec-Fetch-Site");
  return site === "cross-site" || site === "same-site";
}
