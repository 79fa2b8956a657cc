// Route × role: every screen of spec section 2 and every /api/* endpoint, as every demo user, at
// their own location, at a location that is not theirs, and in organization mode; their GETs and
// every POST a screen or an API takes.
import { beforeAll, describe, expect, it } from "vitest";
import { saveLocationChoice } from "../../app/access/location-choice.server";
import { type Access, can, ORGANIZATION, type Permission } from "../../app/access/permissions";
import { AREAS } from "../../app/shell/areas";
import { NO_LOCATION_TITLE } from "../../app/shell/no-location";
import { DEMO_USERS } from "../../scripts/seed/demo";
import { app, BASE, type MyLocation, signInAs } from "./support";

const sessions = new Map<string, { cookie: string; locations: MyLocation[] }>();
let allLocations: MyLocation[] = [];

async function get(
  path: string,
  cookie: string,
  choice?: { selectedLocationId: string | null; isOrganizationMode: boolean },
) {
  const cookies = [cookie];
  if (choice) cookies.push((await saveLocationChoice(choice)).split(";")[0] ?? "");
  return app().fetch(`${BASE}${path}`, { headers: { Cookie: cookies.join("; ") }, redirect: "manual" });
}

const samplePath = (pattern: string) => pattern.replace(/\{[^}]+\}/g, "sample-id");

/** What an allowed visit answers: a detail screen has no record "sample-id" (404). */
const allowedStatus = (pattern: string) => (pattern.includes("{") ? 404 : 200);

