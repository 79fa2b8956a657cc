// The locations domain verbs against a real database: organization admins open, archive and
// restore locations, a location admin edits their own, codes stay unique per organization, and
// every change writes its activity row in the same batch (none for a refusal).
import { eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitSessionCookie, getSessionUser } from "../../app/auth/session.server";
import { signIn } from "../../app/auth/sign-in.server";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { archiveLocation, restoreLocation } from "../../app/locations/archive.server";
import { createLocation } from "../../app/locations/create.server";
import { LocationForm } from "../../app/locations/forms";
import { listLocations, locationDetail } from "../../app/locations/list.server";
import { updateLocation } from "../../app/locations/update.server";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";

let t: TestDatabase;
const env = { SESSION_SECRET: "test-secret" } as Env;
let loc: Record<"DTN" | "WST" | "NTH", string>;

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
});
afterAll(() => t.close());

/** Signs in for real; `current()` reads the session again, as the next request would. */
async function session(email: string) {
  const result = await signIn(t.db, { email: `${email}@demo.clinic`, password: DEMO_PASSWORD, userAgent: "vitest" });
  if (!result.ok) throw new Error(result.message);
  const cookie = (await commitSessionCookie(env, new Request("http://clinic.test/"), result.token)).split(";")[0];
  const request = new Request("http://clinic.test/", { headers: { Cookie: cookie ?? "" } });
  const current = async () => {
    const user = await getSessionUser(env, t.db, request);
    if (!user) throw new Error("signed out");
    return user;
  };
  return { user: await current(), current };
}
const as = async (email: string) => (await session(email)).user;

async function expectNoActivity<T>(work: () => Promise<T>): Promise<T> {
  const before = await t.activityCount();
  const result = await work();
  expect(await t.activityCount()).toBe(before);
  return result;
}
async function location(id: string) {
  const [row] = await t.db.select().from(schema.locations).where(eq(schema.locations.id, id));
  return row;
}

const form = (fields: Partial<Record<"name" | "code" | "address" | "timezone", string>>) =>
  LocationForm.parse({ name: "Eastside", code: "EST", address: "1 East Road", timezone: "America/Chicago", ...fields });

describe("the location form", () => {
  it("trims and upper-cases the code, and spells the time zone the IANA way", () => {
    expect(form({ code: "  ab12 ", timezone: " europe/london ", address: "  " })).toEqual({
      name: "Eastside",
      code: "AB12",
      address: null,
      timezone: "Europe/London",
    });
  });

  it("says what is wrong with a code or a time zone", () => {
    const messages = (fields: Record<string, string>) =>
      LocationForm.safeParse({ name: "X", code: "ABC", address: "", timezone: "UTC", ...fields }).error?.issues.map(
        (i) => [i.path[0], i.message],
      );
    const codeRule = "Use 2 to 8 letters (A–Z) or digits (0–9), like DTN.";
    expect(messages({ code: "A" })).toEqual([["code", codeRule]]);
    expect(messages({ code: "ABCDEFGHI" })).toEqual([["code", codeRule]]);
    expect(messages({ code: "AB-1" })).toEqual([["code", codeRule]]);
    expect(messages({ timezone: "Mars/Olympus_Mons" })).toEqual([
      ["timezone", "Unknown time zone. Use an IANA name, like America/New_York."],
    ]);
    expect(messages({ name: "  " })).toEqual([["name", "Enter the location's name."]]);
  });
});

describe("createLocation", () => {
  it("lets an organization admin open a location, with its activity row, in one round trip", async () => {
    const owner = await as("owner");
    t.resetRoundTrips();
    const result = await createLocation(t.db, owner, form({}));
    expect(t.roundTrips()).toBe(1);
    if (!result.ok) throw new Error(result.message);
    expect(await location(result.locationId)).toMatchObject({
      name: "Eastside",
      code: "EST",
      address: "1 East Road",
      timezone: "America/Chicago",
      active: true,
    });
    expect(await t.lastActivity()).toMatchObject({
      action: "create_location",
      userId: owner.id,
      locationId: result.locationId,
      entity: "location",
      entityId: result.locationId,
      summary: { name: "Eastside", code: "EST", address: "1 East Road", timezone: "America/Chicago" },
    });
  });

  it("refuses a code already used in the organization, whatever case it was typed in", async () => {
    const owner = await as("owner");
    const result = await expectNoActivity(() => createLocation(t.db, owner, form({ name: "Copy", code: "dtn" })));
    expect(result).toEqual({
      ok: false,
      refusal: "code_taken",
      message: "A location with the code DTN already exists.",
    });
  });

  it("is for organization admins only", async () => {
    const admin = await as("admin");
    const result = await expectNoActivity(() => createLocation(t.db, admin, form({ code: "ADM" })));
    expect(result).toMatchObject({ ok: false, refusal: "forbidden" });
  });
});

