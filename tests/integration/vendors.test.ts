import { count, eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import * as vendorsScreen from "../../app/routes/_app.vendors._index";
import * as vendorScreen from "../../app/routes/_app.vendors.$vendorId";
import * as newVendorScreen from "../../app/routes/_app.vendors.new";
import { archiveVendor, restoreVendor } from "../../app/vendors/archive.server";
import { createVendor } from "../../app/vendors/create.server";
import { VENDOR_MESSAGES, VendorEditForm, VendorForm, type VendorInput } from "../../app/vendors/forms";
import { listVendors, vendorChoices, vendorDetail } from "../../app/vendors/list.server";
import { VENDOR_REFUSALS } from "../../app/vendors/outcome";
import { updateVendor } from "../../app/vendors/update.server";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { formRequest, loadContext, outcome, pageRequest, signedIn, withLocationChoice } from "../support/screens";

let t: TestDatabase;
const env = { SESSION_SECRET: "test-secret" } as Env;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let organizationId: string;

const STALE =
  "Someone else changed this vendor while you were editing. Your changes were not saved: review the current values and save again.";

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc, organizationId } = await demoLocations(t.db));
});
afterAll(() => t.close());

/** Signs in for real: the session user and its cookie, exactly what a route sees. */
const session = (name: string) => signedIn(t.db, name, env);

/** The actor a route hands a vendor verb: the user and the location in scope ("all" = organization mode). */
async function as(name: string, where: "DTN" | "WST" | "NTH" | typeof ORGANIZATION) {
  const { user } = await session(name);
  return actorOf(user, where);
}
function actorOf(user: SessionUser, where: "DTN" | "WST" | "NTH" | typeof ORGANIZATION) {
  return { ...user, locationId: where === ORGANIZATION ? ORGANIZATION : loc[where] };
}

async function expectNoActivity<T>(work: () => Promise<T>): Promise<T> {
  const before = await t.activityCount();
  const result = await work();
  expect(await t.activityCount()).toBe(before);
  return result;
}
async function vendor(id: string) {
  const [row] = await t.db.select().from(schema.vendors).where(eq(schema.vendors.id, id));
  return row;
}

let seq = 0;
/** A valid vendor form, parsed as the route parses it; unique name unless given. */
const fields = (overrides: Record<string, string> = {}): VendorInput =>
  VendorForm.parse({
    name: `Vendor ${++seq}`,
    accountNumber: "ACCT-001",
    contactName: "Pat Rep",
    email: "Orders@Vendor.example",
    phone: "(555) 123-4567",
    leadTimeDays: "5",
    notes: "",
    ...overrides,
  });

async function newVendor(overrides: Record<string, string> = {}) {
  const owner = await as("owner", ORGANIZATION);
  const result = await createVendor(t.db, owner, fields(overrides));
  if (!result.ok) throw new Error(result.message);
  return result.vendorId;
}

async function newProduct(name: string, defaultVendorId: string | null, active = true) {
  const id = uuidv7();
  await t.db.insert(schema.products).values({
    id,
    organizationId,
    name,
    category: "Supplies",
    tracking: "bulk",
    baseUnit: "each",
    defaultVendorId,
    active,
  });
  return id;
}