beforeAll(async () => {
  for (const user of DEMO_USERS) sessions.set(user.email, await signInAs(user.email));
  allLocations = sessions.get("owner@demo.clinic")?.locations ?? [];
  expect(allLocations.map((l) => l.location.code).sort()).toEqual(["DTN", "NTH", "WST"]);
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

/**
 * Every screen action, posted as a browser form from the app's own origin (app/http/cross-site.server)
 * with the intent that reaches its permission check and nothing else filled in: refused with 403
 * without the permission, and never a 403 (nor a 500: bad input is a 400/404/422 or a redirect) with it.
 * `at: "record"`: the permission is needed at the record's own location (a location screen);
 * `at: "organization"`: only organization admins may (opening a location).
 */
const SCREEN_POSTS: readonly {
  path: string;
  permission: Permission;
  form?: Record<string, string>;
  at?: "record" | "organization";
}[] = [
  { path: "/inventory/sample-id", permission: "WRITE_INVENTORY", form: { intent: "start" } },
  { path: "/locations/new", permission: "WRITE_LOCATIONS", at: "organization" },
  { path: "/locations/sample-id", permission: "WRITE_LOCATIONS", form: { intent: "update" }, at: "record" },
  { path: "/printer-settings", permission: "WRITE_SETTINGS", form: { intent: "archive" } },
  { path: "/printer-settings/new", permission: "WRITE_SETTINGS" },
  { path: "/printer-settings/sample-id", permission: "WRITE_SETTINGS", form: { intent: "update" } },
  { path: "/products/new", permission: "WRITE_PRODUCTS" },
  { path: "/products/sample-id", permission: "WRITE_PRODUCTS", form: { intent: "update" } },
  { path: "/products/par-levels", permission: "WRITE_PRODUCTS" },
  { path: "/receiving", permission: "WRITE_INVENTORY" },
  { path: "/recalls", permission: "WRITE_PRODUCTS", form: { intent: "mark" } },
  { path: "/receiving/sample-id/add-products", permission: "WRITE_INVENTORY", form: { intent: "cancel" } },
  { path: "/services/new", permission: "WRITE_PRODUCTS" },
  { path: "/stock-levels", permission: "WRITE_INVENTORY", form: { intent: "adjust" } },
  { path: "/services/sample-id", permission: "WRITE_PRODUCTS", form: { intent: "update" } },
  { path: "/users", permission: "WRITE_USERS", form: { intent: "grant-role" } },
  { path: "/users/new", permission: "WRITE_USERS" },
  { path: "/users/sample-id", permission: "WRITE_USERS", form: { intent: "update-names" } },
  { path: "/vendors/new", permission: "WRITE_VENDORS" },
  { path: "/vendors/sample-id", permission: "WRITE_VENDORS", form: { intent: "update" } },
  { path: "/backup-restore", permission: "WRITE_BACKUPS", form: { intent: "restore" } },
  { path: "/transfers", permission: "WRITE_TRANSFERS", form: { intent: "new" } },
  { path: "/transfers", permission: "WRITE_TRANSFERS", form: { intent: "draft_from_suggestion" } },
  { path: "/transfers/sample-id", permission: "WRITE_TRANSFERS", form: { intent: "send" } },
  {
    path: "/transfers/sample-id",
    permission: "WRITE_INVENTORY",
    form: { intent: "receive-scan", labelCode: "V000000000" },
  },
  { path: "/purchase-orders", permission: "WRITE_PURCHASING", form: { intent: "create" } },
  { path: "/purchase-orders/sample-id", permission: "WRITE_PURCHASING", form: { intent: "submit" } },
  { path: "/purchase-orders/sample-id/add-items", permission: "WRITE_PURCHASING", form: { intent: "addLines" } },
];

/** The JSON writes of a vial (WRITE_INVENTORY at the location in scope); "sample-id" is no vial. */
const API_VIAL_WRITES = ["start", "draw", "empty", "discard"].map((verb) => `/api/vials/sample-id/${verb}`);

/** The /api/* endpoints: sign-in and the writes take a POST; the rest answer it without a server error. */
const API_POSTS = [
  ...API_VIAL_WRITES,
  "/api/auth/login",
  "/api/auth/me",
  "/api/locations/my",
  "/api/products",
  "/api/product-variations",
  "/api/barcodes/sample-code",
  "/api/stock-levels",
  "/api/stock-adjustments",
  "/api/vials",
  "/api/usage",
  "/api/recalls",
  "/api/recalls/sample-lot",
  "/api/transfers",
  "/api/transfers/sample-id",
  "/api/transfers/sample-id/send",
  "/api/transfers/sample-id/receive",
  "/api/transfers/sample-id/cancel",
  "/api/purchase-orders",
  "/api/purchase-orders/sample-id",
  "/api/purchase-orders/sample-id/lines",
  "/api/purchase-orders/sample-id/submit",
  "/api/purchase-orders/sample-id/revise",
  "/api/purchase-orders/sample-id/cancel",
  "/api/purchase-orders/sample-id/close",
  "/api/reorder-suggestions",
  "/api/imports",
  "/api/imports/sample-id",
  "/api/offline-replays",
  // POST /api/backups and /api/backups/uploads take {}: they make a snapshot or an upload (tests/workers/backups-api.test.ts).
  "/api/backups/sample-id",
  "/api/backups/sample-id/restore",
  "/api/backups/uploads/sample-id/complete",
  "/api/no-such-endpoint",
];

async function post(
  path: string,
  cookie: string,
  form: Record<string, string>,
  choice?: { selectedLocationId: string | null; isOrganizationMode: boolean },
) {
  const cookies = [cookie];
  if (choice) cookies.push((await saveLocationChoice(choice)).split(";")[0] ?? "");
  return app().fetch(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(form),
    headers: {
      Cookie: cookies.join("; "),
      // As a browser sends them: the app's own origin, and the host it was asked for.
      Origin: BASE,
      Host: new URL(BASE).host,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    redirect: "manual",
  });
}

describe("every POST, as every demo user", () => {
  for (const user of DEMO_USERS) {
    // Every screen's POST at three places, one after another (transfers and counts brought a dozen
    // more): over 150 requests on a loaded 2-core machine.
    it(`${user.email}: at their own location, one not theirs, and in organization mode, exactly what their role grants`, {
      timeout: 120_000,
    }, async () => {
      const { cookie, locations } = sessions.get(user.email) ?? { cookie: "", locations: [] };
      const access: Access = { organizationRole: user.organizationRole ?? null, locationRoles: locations };
      const home = locations[0]?.locationId ?? null;
      const foreign = allLocations.find((l) => !locations.some((m) => m.locationId === l.locationId));
      const organization = !!user.organizationRole;
      const choices = [
        { where: "own", choice: undefined, at: home },
        // A forged choice of someone else's location falls back to the user's own.
        ...(foreign
          ? [
              {
                where: "foreign",
                choice: { selectedLocationId: foreign.locationId, isOrganizationMode: false },
                at: home,
              },
            ]
          : []),
        // Organization mode is for organization admins; anyone else stays where they work.
        {
          where: "organization",
          choice: { selectedLocationId: null, isOrganizationMode: true },
          at: organization ? ORGANIZATION : home,
        },
      ];
      for (const { where, choice, at } of choices) {
        for (const route of SCREEN_POSTS) {
          const response = await post(route.path, cookie, route.form ?? {}, choice);
          const allowed =
            route.at === "organization"
              ? organization
              : can(access, route.permission, route.at === "record" ? "sample-id" : at);
          const answer = { where, path: route.path, status: response.status };
          if (!allowed) expect(answer).toEqual({ ...answer, status: 403 });
          else {
            expect(answer.status, `${where} ${route.path}`).not.toBe(403);
            expect(answer.status, `${where} ${route.path}`).toBeLessThan(500);
          }
        }
      }
    });
  }

  it("sends a signed-out POST of any screen to the login screen, and a cross-site one nowhere", async () => {
    for (const route of SCREEN_POSTS) {
      const response = await post(route.path, "", route.form ?? {});
      expect({ path: route.path, status: response.status }).toEqual({ path: route.path, status: 302 });
      expect(response.headers.get("Location")).toMatch(/^\/login/);
    }
    const { cookie } = sessions.get("owner@demo.clinic") ?? { cookie: "" };
    const forged = await app().fetch(`${BASE}/vendors/new`, {
      method: "POST",
      body: new URLSearchParams({ name: "Forged" }),
      headers: {
        Cookie: cookie,
        Origin: "https://evil.example",
        Host: new URL(BASE).host,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      redirect: "manual",
    });
    expect(forged.status).toBe(403);
  });

  it("answers the JSON writes with 403 exactly when the role lacks WRITE_INVENTORY, else a 4xx about the missing vial", async () => {
    for (const user of DEMO_USERS) {
      const { cookie, locations } = sessions.get(user.email) ?? { cookie: "", locations: [] };
      const access: Access = { organizationRole: user.organizationRole ?? null, locationRoles: locations };
      const allowed = can(access, "WRITE_INVENTORY", locations[0]?.locationId ?? null);
      for (const path of API_VIAL_WRITES) {
        const response = await app().fetch(`${BASE}${path}`, {
          method: "POST",
          body: JSON.stringify({ units: 1, reason: "damaged" }),
          headers: { Cookie: cookie, Origin: BASE, Host: new URL(BASE).host, "Content-Type": "application/json" },
          redirect: "manual",
        });
        const answer = { user: user.email, path, status: response.status };
        if (!allowed) expect(answer).toEqual({ ...answer, status: 403 });
        else expect(answer).toEqual({ ...answer, status: 404 });
        expect(await response.json()).toMatchObject({ code: allowed ? "not_found" : "forbidden" });
      }
    }
  });

  // Every endpoint × 3 bodies × 4 callers: over 250 requests, eight at a time (one after another
  // they took three minutes on a loaded 2-core machine; none of them writes anything).
  it("answers every /api/* POST with an empty or invalid body without a server error", {
    timeout: 180_000,
  }, async () => {
    // Signed out, an organization admin, a location's staff and someone with no location.
    const cases = ["", "owner@demo.clinic", "staff@demo.clinic", "newhire@demo.clinic"].flatMap((email) =>
      API_POSTS.flatMap((path) => ["", "{not json", "{}"].map((body) => ({ email, path, body }))),
    );
    const check = async ({ email, path, body }: (typeof cases)[number]) => {
      const { cookie } = sessions.get(email) ?? { cookie: "" };
      const response = await app().fetch(`${BASE}${path}`, {
        method: "POST",
        body,
        headers: { Cookie: cookie, Origin: BASE, Host: new URL(BASE).host, "Content-Type": "application/json" },
        redirect: "manual",
      });
      expect({ path, body, status: response.status }).toEqual({
        path,
        body,
        status: path === "/api/auth/login" ? 400 : expect.any(Number),
      });
      expect(response.status, `${email} POST ${path} ${body}`).toBeLessThan(500);
      expect(response.status, `${email} POST ${path}`).not.toBe(200);
      // In the API's one error shape, whoever asks and whatever the route.
      expect(await response.json(), `${email} POST ${path} ${body}`).toMatchObject({
        error: expect.any(String),
        code: expect.any(String),
      });
    };
    for (let at = 0; at < cases.length; at += 8) await Promise.all(cases.slice(at, at + 8).map(check));
  });
});
