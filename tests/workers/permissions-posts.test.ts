// Route × role, the POSTs: every screen action and every JSON write, as every demo user, at their
// own location, at one that is not theirs, and in organization mode (permissions.test.ts has the GETs).
import { beforeAll, describe, expect, it } from "vitest";
import { type Access, can, ORGANIZATION } from "../../app/access/permissions";
import { DEMO_USERS } from "../../scripts/seed/demo";
import { API_VIAL_WRITES, post, SCREEN_POSTS, type Sessions, signInDemoUsers } from "./permission-routes";
import { app, BASE, type MyLocation } from "./support";

let sessions: Sessions = new Map();
let allLocations: MyLocation[] = [];

beforeAll(async () => {
  ({ sessions, allLocations } = await signInDemoUsers());
});

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
});