describe("the vendor form", () => {
  it("trims, lower-cases the email, and turns empty optional fields into nothing", () => {
    expect(
      VendorForm.parse({
        name: "  Allergan Aesthetics ",
        accountNumber: " ",
        contactName: "",
        email: "  Orders@Allergan.COM ",
        phone: "",
        leadTimeDays: " 0 ",
        notes: "  ",
      }),
    ).toEqual({
      name: "Allergan Aesthetics",
      accountNumber: null,
      contactName: null,
      email: "orders@allergan.com",
      phone: null,
      leadTimeDays: 0,
      notes: null,
    });
    expect(VendorForm.parse({ name: "Only a name" })).toMatchObject({ email: null, leadTimeDays: null });
  });

  it("says what is wrong with each field", () => {
    const messages = (overrides: Record<string, string>) =>
      VendorForm.safeParse({ name: "X", ...overrides }).error?.issues.map((i) => [i.path[0], i.message]);
    expect(messages({ name: "   " })).toEqual([["name", VENDOR_MESSAGES.name]]);
    expect(messages({ name: "n".repeat(201) })).toEqual([["name", VENDOR_MESSAGES.nameTooLong]]);
    expect(messages({ email: "orders@" })).toEqual([["email", VENDOR_MESSAGES.email]]);
    expect(messages({ accountNumber: "A/C 12#4" })).toBeUndefined();
    expect(messages({ accountNumber: "ACCT;DROP" })).toEqual([["accountNumber", VENDOR_MESSAGES.accountNumber]]);
    expect(messages({ accountNumber: "1".repeat(51) })).toEqual([
      ["accountNumber", VENDOR_MESSAGES.accountNumberTooLong],
    ]);
    expect(messages({ contactName: "c".repeat(101) })).toEqual([["contactName", VENDOR_MESSAGES.contactNameTooLong]]);
    expect(messages({ phone: "+1 (555) 123-4567 x12" })).toBeUndefined();
    expect(messages({ phone: "call me" })).toEqual([["phone", VENDOR_MESSAGES.phone]]);
    expect(messages({ phone: "12-34" })).toEqual([["phone", VENDOR_MESSAGES.phone]]);
    expect(messages({ leadTimeDays: "365" })).toBeUndefined();
    for (const days of ["366", "-1", "2.5", "two"]) {
      expect(messages({ leadTimeDays: days })).toEqual([["leadTimeDays", VENDOR_MESSAGES.leadTime]]);
    }
    expect(VENDOR_MESSAGES.leadTime).toBe(
      "Enter the lead time as a whole number of days from 0 to 365, or leave it empty.",
    );
    expect(messages({ notes: "n".repeat(2001) })).toEqual([["notes", VENDOR_MESSAGES.notesTooLong]]);
    expect(VendorEditForm.safeParse({ name: "X", version: "x" }).error?.issues[0]?.message).toBe(
      VENDOR_MESSAGES.version,
    );
  });
});

describe("createVendor", () => {
  it("adds a vendor with its activity row in one round trip, filed at the location in scope", async () => {
    const admin = await as("admin", "DTN"); // ADMIN at Downtown
    t.resetRoundTrips();
    const result = await createVendor(t.db, admin, fields({ name: "McKesson Medical" }));
    expect(t.roundTrips()).toBe(1);
    if (!result.ok) throw new Error(result.message);
    expect(await vendor(result.vendorId)).toMatchObject({
      organizationId,
      name: "McKesson Medical",
      accountNumber: "ACCT-001",
      contactName: "Pat Rep",
      email: "orders@vendor.example",
      phone: "(555) 123-4567",
      leadTimeDays: 5,
      notes: null,
      active: true,
      version: 1,
    });
    expect(await t.lastActivity()).toMatchObject({
      action: "create_vendor",
      userId: admin.id,
      locationId: loc.DTN,
      entity: "vendor",
      entityId: result.vendorId,
      summary: {
        name: "McKesson Medical",
        accountNumber: "ACCT-001",
        contactName: "Pat Rep",
        email: "orders@vendor.example",
        phone: "(555) 123-4567",
        leadTimeDays: 5,
        notes: null,
      },
    });
  });

  it("files an organization admin's vendor at no location in organization mode", async () => {
    const owner = await as("owner", ORGANIZATION);
    const result = await createVendor(t.db, owner, fields({ name: "Organization Mode Supply" }));
    expect(result).toMatchObject({ ok: true });
    expect(await t.lastActivity()).toMatchObject({ action: "create_vendor", userId: owner.id, locationId: null });
  });

  it("refuses a name the organization already uses, whatever its case, with a clear message", async () => {
    const owner = await as("owner", ORGANIZATION);
    for (const name of ["McKesson Medical", "mckesson medical", "MCKESSON MEDICAL"]) {
      const result = await expectNoActivity(() => createVendor(t.db, owner, fields({ name })));
      expect(result).toEqual({
        ok: false,
        refusal: "name_taken",
        message: `A vendor named ${name} already exists. Choose a different name, or edit that vendor.`,
      });
    }
    const [row] = await t.db
      .select({ n: count() })
      .from(schema.vendors)
      .where(eq(schema.vendors.name, "McKesson Medical"));
    expect(row?.n).toBe(1);
  });

  it("is refused without WRITE_VENDORS at the location in scope", async () => {
    const actors = [
      await as("manager", "WST"), // MANAGER: READ_VENDORS only
      await as("admin", "WST"), // ADMIN at DTN, but MANAGER here
      await as("staff", "DTN"),
      await as("admin", ORGANIZATION), // organization mode is for organization admins only
    ];
    const refusals = await expectNoActivity(() => Promise.all(actors.map((a) => createVendor(t.db, a, fields()))));
    expect(refusals).toEqual(Array(4).fill({ ok: false, refusal: "forbidden", message: VENDOR_REFUSALS.forbidden }));
  });
});

