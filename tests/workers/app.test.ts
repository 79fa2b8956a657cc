// The app worker as workerd runs it: routing, cookies, the cross-site guard and the database.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const BASE = "http://clinic.test";
const app = () => (exports as unknown as { default: Fetcher }).default;

async function login(email: string, password = "demo-password") {
  return app().fetch(`${BASE}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: BASE },
    body: JSON.stringify({ email, password }),
  });
}

describe("app worker", () => {
  it("answers /health with the database reachable", async () => {
    const response = await app().fetch(`${BASE}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok", database: "ok" });
  });

  it("sends an anonymous visitor to the login screen", async () => {
    const response = await app().fetch(`${BASE}/`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
    const login = await app().fetch(`${BASE}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain("Sign in");
  });

  it("signs in over JSON with a signed HttpOnly SameSite cookie that opens the dashboard", async () => {
    const response = await login("multi@demo.clinic");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: Record<string, unknown> };
    expect(body.user).toMatchObject({
      email: "multi@demo.clinic",
      firstName: "Morgan",
      lastName: "Multi",
      role: "STAFF",
      organizationRole: null,
    });
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^__session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const dashboard = await app().fetch(`${BASE}/`, { headers: { Cookie: setCookie.split(";")[0] ?? "" } });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain("Morgan Multi");
  });

  it("answers a wrong password with 401 and the spec's message", async () => {
    const response = await login("staff@demo.clinic", "wrong");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Invalid credentials", code: "invalid_credentials" });
  });

  it("refuses a state-changing request from another origin before it reaches Remix", async () => {
    const response = await app().fetch(`${BASE}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: JSON.stringify({ email: "staff@demo.clinic", password: "demo-password" }),
    });
    expect(response.status).toBe(403);
  });

  it("refuses a sign-in that is not JSON", async () => {
    const response = await app().fetch(`${BASE}/api/auth/login`, {
      method: "POST",
      body: "email=staff@demo.clinic&password=demo-password",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(415);
  });
});
