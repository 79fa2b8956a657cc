// Sign-in as workerd runs it, over HTTP: where the login form sends a fresh session, and parallel
// guesses against the throttle. The database is shared by the whole workers project, so the
// guesses go to an email no other test signs in with.
import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
import { REDIRECT_BYPASSES } from "../support/redirect-bypasses";
import { app, BASE } from "./support";

function loginForm(redirectTo: string) {
  return app().fetch(`${BASE}/login`, {
    method: "POST",
    redirect: "manual",
    // Remix compares Origin with Host before running a document POST's action.
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, Host: new URL(BASE).host },
    body: new URLSearchParams({ email: "multi@demo.clinic", password: DEMO_PASSWORD, redirectTo }),
  });
}

/** Whether a browser following `location` from a page of BASE stays on BASE. */
const staysHere = (location: string | null) =>
  location !== null && new URL(location, BASE).origin === BASE && /^\/(?![/\\])/.test(location);

describe("the login form's redirect", () => {
  it("goes back to the page asked for", async () => {
    const response = await loginForm("/products?page=2");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/products?page=2");
  });

  it.each(REDIRECT_BYPASSES)("stays on this site when asked to go to %j", async (redirectTo) => {
    const response = await loginForm(redirectTo);
    expect(response.status).toBe(302);
    const location = response.headers.get("Location");
    expect(staysHere(location), String(location)).toBe(true);
    expect(location).toBe("/");
  });

  it("sends someone already signed in home from the link the review found", async () => {
    const signedIn = await loginForm("/");
    const cookie = (signedIn.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
    const response = await app().fetch(`${BASE}/login?redirectTo=/%09/evil.com`, {
      redirect: "manual",
      headers: { Cookie: cookie },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });
});

describe("parallel wrong passwords", () => {
  it("reach the password check at most five times; the rest are refused with the lock message", async () => {
    const guesses = Array.from({ length: 30 }, (_, i) =>
      app().fetch(`${BASE}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: BASE, "CF-Connecting-IP": "203.0.113.50" },
        body: JSON.stringify({ email: "parallel-guess@demo.clinic", password: `guess-${i}` }),
      }),
    );
    const responses = await Promise.all(guesses);
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(25).fill(429)]);
    const refused = responses.find((r) => r.status === 429) ?? Response.error();
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^Too many failed sign-in attempts\. Wait 15 minutes and try again/,
    );
  });
});

describe("parallel right passwords", () => {
  it("all sign in: only failures count against the throttle", async () => {
    const attempts = Array.from({ length: 12 }, () =>
      app().fetch(`${BASE}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: BASE, "CF-Connecting-IP": "203.0.113.51" },
        body: JSON.stringify({ email: "multi@demo.clinic", password: DEMO_PASSWORD }),
      }),
    );
    const statuses = (await Promise.all(attempts)).map((r) => r.status);
    expect(statuses).toEqual(Array(12).fill(200));
  });
});