describe("updateVendor", () => {
  it("saves the version it started from, bumps it, and logs only what changed", async () => {
    const vendorId = await newVendor({ name: "Medline" });
    const admin = await as("admin", "DTN");
    t.resetRoundTrips();
    const result = await updateVendor(t.db, admin, {
      vendorId,
      version: 1,
      ...fields({ name: "Medline Industries", leadTimeDays: "7" }),
    });
    expect(t.roundTrips()).toBe(1);
    expect(result).toEqual({ ok: true, changed: true, version: 2 });
    expect(await vendor(vendorId)).toMatchObject({ name: "Medline Industries", leadTimeDays: 7, version: 2 });
    expect(await t.lastActivity()).toMatchObject({
      action: "update_vendor",
      userId: admin.id,
      locationId: loc.DTN,
      entity: "vendor",
      entityId: vendorId,
      summary: {
        name: "Medline Industries",
        before: { name: "Medline", leadTimeDays: 5 },
        after: { name: "Medline Industries", leadTimeDays: 7 },
      },
    });
    const summary = (await t.lastActivity())?.summary as { before: object; after: object };
    expect(Object.keys(summary.before).sort()).toEqual(["leadTimeDays", "name"]);
    expect(Object.keys(summary.after).sort()).toEqual(["leadTimeDays", "name"]);
  });

  it("refuses a save made from an old version: nothing changes and nothing is logged", async () => {
    const vendorId = await newVendor();
    const owner = await as("owner", ORGANIZATION);
    // Two people open the edit form at version 1; the first saves.
    const first = await updateVendor(t.db, owner, { vendorId, version: 1, ...fields({ name: "First save" }) });
    expect(first).toMatchObject({ ok: true, changed: true, version: 2 });
    const second = await expectNoActivity(() =>
      updateVendor(t.db, owner, { vendorId, version: 1, ...fields({ name: "Second save", notes: "mine" }) }),
    );
    expect(second).toEqual({ ok: false, refusal: "stale", message: STALE });
    expect(await vendor(vendorId)).toMatchObject({ name: "First save", notes: null, version: 2 });

    // Reviewing the current values and saving again works.
    const again = await updateVendor(t.db, owner, { vendorId, version: 2, ...fields({ name: "Second save" }) });
    expect(again).toEqual({ ok: true, changed: true, version: 3 });
  });

  it("changes nothing, logs nothing and keeps the version when nothing differs", async () => {
    const values = fields();
    const owner = await as("owner", ORGANIZATION);
    const created = await createVendor(t.db, owner, values);
    if (!created.ok) throw new Error(created.message);
    const result = await expectNoActivity(() =>
      updateVendor(t.db, owner, { vendorId: created.vendorId, version: 1, ...values }),
    );
    expect(result).toEqual({ ok: true, changed: false, version: 1 });
    expect(await vendor(created.vendorId)).toMatchObject({ version: 1, updatedAt: null });
  });

  it("refuses another vendor's name in any case, but lets a vendor change its own name's case", async () => {
    const taken = await newVendor({ name: "Cardinal Health" });
    const vendorId = await newVendor({ name: "Owens & Minor" });
    const owner = await as("owner", ORGANIZATION);
    const clash = await expectNoActivity(() =>
      updateVendor(t.db, owner, { vendorId, version: 1, ...fields({ name: "CARDINAL HEALTH" }) }),
    );
    expect(clash).toEqual({
      ok: false,
      refusal: "name_taken",
      message: "A vendor named CARDINAL HEALTH already exists. Choose a different name, or edit that vendor.",
    });
    expect(await vendor(vendorId)).toMatchObject({ name: "Owens & Minor", version: 1 });
    const recased = await updateVendor(t.db, owner, {
      vendorId: taken,
      version: 1,
      ...fields({ name: "CARDINAL HEALTH" }),
    });
    expect(recased).toMatchObject({ ok: true, changed: true });
  });

  it("refuses without WRITE_VENDORS, and says not found for unknown vendors or another organization's", async () => {
    const vendorId = await newVendor({ name: "Untouched" });
    const foreignOrganization = uuidv7();
    const foreignVendor = uuidv7();
    await t.db.batch([
      t.db.insert(schema.organizations).values({ id: foreignOrganization, name: "Other Clinics" }),
      t.db.insert(schema.vendors).values({ id: foreignVendor, organizationId: foreignOrganization, name: "Theirs" }),
    ]);
    const owner = await as("owner", ORGANIZATION);
    const manager = await as("manager", "WST");
    const staff = await as("staff", "DTN");
    const refusals = await expectNoActivity(async () => [
      await updateVendor(t.db, manager, { vendorId, version: 1, ...fields() }),
      await updateVendor(t.db, staff, { vendorId, version: 1, ...fields() }),
      await updateVendor(t.db, owner, { vendorId: uuidv7(), version: 1, ...fields() }),
      await updateVendor(t.db, owner, { vendorId: foreignVendor, version: 1, ...fields() }),
      await archiveVendor(t.db, owner, foreignVendor),
    ]);
    expect(refusals.map((r) => !r.ok && r.refusal)).toEqual([
      "forbidden",
      "forbidden",
      "not_found",
      "not_found",
      "not_found",
    ]);
    expect(await vendor(vendorId)).toMatchObject({ name: "Untouched", version: 1 });
    expect(await vendor(foreignVendor)).toMatchObject({ name: "Theirs", active: true });
    expect(await vendorDetail(t.db, owner, foreignVendor)).toBeNull();
  });
});

