// The activity log against a real database: rows written in a quiet month of 2020 (no seed writes
// there) under old noun_verb names and today's verb_object ones (ADR 0027), at two locations and at
// none, read back by who may see them (organization mode, a location's admin and manager, staff
// refused), with every filter, by keyset pages, in one round trip; the screen's words and links;
// the CSV streamed a page per query with its words and raw codes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import { activityCsv } from "../../app/activity-log/csv.server";
import { activityPages, activityScreen, readActivityQuery } from "../../app/activity-log/list.server";
import { ActivityQuery } from "../../app/activity-log/query";
import type { SessionUser } from "../../app/auth/session.server";
import { schema } from "../../app/db/client.server";
import * as screenRoute from "../../app/routes/_app.activity-log";
import * as csvRoute from "../../app/routes/activity-log[.csv]";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { loadContext, pageRequest, signedIn, withLocationChoice } from "../support/screens";

let t: TestDatabase;
let loc: Record<"DTN" | "WST" | "NTH", string>;
const users = new Map<string, SessionUser>();
const cookies = new Map<string, string>();
const MONTH = { from: "2020-03-01", to: "2020-03-31" };
const T0 = Date.UTC(2020, 2, 10, 15);
const MINUTE = 60_000;
/** The rows written below, by name. */
const ids: Record<string, string> = {};

const at = (name: string, locationId: string | null): ScopedActor => {
  const user = users.get(name);
  if (!user) throw new Error(`no session for ${name}`);
  return { ...user, locationId };
};
const query = (fields: Record<string, string> = {}) => ActivityQuery.parse({ ...MONTH, ...fields });
/** The names of the rows a reader sees for `fields`, newest first (the first page, 100 a page). */
async function seen(actor: ScopedActor, fields: Record<string, string> = {}): Promise<string[]> {
  const screen = await activityScreen(t.db, actor, query({ pageSize: "100", ...fields }));
  const names = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
  return screen.items.map((e) => names.get(e.id) ?? e.id);
}

async function write(
  name: string,
  minutes: number,
  row: {
    action: string;
    entity: string;
    entityId?: string | null;
    userId?: string | null;
    locationId?: string | null;
    summary?: Record<string, unknown>;
  },
) {
  const id = `0000-${String(minutes).padStart(4, "0")}-${name}`;
  ids[name] = id;
  await t.db.insert(schema.activityLog).values({
    id,
    at: new Date(T0 + minutes * MINUTE),
    userId: row.userId ?? null,
    locationId: row.locationId ?? null,
    action: row.action,
    entity: row.entity,
    entityId: row.entityId ?? null,
    summary: row.summary ?? null,
  });
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "manager", "staff"]) {
    const { user, cookie } = await signedIn(t.db, name);
    users.set(name, user);
    cookies.set(name, cookie);
  }
  const id = (name: string) => users.get(name)?.id ?? "";
  // Downtown's admin's own catalogue change at no location: one row for them, not one per reason to see it.
  await write("adminOwnProduct", 0, {
    action: "product_archive",
    entity: "product",
    entityId: "product-1",
    userId: id("admin"),
    summary: { name: "Old Filler", before: { active: true }, after: { active: false } },
  });
  // An old-named catalogue change made in organization mode (no location), and a new-named one at Downtown.
  await write("oldVendor", 1, {
    action: "vendor_update",
    entity: "vendor",
    entityId: "vendor-1",
    userId: id("owner"),
    summary: { name: "Allergan", before: { email: "a@x.com" }, after: { email: "b@x.com" } },
  });
  await write("newVendor", 2, {
    action: "update_vendor",
    entity: "vendor",
    entityId: "vendor-1",
    userId: id("admin"),
    locationId: loc.DTN,
    summary: { name: "Allergan", before: { phone: null }, after: { phone: "555" } },
  });
  await write("oldAdjust", 3, {
    action: "stock_adjust",
    entity: "variation",
    entityId: "variation-1",
    userId: id("manager"),
    locationId: loc.WST,
    summary: { product: "Gauze", quantity: -2, unitScale: 1, baseUnit: "each", reason: "damaged" },
  });
  await write("newAdjust", 4, {
    action: "adjust_stock",
    entity: "variation",
    entityId: "variation-1",
    userId: id("staff"),
    locationId: loc.DTN,
    summary: { product: "Gauze", quantity: 5, unitScale: 1, baseUnit: "each", reason: "count_correction" },
  });
  await write("staffFailedSignIn", 5, {
    action: "sign_in_failed",
    entity: "user",
    entityId: id("staff"),
    userId: id("staff"),
    summary: { email: "staff@demo.clinic" },
  });
  await write("managerSignIn", 6, { action: "sign_in", entity: "session", entityId: "s-1", userId: id("manager") });
  await write("nightlyBackup", 7, { action: "create_backup", entity: "backup", entityId: "b-1" });
  await write("startAtWest", 8, {
    action: "start_vial",
    entity: "item",
    entityId: "item-1",
    userId: id("manager"),
    locationId: loc.WST,
    summary: { labelCode: "V-1", product: "Botox", variation: "100 U", lot: "A123" },
  });
  // Draws at Downtown for the pages: two of them at one instant (the id orders them).
  for (const n of [1, 2, 3, 4, 5, 6]) {
    await write(`draw${n}`, n === 6 ? 14 : 8 + n, {
      action: "draw_units",
      entity: "item",
      entityId: "item-2",
      userId: id("staff"),
      locationId: loc.DTN,
      summary: { labelCode: "V-2", unitsText: `${n} U` },
    });
  }
});

