// Route × role: every screen of spec section 2 and every /api/* endpoint, as every demo user, at
// their own location, at a location that is not theirs, and in organization mode: their GETs here;
// every POST a screen or an API takes in permissions-posts.test.ts and api-bodies.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { can, ORGANIZATION } from "../../app/access/permissions";
import { AREAS } from "../../app/shell/areas";
import { NO_LOCATION_TITLE } from "../../app/shell/no-location";
import { DEMO_USERS } from "../../scripts/seed/demo";
import { get, type Sessions, signInDemoUsers } from "./permission-routes";
import { app, BASE, type MyLocation } from "./support";

let sessions: Sessions = new Map();
let allLocations: MyLocation[] = [];

const samplePath = (pattern: string) => pattern.replace(/\{[^}]+\}/g, "sample-id");

/** What an allowed visit answers: a detail screen has no record "sample-id" (404). */
const allowedStatus = (pattern: string) => (pattern.includes("{") ? 404 : 200);

beforeAll(async () => {
  ({ sessions, allLocations } = await signInDemoUsers());
});

describe("/api/locations/my", () => {
  it("lists each user's locations with their role there, organization admins at every location", () => {
    const summary = (email: string) =>
      sessions
        .get(email)
        ?.locations.map((l) => `${l.location.code}:${l.role}`)
        .sort();
    expect(summary("owner@demo.clinic")).toEqual(["DTN:ADMIN", "NTH:ADMIN", "WST:ADMIN"]);
    expect(summary("admin@demo.clinic")).toEqual(["DTN:ADMIN", "WST:MANAGER"]);
    expect(summary("manager@demo.clinic")).toEqual(["WST:MANAGER"]);
    expect(summary("staff@demo.clinic")).toEqual(["DTN:STAFF"]);
    expect(summary("multi@demo.clinic")).toEqual(["DTN:STAFF", "NTH:STAFF"]);
    expect(summary("newhire@demo.clinic")).toEqual([]);
  });

  it("answers 401 JSON, not a redirect, to a signed-out caller", async () => {
    for (const path of ["/api/locations/my", "/api/auth/me"]) {
      const response = await app().fetch(`${BASE}${path}`, { redirect: "manual" });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: expect.stringMatching(/not signed in/), code: "not_signed_in" });
    }
  });
});

describe("/api/auth/me", () => {
  it("gives the spec's current-user shape: organization admins get one 'all' ADMIN entry", async () => {
    const owner = await (await get("/api/auth/me", sessions.get("owner@demo.clinic")?.cookie ?? "")).json();
    expect(owner).toMatchObject({
      user: { email: "owner@demo.clinic", role: "ADMIN", organizationRole: "ORGANIZATION_ADMIN" },
    });
    expect((owner as { user: { locationRoles: unknown } }).user.locationRoles).toEqual([
      { locationId: ORGANIZATION, role: "ADMIN" },
    ]);
    const staff = (await (await get("/api/auth/me", sessions.get("staff@demo.clinic")?.cookie ?? "")).json()) as {
      user: { role: string; locationRoles: { role: string }[] };
    };
    expect(staff.user.role).toBe("STAFF");
    expect(staff.user.locationRoles.map((r) => r.role)).toEqual(["STAFF"]);
  });
});