describe("archiveVendor and restoreVendor", () => {
  it("archives and restores (never deletes), logging both; products keep their vendor", async () => {
    const vendorId = await newVendor({ name: "Archive Test Supply" });
    const productId = await newProduct("Restylane Lyft", vendorId);
    const admin = await as("admin", "DTN");
    t.resetRoundTrips();
    expect(await archiveVendor(t.db, admin, vendorId)).toEqual({ ok: true, name: "Archive Test Supply" });
    expect(t.roundTrips()).toBe(1);
    expect(await vendor(vendorId)).toMatchObject({ active: false, version: 2 });
    expect(await t.lastActivity()).toMatchObject({
      action: "archive_vendor",
      userId: admin.id,
      locationId: loc.DTN,
      entity: "vendor",
      entityId: vendorId,
      summary: { name: "Archive Test Supply", before: { active: true }, after: { active: false } },
    });
    const [product] = await t.db.select().from(schema.products).where(eq(schema.products.id, productId));
    expect(product?.defaultVendorId).toBe(vendorId);

    // No longer offered as a default vendor, except to the product that already has it.
    const offered = async (keep: string | null) =>
      (await vendorChoices(t.db, admin, keep)).map((v) => v.id).includes(vendorId);
    expect(await offered(null)).toBe(false);
    expect(await offered(vendorId)).toBe(true);

    // An edit form opened before the archive is out of date.
    expect(await updateVendor(t.db, admin, { vendorId, version: 1, ...fields() })).toMatchObject({ refusal: "stale" });
    expect(await expectNoActivity(() => archiveVendor(t.db, admin, vendorId))).toEqual({
      ok: false,
      refusal: "already_archived",
      message: "This vendor is already archived.",
    });

    expect(await restoreVendor(t.db, admin, vendorId)).toEqual({ ok: true, name: "Archive Test Supply" });
    expect(await t.lastActivity()).toMatchObject({
      action: "restore_vendor",
      summary: { before: { active: false }, after: { active: true } },
    });
    expect(await vendor(vendorId)).toMatchObject({ active: true, version: 3 });
    expect(await offered(null)).toBe(true);
    expect(await expectNoActivity(() => restoreVendor(t.db, admin, vendorId))).toMatchObject({
      refusal: "already_active",
      message: "This vendor is already active.",
    });
  });

  it("is refused without WRITE_VENDORS", async () => {
    const vendorId = await newVendor();
    const manager = await as("manager", "WST");
    const staff = await as("staff", "DTN");
    const refusals = await expectNoActivity(async () => [
      await archiveVendor(t.db, manager, vendorId),
      await restoreVendor(t.db, staff, vendorId),
    ]);
    expect(refusals.map((r) => !r.ok && r.refusal)).toEqual(["forbidden", "forbidden"]);
    expect(await vendor(vendorId)).toMatchObject({ active: true });
  });
});