afterAll(async () => {
  await t?.close();
});

const DOWNTOWN = ["draw6", "draw5", "draw4", "draw3", "draw2", "draw1", "newAdjust", "newVendor"];

describe("who sees which rows", () => {
  it("shows an organization admin in organization mode everything, rows at no location included", async () => {
    expect(await seen(at("owner", ORGANIZATION))).toEqual([
      "draw6",
      "draw5",
      "draw4",
      "draw3",
      "draw2",
      "draw1",
      "startAtWest",
      "nightlyBackup",
      "managerSignIn",
      "staffFailedSignIn",
      "newAdjust",
      "oldAdjust",
      "newVendor",
      "oldVendor",
      "adminOwnProduct",
    ]);
    expect(await seen(at("owner", ORGANIZATION), { locationId: "none" })).toEqual([
      "nightlyBackup",
      "managerSignIn",
      "staffFailedSignIn",
      "oldVendor",
      "adminOwnProduct",
    ]);
    expect(await seen(at("owner", ORGANIZATION), { locationId: loc.WST })).toEqual(["startAtWest", "oldAdjust"]);
  });

  it("shows a location's admin its rows and the catalogue's organization-wide changes, not others' sign-ins or backups", async () => {
    expect(await seen(at("admin", loc.DTN))).toEqual([...DOWNTOWN, "oldVendor", "adminOwnProduct"]);
    expect(await seen(at("admin", loc.DTN), { locationId: loc.DTN })).toEqual(DOWNTOWN);
    expect(await seen(at("admin", loc.DTN), { locationId: "none" })).toEqual(["oldVendor", "adminOwnProduct"]);
    expect(await seen(at("admin", loc.DTN), { userId: users.get("admin")?.id ?? "" })).toEqual([
      "newVendor",
      "adminOwnProduct",
    ]);
    // Another location's rows are not there from here: switch location to see them.
    expect(await seen(at("admin", loc.DTN), { locationId: loc.WST })).toEqual([]);
  });

  it("shows a manager their location's rows, the catalogue's and their own sign-ins", async () => {
    expect(await seen(at("manager", loc.WST))).toEqual([
      "startAtWest",
      "managerSignIn",
      "oldAdjust",
      "oldVendor",
      "adminOwnProduct",
    ]);
    // Organization mode is not theirs, whatever the location choice says.
    expect(await seen(at("manager", ORGANIZATION))).toEqual([]);
    expect(await seen(at("admin", ORGANIZATION), { locationId: "none" })).toEqual([]);
  });

  it("shows nothing to staff, whose role has no READ_ACTIVITY, and the screen refuses them", async () => {
    expect(await seen(at("staff", loc.DTN))).toEqual([]);
    const cookie = await withLocationChoice(cookies.get("staff") ?? "", loc.DTN);
    const answer = await screenRoute
      .loader({ request: pageRequest("/activity-log", cookie), context: loadContext(t.db), params: {} })
      .catch((thrown: unknown) => thrown);
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(403);
    const csv = await csvRoute
      .loader({ request: pageRequest("/activity-log.csv", cookie), context: loadContext(t.db), params: {} })
      .catch((thrown: unknown) => thrown);
    expect((csv as Response).status).toBe(403);
  });
});