describe("updateLocation", () => {
  it("lets a location admin edit their own location and logs before and after", async () => {
    const admin = await as("admin");
    t.resetRoundTrips();
    const result = await updateLocation(t.db, admin, {
      locationId: loc.DTN,
      ...form({ name: "Downtown Clinic", code: "DTN", address: "100 Main Street", timezone: "America/New_York" }),
    });
    expect(t.roundTrips()).toBe(1);
    expect(result).toEqual({ ok: true, changed: true });
    expect(await location(loc.DTN)).toMatchObject({ name: "Downtown Clinic", code: "DTN" });
    expect(await t.lastActivity()).toMatchObject({
      action: "update_location",
      userId: admin.id,
      locationId: loc.DTN,
      summary: {
        before: { name: "Downtown", code: "DTN", address: "100 Main Street", timezone: "America/New_York" },
        after: { name: "Downtown Clinic", code: "DTN", address: "100 Main Street", timezone: "America/New_York" },
      },
    });

    const unchanged = await expectNoActivity(() =>
      updateLocation(t.db, admin, {
        locationId: loc.DTN,
        ...form({ name: "Downtown Clinic", code: "DTN", address: "100 Main Street", timezone: "America/New_York" }),
      }),
    );
    expect(unchanged).toEqual({ ok: true, changed: false });
  });

  it("refuses another location's code, locations the actor does not administer, and unknown ids", async () => {
    const admin = await as("admin"); // ADMIN at DTN, MANAGER at WST
    const owner = await as("owner");
    const refusals = await expectNoActivity(async () => [
      await updateLocation(t.db, admin, { locationId: loc.DTN, ...form({ code: "WST" }) }),
      await updateLocation(t.db, admin, { locationId: loc.WST, ...form({ code: "WST" }) }),
      await updateLocation(t.db, admin, { locationId: loc.NTH, ...form({ code: "NTH" }) }),
      await updateLocation(t.db, owner, { locationId: uuidv7(), ...form({ code: "ZZZ" }) }),
    ]);
    expect(refusals.map((r) => !r.ok && r.refusal)).toEqual(["code_taken", "forbidden", "forbidden", "not_found"]);
    expect(await location(loc.WST)).toMatchObject({ name: "Westside", code: "WST" });
  });
});

describe("archiveLocation and restoreLocation", () => {
  it("archives a location out of every switcher and restores it, logging both", async () => {
    const owner = await session("owner");
    const multi = await session("multi"); // STAFF at DTN and NTH
    expect(multi.user.locationRoles.map((r) => r.location.code)).toEqual(["DTN", "NTH"]);

    t.resetRoundTrips();
    expect(await archiveLocation(t.db, owner.user, loc.NTH)).toMatchObject({ ok: true, code: "NTH" });
    expect(t.roundTrips()).toBe(1);
    expect(await t.lastActivity()).toMatchObject({
      action: "archive_location",
      locationId: loc.NTH,
      summary: { code: "NTH", before: { active: true }, after: { active: false } },
    });
    expect((await multi.current()).locationRoles.map((r) => r.location.code)).toEqual(["DTN"]);
    expect((await owner.current()).locationRoles.map((r) => r.location.code)).not.toContain("NTH");
    // Roles are kept, so restoring brings the location back for the same people.
    expect(await archiveLocation(t.db, owner.user, loc.NTH)).toMatchObject({ ok: false, refusal: "already_archived" });

    expect(await restoreLocation(t.db, owner.user, loc.NTH)).toMatchObject({ ok: true });
    expect(await t.lastActivity()).toMatchObject({ action: "restore_location", summary: { after: { active: true } } });
    expect((await multi.current()).locationRoles.map((r) => r.location.code)).toEqual(["DTN", "NTH"]);
    expect(await restoreLocation(t.db, owner.user, loc.NTH)).toMatchObject({ ok: false, refusal: "already_active" });
  });

  it("is for organization admins only, even for the location's own admin", async () => {
    const admin = await as("admin");
    const owner = await as("owner");
    const refusals = await expectNoActivity(async () => [
      await archiveLocation(t.db, admin, loc.DTN),
      await restoreLocation(t.db, admin, loc.DTN),
      await archiveLocation(t.db, owner, uuidv7()),
    ]);
    expect(refusals.map((r) => !r.ok && r.refusal)).toEqual(["forbidden", "forbidden", "not_found"]);
    expect(await location(loc.DTN)).toMatchObject({ active: true });
  });
});

describe("listing locations", () => {
  it("shows organization admins every location, active first then archived, in one round trip", async () => {
    const owner = await as("owner");
    await archiveLocation(t.db, owner, loc.WST);
    try {
      t.resetRoundTrips();
      const list = await listLocations(t.db, owner);
      expect(t.roundTrips()).toBe(1);
      expect(list.map((l) => [l.code, l.active])).toEqual([
        ["DTN", true],
        ["EST", true],
        ["NTH", true],
        ["WST", false],
      ]);
      expect(list.find((l) => l.code === "NTH")?.people).toBe(1);
    } finally {
      await restoreLocation(t.db, owner, loc.WST);
    }
  });

  it("shows everyone else only the active locations where they hold a role", async () => {
    const admin = await as("admin");
    expect((await listLocations(t.db, admin)).map((l) => l.code)).toEqual(["DTN", "WST"]);
    expect(await locationDetail(t.db, admin, loc.NTH)).toBeNull();
    expect(await locationDetail(t.db, admin, loc.WST)).toMatchObject({ code: "WST", name: "Westside" });
  });
});
