// Security headers inside workerd: every kind of answer carries them (page, API, 404, /health,
// redirect, refusal, download), each request gets its own CSP nonce, and every inline script of a
// page carries that nonce, so the CSP lets Remix hydrate and nothing else.
import { beforeAll, describe, expect, it } from "vitest";
import { app, BASE, signInAs } from "./support";

let owner = "";
beforeAll(async () => {
  owner = (await signInAs("owner@demo.clinic")).cookie;
});

function nonceOf(response: Response): string {
  const csp = response.headers.get("Content-Security-Policy") ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce, `CSP without a nonce: ${csp}`).toBeTruthy();
  return nonce ?? "";
}

function expectSecured(response: Response) {
  const csp = response.headers.get("Content-Security-Policy") ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(response.headers.get("Referrer-Policy")).toBe("same-origin");
  expect(response.headers.get("Permissions-Policy")).toContain("camera=(self)");
  expect(response.headers.get("X-Frame-Options")).toBe("DENY");
  nonceOf(response);
}

/** Every <script> of the page without a src, with its attributes. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? "").filter((attrs) => !/\bsrc=/.test(attrs));
}

describe("security headers on every answer", () => {
  it("a page, an API answer, a 404 page, an API 404, /health, a redirect and a cross-site refusal", async () => {
    const answers = {
      page: await app().fetch(`${BASE}/login`),
      api: await app().fetch(`${BASE}/api/auth/me`, { headers: { Cookie: owner } }),
      apiRefused: await app().fetch(`${BASE}/api/auth/me`),
      notFound: await app().fetch(`${BASE}/no-such-page`, { headers: { Cookie: owner } }),
      apiNotFound: await app().fetch(`${BASE}/api/no-such-thing`, { headers: { Cookie: owner } }),
      health: await app().fetch(`${BASE}/health`),
      redirect: await app().fetch(`${BASE}/`, { redirect: "manual" }),
      crossSite: await app().fetch(`${BASE}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
        body: "{}",
      }),
    };
    expect(answers.page.status).toBe(200);
    expect(answers.api.status).toBe(200);
    expect(answers.apiRefused.status).toBe(401);
    expect(answers.notFound.status).toBe(404);
    expect(answers.apiNotFound.status).toBe(404);
    expect(answers.health.status).toBe(200);
    expect(answers.redirect.status).toBe(302);
    expect(answers.crossSite.status).toBe(403);
    for (const response of Object.values(answers)) {
      await response.arrayBuffer();
      expectSecured(response);
    }
  });

  it("a label download (a resource route) carries them too", async () => {
    const list = await (await app().fetch(`${BASE}/receiving`, { headers: { Cookie: owner } })).text();
    const receiptId = /\/receiving\/([^/"]+)\/print-labels/.exec(list)?.[1];
    expect(receiptId, "the demo data has a completed receipt at some location").toBeTruthy();
    const zpl = await app().fetch(`${BASE}/receiving/${receiptId}/labels.zpl`, { headers: { Cookie: owner } });
    expect(zpl.status).toBe(200);
    expect(await zpl.text()).toContain("^XA");
    expectSecured(zpl);
  });

  it("sends HSTS over HTTPS only", async () => {
    const plain = await app().fetch(`${BASE}/health`);
    expect(plain.headers.get("Strict-Transport-Security")).toBeNull();
    const secure = await app().fetch("https://clinic.test/health");
    expect(secure.headers.get("Strict-Transport-Security")).toMatch(/^max-age=\d+/);
  });

  it("makes a new nonce for each request", async () => {
    const first = await app().fetch(`${BASE}/login`);
    const second = await app().fetch(`${BASE}/login`);
    await Promise.all([first.text(), second.text()]);
    expect(nonceOf(first)).not.toBe(nonceOf(second));
  });

  it("puts the response's nonce on every inline script of a page, signed out and signed in", async () => {
    for (const [path, cookie] of [
      ["/login", ""],
      ["/", owner],
      ["/products", owner],
      ["/no-such-page", owner],
    ] as const) {
      const response = await app().fetch(`${BASE}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
      const html = await response.text();
      const nonce = nonceOf(response);
      const scripts = inlineScripts(html);
      expect(scripts.length, `${path} has Remix's inline scripts`).toBeGreaterThanOrEqual(2);
      for (const attrs of scripts) expect(attrs, `${path}: <script${attrs}>`).toContain(`nonce="${nonce}"`);
    }
  });
});