describe("filters", () => {
  it("finds old-named and new-named rows by today's action, whichever name is asked for", async () => {
    const owner = at("owner", ORGANIZATION);
    expect(await seen(owner, { action: "update_vendor" })).toEqual(["newVendor", "oldVendor"]);
    expect(await seen(owner, { action: "vendor_update" })).toEqual(["newVendor", "oldVendor"]);
    expect(await seen(owner, { action: "adjust_stock" })).toEqual(["newAdjust", "oldAdjust"]);
    expect(await seen(at("admin", loc.DTN), { action: "adjust_stock" })).toEqual(["newAdjust"]);
    expect(await seen(at("admin", loc.DTN), { action: "update_vendor" })).toEqual(["newVendor", "oldVendor"]);
  });

  it("filters by user (exactly, or by name or email), by entity and by dates in the location's zone", async () => {
    const owner = at("owner", ORGANIZATION);
    const staffId = users.get("staff")?.id ?? "";
    const staffRows = ["draw6", "draw5", "draw4", "draw3", "draw2", "draw1", "staffFailedSignIn", "newAdjust"];
    expect(await seen(owner, { userId: staffId })).toEqual(staffRows);
    expect(await seen(owner, { user: "Sam Sta" })).toEqual(staffRows);
    expect(await seen(owner, { user: "STAFF@demo" })).toEqual(staffRows);
    // A search finding several users lists nothing and offers them to choose; the choice wins over it.
    const several = await activityScreen(t.db, owner, query({ user: "@demo.clinic" }));
    expect(several.items).toEqual([]);
    expect(several.userChoices.map((u) => u.label)).toContain("Sam Staff (staff@demo.clinic)");
    expect(await seen(owner, { user: "@demo.clinic", userId: staffId })).toEqual(staffRows);
    expect((await activityScreen(t.db, owner, query({ user: "Sam Sta" }))).userChoices).toEqual([]);
    expect(await seen(owner, { entity: "vendor" })).toEqual(["newVendor", "oldVendor"]);
    expect(await seen(at("manager", loc.WST), { entity: "session" })).toEqual(["managerSignIn"]);
    expect(await seen(at("admin", loc.DTN), { entity: "item", userId: staffId })).toEqual(DOWNTOWN.slice(0, 6));
    // The 10th of March 2020 in UTC and in New York (15:00 UTC is 11:00 there): all of them; the 11th: none.
    expect(await seen(owner, { from: "2020-03-10", to: "2020-03-10" })).toHaveLength(15);
    expect(await seen(owner, { from: "2020-03-11", to: "2020-03-31" })).toEqual([]);
  });

  it("says what is wrong with a filter it cannot use instead of dropping it", () => {
    const { problems } = readActivityQuery(
      new URLSearchParams({ action: "teleport", entity: "spaceship", from: "soon" }),
    );
    expect(Object.keys(problems).sort()).toEqual(["action", "entity", "from"]);
  });
});

describe("pages", () => {
  it("walks the list by keyset, forwards and back, with a capped count, each page and count in one round trip", async () => {
    const owner = at("owner", ORGANIZATION);
    const all = await seen(owner);
    const names = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
    const walked: string[] = [];
    let asked = query({ pageSize: "4" });
    const pages = [];
    for (;;) {
      t.resetRoundTrips();
      const page = await activityScreen(t.db, owner, asked);
      expect(t.roundTrips()).toBe(1);
      expect(page.total).toBe(15);
      expect(page.totalExact).toBe(true);
      pages.push(page);
      walked.push(...page.items.map((e) => names.get(e.id) ?? e.id));
      if (!page.next) break;
      asked = query({ pageSize: "4", after: page.next });
    }
    expect(walked).toEqual(all);
    expect(pages).toHaveLength(4);
    // Back from the second page: the first.
    const back = await activityScreen(t.db, owner, query({ pageSize: "4", before: pages[1]?.previous ?? "" }));
    expect(back.items.map((e) => e.id)).toEqual(pages[0]?.items.map((e) => e.id));
    // A location reader's two parts (the location's rows, the catalogue's) page as one list.
    const admin = at("admin", loc.DTN);
    const adminPages: string[] = [];
    let next: string | null = null;
    do {
      const page = await activityScreen(t.db, admin, query({ pageSize: "3", ...(next ? { after: next } : {}) }));
      adminPages.push(...page.items.map((e) => names.get(e.id) ?? e.id));
      next = page.next;
    } while (next);
    expect(adminPages).toEqual([...DOWNTOWN, "oldVendor", "adminOwnProduct"]);
  });
});