describe("reading vendors", () => {
  it("lists 25 a page, active first by name, searching name, account number, contact and email", async () => {
    const owner = await as("owner", ORGANIZATION);
    for (let i = 0; i < 26; i++) {
      await newVendor({
        name: `Bulk Supplier ${String(i).padStart(2, "0")}`,
        accountNumber: `BS-${i}`,
        contactName: i === 3 ? "Quinn Zebra" : "Rep",
        email: i === 4 ? "zzz@bulk.example" : "",
      });
    }
    const archivedId = await newVendor({ name: "Bulk Supplier Archived" });
    await archiveVendor(t.db, owner, archivedId);
    await newProduct("Gauze", archivedId);
    await newProduct("Tape", archivedId, false);

    t.resetRoundTrips();
    const first = await listVendors(t.db, owner, { q: "bulk supplier", status: "active", page: 1 });
    expect(t.roundTrips()).toBe(1);
    expect(first).toMatchObject({ total: 26, page: 1, pageCount: 2 });
    expect(first.vendors).toHaveLength(25);
    expect(first.vendors[0]?.name).toBe("Bulk Supplier 00");
    const second = await listVendors(t.db, owner, { q: "bulk supplier", status: "active", page: 2 });
    expect(second.vendors.map((v) => v.name)).toEqual(["Bulk Supplier 25"]);

    const names = async (q: string, status: "active" | "archived" | "all" = "active") =>
      (await listVendors(t.db, owner, { q, status, page: 1 })).vendors.map((v) => v.name);
    expect(await names("bs-12")).toEqual(["Bulk Supplier 12"]);
    expect(await names("quinn")).toEqual(["Bulk Supplier 03"]);
    expect(await names("ZZZ@BULK")).toEqual(["Bulk Supplier 04"]);
    expect(await names("100%")).toEqual([]);
    expect(await names("bulk supplier archived")).toEqual([]);
    expect(await names("bulk supplier archived", "archived")).toEqual(["Bulk Supplier Archived"]);
    const all = await listVendors(t.db, owner, { q: "bulk supplier", status: "all", page: 2 });
    expect(all.vendors.map((v) => [v.name, v.active, v.products])).toEqual([
      ["Bulk Supplier 25", true, 0],
      ["Bulk Supplier Archived", false, 2],
    ]);
  });

  it("shows a vendor with how many products have it as default vendor and the first 25, in one round trip", async () => {
    const vendorId = await newVendor({ name: "Many Products Inc" });
    for (let i = 0; i < 27; i++) await newProduct(`Item ${String(i).padStart(2, "0")}`, vendorId, i !== 0);
    const manager = await as("manager", "WST");
    t.resetRoundTrips();
    const detail = await vendorDetail(t.db, manager, vendorId);
    expect(t.roundTrips()).toBe(1);
    expect(detail?.vendor).toMatchObject({ name: "Many Products Inc", version: 1, active: true });
    expect(detail?.productCount).toBe(27);
    expect(detail?.products).toHaveLength(25);
    // Active first, by name; the archived one is counted but listed last.
    expect(detail?.products[0]).toMatchObject({ name: "Item 01", active: true });
    expect(await vendorDetail(t.db, manager, uuidv7())).toBeNull();
  });
});

// ---- The screens: loaders and actions as the worker runs them ----

const context = () => loadContext(t.db, env);

async function cookieFor(name: string, where?: "DTN" | "WST" | "NTH" | typeof ORGANIZATION) {
  const { cookie } = await session(name);
  return withLocationChoice(cookie, where === ORGANIZATION ? ORGANIZATION : where && loc[where]);
}

const get = pageRequest;
const post = formRequest;

/** What a loader or action answered (or threw): its status and data. */

const formOf = (values: VendorInput, extra: Record<string, string> = {}) => ({
  name: values.name,
  accountNumber: values.accountNumber ?? "",
  contactName: values.contactName ?? "",
  email: values.email ?? "",
  phone: values.phone ?? "",
  leadTimeDays: values.leadTimeDays === null ? "" : String(values.leadTimeDays),
  notes: values.notes ?? "",
  ...extra,
});

