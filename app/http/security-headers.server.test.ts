import { describe, expect, it } from "vitest";
import {
  contentSecurityPolicy,
  newNonce,
  reportingOrigin,
  securityHeaders,
  withSecurityHeaders,
} from "./security-headers.server";

/** The CSP as directive name -> its sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(";").map((part) => {
      const [name = "", ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe("security headers", () => {
  it("makes a fresh, unguessable nonce each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, newNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it("lets inline scripts run only with the nonce, never unsafe-inline or eval", () => {
    const csp = directives(contentSecurityPolicy("abc123"));
    expect(csp.get("script-src")).toEqual(["'self'", "'nonce-abc123'"]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    for (const sources of csp.values()) {
      if (sources.includes("'unsafe-inline'")) expect(sources).not.toContain("'nonce-abc123'");
      expect(sources).not.toContain("'unsafe-eval'");
    }
  });

  it("forbids framing, plugins, foreign base URLs and foreign form targets", () => {
    const csp = directives(contentSecurityPolicy("n"));
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'self'"]);
    expect(csp.get("form-action")).toEqual(["'self'"]);
  });

  it("lets the label page reach Zebra Browser Print on this computer and nothing else off-origin", () => {
    const csp = directives(contentSecurityPolicy("n"));
    expect(csp.get("connect-src")).toEqual(["'self'", "http://localhost:9100", "https://localhost:9101"]);
    expect(csp.get("img-src")).toEqual(["'self'", "data:"]);
  });

  it("lets the browser reach the error-reporting origin only when a browser DSN is set", () => {
    expect(reportingOrigin(undefined)).toBeNull();
    expect(reportingOrigin("not a url")).toBeNull();
    expect(reportingOrigin("javascript:alert(1)")).toBeNull();
    const origin = reportingOrigin("https://public@o1.ingest.sentry.io/42");
    expect(origin).toBe("https://o1.ingest.sentry.io");
    const csp = directives(contentSecurityPolicy("n", origin));
    expect(csp.get("connect-src")).toEqual([
      "'self'",
      "http://localhost:9100",
      "https://localhost:9101",
      "https://o1.ingest.sentry.io",
    ]);
    expect(csp.get("worker-src")).toEqual(["'self'", "blob:"]);
    expect(directives(contentSecurityPolicy("n")).has("worker-src")).toBe(false);
  });

  it("sets the fixed headers, the camera for this origin only, and HSTS only over HTTPS", () => {
    const plain = securityHeaders({ nonce: "n", https: false });
    expect(plain).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
      "X-Frame-Options": "DENY",
    });
    expect(plain["Permissions-Policy"]).toContain("camera=(self)");
    expect(plain["Permissions-Policy"]).toContain("microphone=()");
    expect(plain["Permissions-Policy"]).toContain("geolocation=()");
    expect(plain).not.toHaveProperty("Strict-Transport-Security");
    expect(securityHeaders({ nonce: "n", https: true })["Strict-Transport-Security"]).toMatch(/^max-age=\d{8,}/);
  });

  it("secures a redirect, whose own headers are immutable, keeping its status and headers", async () => {
    const redirect = Response.redirect("https://clinic.example/login", 302);
    const secured = withSecurityHeaders(redirect, new Request("https://clinic.example/"), "n1");
    expect(secured.status).toBe(302);
    expect(secured.headers.get("Location")).toBe("https://clinic.example/login");
    expect(secured.headers.get("Content-Security-Policy")).toContain("'nonce-n1'");
    expect(secured.headers.get("Strict-Transport-Security")).not.toBeNull();

    const page = new Response("<p>hi</p>", { status: 404, headers: { "Set-Cookie": "a=b", "X-Frame-Options": "x" } });
    const securedPage = withSecurityHeaders(page, new Request("http://127.0.0.1:8787/nope"), "n2");
    expect(securedPage.status).toBe(404);
    expect(securedPage.headers.get("Set-Cookie")).toBe("a=b");
    expect(securedPage.headers.get("X-Frame-Options")).toBe("DENY");
    expect(securedPage.headers.get("Strict-Transport-Security")).toBeNull();
    expect(await securedPage.text()).toBe("<p>hi</p>");
  });
});