describe("the screen", () => {
  it("says each row in words with its link, whoever did it by name, and the same words for old and new names", async () => {
    const cookie = await withLocationChoice(cookies.get("owner") ?? "", ORGANIZATION);
    t.resetRoundTrips();
    const data = (await screenRoute.loader({
      request: pageRequest(`/activity-log?from=${MONTH.from}&to=${MONTH.to}&entity=vendor`, cookie),
      context: loadContext(t.db),
      params: {},
    })) as Awaited<ReturnType<typeof screenRoute.loader>>;
    // The session, then the page: its rows, count, locations and chosen user in one batch.
    expect(t.roundTrips()).toBe(2);
    expect(data.rows.map((r) => [r.text, r.href, r.who, r.where])).toEqual([
      ["Changed vendor Allergan: phone", "/vendors/vendor-1", "Adam Admin", "DTN"],
      ["Changed vendor Allergan: email", "/vendors/vendor-1", "Olivia Owner", null],
    ]);
    expect(data.rows[0]?.whoHref).toMatch(/^\/activity-log\?.*userId=/);
    expect(data.csv).toBe(`/activity-log.csv?from=${MONTH.from}&to=${MONTH.to}&entity=vendor`);

    const nobody = (await screenRoute.loader({
      request: pageRequest(`/activity-log?from=${MONTH.from}&to=${MONTH.to}&action=create_backup`, cookie),
      context: loadContext(t.db),
      params: {},
    })) as Awaited<ReturnType<typeof screenRoute.loader>>;
    expect(nobody.rows.map((r) => [r.text, r.href, r.who, r.nobody])).toEqual([
      ["Made a backup", "/backup-restore", null, "The system"],
    ]);
  });
});

describe("the CSV", () => {
  it("streams the filtered rows a page per query, with their words, links and raw action codes", async () => {
    const owner = at("owner", ORGANIZATION);
    t.resetRoundTrips();
    const response = activityCsv(t.db, owner, query({ action: "update_vendor" }), { pageSize: 1 });
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="activity-log-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("At (UTC),At (location time),User,Location,What happened,Link,Action code,Entity,Entity id");
    expect(lines.slice(1).map((l) => l.split(",").slice(-7))).toEqual([
      [
        "Adam Admin",
        "Downtown (DTN)",
        "Changed vendor Allergan: phone",
        "/vendors/vendor-1",
        "update_vendor",
        "vendor",
        "vendor-1",
      ],
      [
        "Olivia Owner",
        "",
        "Changed vendor Allergan: email",
        "/vendors/vendor-1",
        "vendor_update",
        "vendor",
        "vendor-1",
      ],
    ]);
    // One query a page of one: the first reads one beyond it (so there is more), the second reads no more.
    expect(t.roundTrips()).toBe(2);
  });

  it("walks every page of a location reader's list, and the route refuses a filter it cannot use", async () => {
    const pages = [];
    for await (const page of activityPages(t.db, at("admin", loc.DTN), query(), 2)) pages.push(page.length);
    expect(pages).toEqual([2, 2, 2, 2, 2]);
    const cookie = await withLocationChoice(cookies.get("owner") ?? "", ORGANIZATION);
    const refused = (await csvRoute.loader({
      request: pageRequest("/activity-log.csv?action=teleport", cookie),
      context: loadContext(t.db),
      params: {},
    })) as Response;
    expect(refused.status).toBe(400);
    const ok = (await csvRoute.loader({
      request: pageRequest(`/activity-log.csv?from=${MONTH.from}&to=${MONTH.to}&action=create_backup`, cookie),
      context: loadContext(t.db),
      params: {},
    })) as Response;
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("Made a backup,/backup-restore,create_backup,backup,b-1");
  });
});