describe("the vendor screens", () => {
  it("list and detail cost one round trip beyond the session lookup; managers read but may not write", async () => {
    const vendorId = await newVendor({ name: "Screen Vendor" });
    const cookie = await cookieFor("manager");
    t.resetRoundTrips();
    const list = await outcome(() =>
      vendorsScreen.loader({ request: get("/vendors?q=screen", cookie), context: context(), params: {} }),
    );
    expect(t.roundTrips()).toBe(2);
    expect(list).toMatchObject({ status: 200, data: { total: 1, canWrite: false, q: "screen" } });

    t.resetRoundTrips();
    const detail = await outcome(() =>
      vendorScreen.loader({ request: get(`/vendors/${vendorId}`, cookie), context: context(), params: { vendorId } }),
    );
    expect(t.roundTrips()).toBe(2);
    expect(detail).toMatchObject({ status: 200, data: { vendor: { name: "Screen Vendor" }, canWrite: false } });

    // A forged save, archive or creation is refused before anything is read or written.
    const refusals = await expectNoActivity(async () => [
      await outcome(() =>
        vendorScreen.action({
          request: post(
            `/vendors/${vendorId}`,
            cookie,
            formOf(fields({ name: "Hijacked" }), { intent: "update", version: "1" }),
          ),
          context: context(),
          params: { vendorId },
        }),
      ),
      await outcome(() =>
        vendorScreen.action({
          request: post(`/vendors/${vendorId}`, cookie, { intent: "archive" }),
          context: context(),
          params: { vendorId },
        }),
      ),
      await outcome(() =>
        newVendorScreen.action({
          request: post("/vendors/new", cookie, formOf(fields())),
          context: context(),
          params: {},
        }),
      ),
      await outcome(() =>
        newVendorScreen.loader({ request: get("/vendors/new", cookie), context: context(), params: {} }),
      ),
    ]);
    expect(refusals.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    expect(await vendor(vendorId)).toMatchObject({ name: "Screen Vendor", active: true });
  });

  it("refuses staff (no READ_VENDORS) the list and the detail", async () => {
    const vendorId = await newVendor();
    const cookie = await cookieFor("staff");
    const list = await outcome(() =>
      vendorsScreen.loader({ request: get("/vendors", cookie), context: context(), params: {} }),
    );
    const detail = await outcome(() =>
      vendorScreen.loader({ request: get(`/vendors/${vendorId}`, cookie), context: context(), params: { vendorId } }),
    );
    expect([list.status, detail.status]).toEqual([403, 403]);
  });

  it("creates, edits, refuses a stale save with the current values, and archives through the actions", async () => {
    const cookie = await cookieFor("admin", "DTN");
    const created = await outcome(() =>
      newVendorScreen.action({
        request: post("/vendors/new", cookie, formOf(fields({ name: "Action Vendor" }))),
        context: context(),
        params: {},
      }),
    );
    expect(created.status).toBe(302);
    const vendorId = created.location?.split("/").pop() ?? "";
    expect(await vendor(vendorId)).toMatchObject({ name: "Action Vendor" });

    const duplicate = await outcome(() =>
      newVendorScreen.action({
        request: post("/vendors/new", cookie, formOf(fields({ name: "action vendor" }))),
        context: context(),
        params: {},
      }),
    );
    expect(duplicate).toMatchObject({
      status: 409,
      data: {
        fieldErrors: {
          name: "A vendor named action vendor already exists. Choose a different name, or edit that vendor.",
        },
        values: { name: "action vendor" },
      },
    });

    const invalid = await outcome(() =>
      newVendorScreen.action({
        request: post("/vendors/new", cookie, formOf(fields(), { email: "nope", leadTimeDays: "400" })),
        context: context(),
        params: {},
      }),
    );
    expect(invalid).toMatchObject({
      status: 400,
      data: {
        fieldErrors: { email: VENDOR_MESSAGES.email, leadTimeDays: VENDOR_MESSAGES.leadTime },
        values: { email: "nope" },
      },
    });

    const save = (version: string, name: string) =>
      outcome(() =>
        vendorScreen.action({
          request: post(`/vendors/${vendorId}`, cookie, formOf(fields({ name }), { intent: "update", version })),
          context: context(),
          params: { vendorId },
        }),
      );
    expect(await save("1", "Action Vendor Renamed")).toMatchObject({ status: 302, location: `/vendors/${vendorId}` });
    expect(await save("1", "Lost Update")).toMatchObject({
      status: 409,
      data: { intent: "update", formError: STALE, values: null, conflict: true },
    });
    expect(await vendor(vendorId)).toMatchObject({ name: "Action Vendor Renamed", version: 2 });

    expect(
      await outcome(() =>
        vendorScreen.action({
          request: post(`/vendors/${vendorId}`, cookie, { intent: "archive" }),
          context: context(),
          params: { vendorId },
        }),
      ),
    ).toMatchObject({ status: 302 });
    expect(await vendor(vendorId)).toMatchObject({ active: false });
    expect(
      await outcome(() =>
        vendorScreen.action({
          request: post(`/vendors/${vendorId}`, cookie, { intent: "archive" }),
          context: context(),
          params: { vendorId },
        }),
      ),
    ).toMatchObject({ status: 409, data: { formError: "This vendor is already archived." } });
  });
});