describe("every screen, as every demo user", () => {
  for (const user of DEMO_USERS) {
    it(`${user.email}: at their own location the server allows exactly what their role grants`, async () => {
      const { cookie, locations } = sessions.get(user.email) ?? { cookie: "", locations: [] };
      const access = { organizationRole: user.organizationRole ?? null, locationRoles: locations };
      const home = locations[0]?.locationId ?? null;

      // Someone with no location at all gets the shell's one screen saying so (see below).
      expect((await get("/", cookie)).status).toBe(home || user.organizationRole ? 200 : 403);
      for (const [pattern, area] of Object.entries(AREAS)) {
        const response = await get(samplePath(pattern), cookie);
        const expected = can(access, area.permission, home) ? allowedStatus(pattern) : 403;
        expect({ path: pattern, status: response.status }).toEqual({ path: pattern, status: expected });
      }
    });

    it(`${user.email}: naming a location that is not theirs gives nothing there`, async () => {
      const { cookie, locations } = sessions.get(user.email) ?? { cookie: "", locations: [] };
      const foreign = allLocations.find((l) => !locations.some((m) => m.locationId === l.locationId));
      if (!foreign) {
        expect(user.organizationRole).toBe("ORGANIZATION_ADMIN");
        return;
      }
      // The switch is refused outright…
      const form = new FormData();
      form.set("locationId", foreign.locationId);
      const refused = await app().fetch(`${BASE}/location`, {
        method: "POST",
        body: form,
        headers: { Cookie: cookie },
        redirect: "manual",
      });
      expect(refused.status).toBe(403);

      // …and a forged choice falls back to a location the user really has (or none).
      const dashboard = await get("/", cookie, { selectedLocationId: foreign.locationId, isOrganizationMode: false });
      const html = await dashboard.text();
      expect(html).not.toContain(`Working at ${foreign.location.name}`);
      const access = { organizationRole: null, locationRoles: locations };
      for (const [pattern, area] of Object.entries(AREAS)) {
        const response = await get(samplePath(pattern), cookie, {
          selectedLocationId: foreign.locationId,
          isOrganizationMode: false,
        });
        const expected = can(access, area.permission, locations[0]?.locationId ?? null) ? allowedStatus(pattern) : 403;
        expect({ path: pattern, status: response.status }).toEqual({ path: pattern, status: expected });
      }
    });

    it(`${user.email}: organization mode only for organization admins`, async () => {
      const { cookie } = sessions.get(user.email) ?? { cookie: "" };
      const form = new FormData();
      form.set("organization", "1");
      const response = await app().fetch(`${BASE}/location`, {
        method: "POST",
        body: form,
        headers: { Cookie: cookie },
        redirect: "manual",
      });
      expect(response.status).toBe(user.organizationRole ? 302 : 403);
      const dashboard = await (await get("/", cookie, { selectedLocationId: null, isOrganizationMode: true })).text();
      expect(dashboard.includes("Viewing all locations of the organization.")).toBe(!!user.organizationRole);
    });
  }
});

describe("spot checks against the spec's role table", () => {
  it("refuses a staff user the users screen but lets them into inventory", async () => {
    const { cookie } = sessions.get("staff@demo.clinic") ?? { cookie: "" };
    expect((await get("/users", cookie)).status).toBe(403);
    expect((await get("/inventory", cookie)).status).toBe(200);
    expect((await get("/vendors", cookie)).status).toBe(403);
  });

  it("lets a manager read every area and a user with no location read none", async () => {
    const manager = sessions.get("manager@demo.clinic")?.cookie ?? "";
    const newhire = sessions.get("newhire@demo.clinic")?.cookie ?? "";
    for (const path of ["/users", "/vendors", "/backup-restore", "/activity-log"]) {
      expect((await get(path, manager)).status).toBe(200);
      expect((await get(path, newhire)).status).toBe(403);
    }
  });

  it("sends a signed-out visitor of any screen to the login screen", async () => {
    for (const pattern of Object.keys(AREAS)) {
      const response = await get(samplePath(pattern), "");
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    }
  });

  it("answers unknown paths with not-found (and unknown API paths with JSON)", async () => {
    const { cookie } = sessions.get("owner@demo.clinic") ?? { cookie: "" };
    expect((await get("/no-such-screen", cookie)).status).toBe(404);
    const api = await get("/api/no-such-endpoint", cookie);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: expect.any(String), code: "not_found" });
  });
});

describe("a user with no location", () => {
  it("gets one friendly screen at every URL of the app: who they are, ask an administrator, no Reload button", async () => {
    const { cookie } = sessions.get("newhire@demo.clinic") ?? { cookie: "" };
    for (const path of ["/", ...Object.keys(AREAS).map(samplePath), "/no-such-screen"]) {
      const response = await get(path, cookie);
      const html = await response.text();
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
      expect(html).toContain(NO_LOCATION_TITLE);
      expect(html).toContain("newhire@demo.clinic");
      expect(html).toContain("An administrator must add you to a location");
      expect(html).toContain('href="/change-password"');
      expect(html).toContain('action="/logout"');
      expect(html).not.toMatch(/Reload Page|Access Denied/);
    }
  });
});
