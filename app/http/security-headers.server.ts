// The security headers every answer of the app worker carries (pages, /api/*, /health, redirects,
// downloads, error pages), applied once in workers/app.ts. The page's inline scripts (Remix's
// hydration data and module loader, scroll restoration, React's streaming) carry a nonce made
// fresh for each request, so no inline script an attacker manages to inject can run.

/** Zebra Browser Print, the local printing agent the label page talks to (app/labels/print-controls.tsx). */
export const ZEBRA_BROWSER_PRINT = ["http://localhost:9100", "https://localhost:9101"] as const;

/** 128 random bits, base64: a CSP nonce for one response. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * Where the browser's error reports go (SENTRY_BROWSER_DSN, ADR 0037): the DSN's origin, or none
 * when there is no DSN or it is not a URL (then reporting stays off behind the CSP too).
 */
export function reportingOrigin(dsn: string | undefined): string | null {
  if (!dsn) return null;
  try {
    const url = new URL(dsn);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : null;
  } catch {
    return null;
  }
}

export function contentSecurityPolicy(nonce: string, reportTo: string | null = null): string {
  return [
    "default-src 'self'",
    // Scripts: our own bundles, and inline scripts only with this response's nonce.
    `script-src 'self' 'nonce-${nonce}'`,
    // Inline style attributes (label sizes in mm, toast offsets) and the label sheet's @page
    // <style> block are rendered on the server; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    // Barcodes are inline <svg>; data: covers small images CSS may embed.
    "img-src 'self' data:",
    // With browser error reporting on, its ingest origin too, and the replay's compression worker
    // (Sentry starts it from a blob: URL).
    `connect-src 'self' ${ZEBRA_BROWSER_PRINT.join(" ")}${reportTo ? ` ${reportTo}` : ""}`,
    ...(reportTo ? ["worker-src 'self' blob:"] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The camera (scanning at the treatment cart) for this origin only; other powerful features for no one. */
export const PERMISSIONS_POLICY = "camera=(self), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=()";

export function securityHeaders({
  nonce,
  https,
  reportTo = null,
}: {
  nonce: string;
  https: boolean;
  reportTo?: string | null;
}): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy(nonce, reportTo),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    // For browsers that predate frame-ancestors.
    "X-Frame-Options": "DENY",
  };
  // Browsers ignore HSTS over plain HTTP; sending it only over HTTPS keeps local http:// use honest.
  if (https) headers["Strict-Transport-Security"] = "max-age=31536000";
  return headers;
}

/** The response with the security headers set (a copy: fetched and redirect responses have immutable headers). */
export function withSecurityHeaders(
  response: Response,
  request: Request,
  nonce: string,
  reportTo: string | null = null,
): Response {
  const secured = new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: new Headers(response.headers),
  });
  const https = new URL(request.url).protocol === "https:";
  for (const [name, value] of Object.entries(securityHeaders({ nonce, https, reportTo })))
    secured.headers.set(name, value);
  return secured;
}
