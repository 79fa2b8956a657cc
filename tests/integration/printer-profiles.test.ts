import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { archivePrinterProfile, restorePrinterProfile } from "../../app/printers/archive.server";
import { createPrinterProfile } from "../../app/printers/create.server";
import { PRINTER_PROFILE_MESSAGES, PrinterProfileEditForm, PrinterProfileForm } from "../../app/printers/forms";
import { printerProfileDetail, printerSettings } from "../../app/printers/list.server";
import { makeDefaultPrinterProfile } from "../../app/printers/make-default.server";
import { PRINTER_PROFILE_REFUSALS } from "../../app/printers/outcome";
import { updatePrinterProfile } from "../../app/printers/update.server";
import * as settingsScreen from "../../app/routes/_app.printer-settings._index";
import * as profileScreen from "../../app/routes/_app.printer-settings.$profileId._index";
import * as testPrintScreen from "../../app/routes/_app.printer-settings.$profileId.test-print";
import * as newProfileScreen from "../../app/routes/_app.printer-settings.new";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { formRequest, loadContext, outcome, pageRequest, signedIn, withLocationChoice } from "../support/screens";

let t: TestDatabase;
const env = { SESSION_SECRET: "test-secret" } as Env;
type Code = "DTN" | "WST" | "NTH";
let loc: Record<Code, string>;

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  // The demo seed gives every location a default profile; these tests start from locations with none
  // (what a new clinic sees) and make the profiles they need.
  await t.db.delete(schema.printerProfiles);
  // Signed in up front: a sign-in writes its own activity row.
  for (const name of ["owner", "admin", "manager", "staff", "multi"]) await as(name);
});
afterAll(() => t.close());

const session = (name: string) => signedIn(t.db, name, env);
const actors = new Map<string, ScopedActor>();
/** `name` at the location they work at first (the owner in organization mode): where profiles are reached. */
async function as(name: string): Promise<ScopedActor> {
  const known = actors.get(name);
  if (known) return known;
  const { user } = await session(name);
  const locationId = user.organizationRole ? ORGANIZATION : (user.locationRoles[0]?.locationId ?? null);
  const actor = { ...user, locationId };
  actors.set(name, actor);
  return actor;
}

async function expectNoActivity<T>(work: () => Promise<T>): Promise<T> {
  const before = await t.activityCount();
  const result = await work();
  expect(await t.activityCount()).toBe(before);
  return result;
}
async function profile(id: string) {
  const [row] = await t.db.select().from(schema.printerProfiles).where(eq(schema.printerProfiles.id, id));
  return row;
}
async function defaultsAt(code: Code) {
  const rows = await t.db
    .select({ id: schema.printerProfiles.id })
    .from(schema.printerProfiles)
    .where(and(eq(schema.printerProfiles.locationId, loc[code]), eq(schema.printerProfiles.isDefault, true)));
  return rows.map((r) => r.id);
}

let seq = 0;
/** The form as a browser posts it (all strings), for a unique name unless given. */
const formOf = (overrides: Record<string, string | string[]> = {}) => ({
  name: `Zebra ${++seq}`,
  output: "zpl",
  zplDelivery: "browser_print",
  size: "custom",
  width: "57.2",
  height: "31.8",
  dpi: "300",
  symbology: "both",
  fields: ["expiry", "product", "label_code"],
  copies: "2",
  offsetX: "-1.5",
  offsetY: "0,5",
  ...overrides,
});
const input = (overrides: Record<string, string | string[]> = {}) => PrinterProfileForm.parse(formOf(overrides));

async function newProfile(code: Code, overrides: Record<string, string | string[]> = {}) {
  const result = await createPrinterProfile(t.db, await as("owner"), { ...input(overrides), locationId: loc[code] });
  if (!result.ok) throw new Error(result.message);
  return result.profileId;
}

describe("the printer profile form", () => {
  it("reads millimetres with one decimal into tenths, a preset's size over the typed one, fields in label order", () => {
    expect(PrinterProfileForm.parse(formOf())).toEqual({
      name: expect.stringMatching(/^Zebra \d+$/),
      output: "zpl",
      zplDelivery: "browser_print",
      widthTenthMm: 572,
      heightTenthMm: 318,
      dpi: 300,
      symbology: "both",
      fields: ["product", "expiry", "label_code"],
      copies: 2,
      offsetXTenthMm: -15,
      offsetYTenthMm: 5,
    });
    expect(PrinterProfileForm.parse(formOf({ size: "1.5x0.5", width: "nonsense", height: "" }))).toMatchObject({
      widthTenthMm: 381,
      heightTenthMm: 127,
    });
    expect(PrinterProfileForm.parse(formOf({ fields: [] })).fields).toEqual([]);
  });

  it("says what is wrong with each field", () => {
    const result = PrinterProfileForm.safeParse(
      formOf({ name: " ", width: "9.9", height: "57.25", dpi: "600", copies: "11", offsetX: "10.1", offsetY: "x" }),
    );
    expect(result.success).toBe(false);
    const messages = Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));
    expect(messages).toEqual({
      name: PRINTER_PROFILE_MESSAGES.name,
      dpi: PRINTER_PROFILE_MESSAGES.dpi,
      copies: PRINTER_PROFILE_MESSAGES.copies,
      offsetX: PRINTER_PROFILE_MESSAGES.offsetX,
      offsetY: PRINTER_PROFILE_MESSAGES.offsetY,
    });
    // The size is checked once the other fields are valid.
    const size = PrinterProfileForm.safeParse(formOf({ width: "9.9", height: "57.25" }));
    expect(size.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["width", PRINTER_PROFILE_MESSAGES.width],
      ["height", PRINTER_PROFILE_MESSAGES.height],
    ]);
    expect(PrinterProfileForm.safeParse(formOf({ fields: ["product", "price"] })).error?.issues[0]?.message).toBe(
      PRINTER_PROFILE_MESSAGES.fields,
    );
  });
});

describe("creating a printer profile", () => {
  it("needs WRITE_SETTINGS at that location: organization and location admins yes, managers and staff no", async () => {
    const [manager, staff, admin] = [await as("manager"), await as("staff"), await as("admin")];
    const refused = await expectNoActivity(async () => [
      await createPrinterProfile(t.db, manager, { ...input(), locationId: loc.WST }),
      await createPrinterProfile(t.db, staff, { ...input(), locationId: loc.DTN }),
      // admin is ADMIN at Downtown but only MANAGER at Westside.
      await createPrinterProfile(t.db, admin, { ...input(), locationId: loc.WST }),
    ]);
    expect(refused.map((r) => !r.ok && r.refusal)).toEqual(["forbidden", "forbidden", "forbidden"]);

    const made = await createPrinterProfile(t.db, admin, { ...input(), locationId: loc.DTN });
    expect(made).toMatchObject({ ok: true, isDefault: true });
    if (!made.ok) return;
    expect(await profile(made.profileId)).toMatchObject({
      locationId: loc.DTN,
      widthTenthMm: 572,
      offsetXTenthMm: -15,
      fields: ["product", "expiry", "label_code"],
      isDefault: true,
      active: true,
      version: 1,
    });
    expect(await t.lastActivity()).toMatchObject({
      action: "create_printer_profile",
      entity: "printer_profile",
      entityId: made.profileId,
      locationId: loc.DTN,
      summary: expect.objectContaining({
        widthTenthMm: 572,
        fields: ["product", "expiry", "label_code"],
        isDefault: true,
      }),
    });
  });

  it("makes only a location's first profile its default, and refuses a name taken there in any case", async () => {
    const first = await newProfile("NTH", { name: "Front desk" });
    const second = await newProfile("NTH", { name: "Back office" });
    expect((await profile(first))?.isDefault).toBe(true);
    expect((await profile(second))?.isDefault).toBe(false);

    const owner = await as("owner");
    const clash = await expectNoActivity(() =>
      createPrinterProfile(t.db, owner, { ...input({ name: "FRONT DESK" }), locationId: loc.NTH }),
    );
    expect(clash).toEqual({
      ok: false,
      refusal: "name_taken",
      message:
        "A printer profile named FRONT DESK already exists at this location. Choose a different name, or edit that profile.",
    });
    // The same name at another location is fine.
    expect(
      (await createPrinterProfile(t.db, owner, { ...input({ name: "Front desk" }), locationId: loc.WST })).ok,
    ).toBe(true);
    const nowhere = await createPrinterProfile(t.db, owner, { ...input(), locationId: "no-such-location" });
    expect(nowhere).toMatchObject({ ok: false, refusal: "location_unavailable" });
  });
});

describe("editing a printer profile", () => {
  it("saves the version it was loaded at, refuses a stale save, and logs only what changed", async () => {
    const id = await newProfile("DTN");
    const admin = await as("admin");
    const edit = (version: number, overrides: Record<string, string | string[]> = {}) =>
      updatePrinterProfile(t.db, admin, {
        ...PrinterProfileEditForm.parse({ ...formOf(overrides), version: String(version) }),
        profileId: id,
      });
    const current = await profile(id);
    const saved = await edit(1, { name: current?.name ?? "", copies: "3", size: "2x1" });
    expect(saved).toEqual({ ok: true, changed: true, version: 2 });
    expect(await t.lastActivity()).toMatchObject({
      action: "update_printer_profile",
      locationId: loc.DTN,
      summary: {
        name: current?.name,
        before: { copies: 2, widthTenthMm: 572, heightTenthMm: 318 },
        after: { copies: 3, widthTenthMm: 508, heightTenthMm: 254 },
      },
    });

    const stale = await expectNoActivity(() => edit(1, { name: current?.name ?? "", copies: "5" }));
    expect(stale).toEqual({ ok: false, refusal: "stale", message: PRINTER_PROFILE_REFUSALS.stale });
    expect(await profile(id)).toMatchObject({ copies: 3, version: 2 });

    // Saving the same values again changes nothing and logs nothing, whatever the version.
    expect(
      await expectNoActivity(() => edit(1, { name: current?.name ?? "", copies: "3", size: "2x1" })),
    ).toMatchObject({ ok: true, changed: false, version: 2 });
  });

  it("lets a manager see but not change, and hides a profile from anyone without READ_SETTINGS there", async () => {
    const id = await newProfile("WST");
    const attempt = async (name: string, where?: Code) =>
      updatePrinterProfile(t.db, where ? { ...(await as(name)), locationId: loc[where] } : await as(name), {
        ...PrinterProfileEditForm.parse({ ...formOf({ name: "Hijacked" }), version: "1" }),
        profileId: id,
      });
    const [manager, staff, admin] = await expectNoActivity(async () => [
      await attempt("manager"),
      await attempt("staff"),
      await attempt("admin", "WST"),
    ]);
    expect(manager).toMatchObject({ refusal: "forbidden" });
    expect(staff).toMatchObject({ refusal: "not_found" });
    // admin is MANAGER at Westside: working there, reads settings, may not change them.
    expect(admin).toMatchObject({ refusal: "forbidden" });
    // Working at Downtown (ADMIN there), a Westside profile is not there at all.
    expect(await attempt("admin")).toMatchObject({ refusal: "not_found" });
    expect(await printerProfileDetail(t.db, await as("manager"), id)).toMatchObject({ id, locationName: "Westside" });
    expect(await printerProfileDetail(t.db, await as("staff"), id)).toBeNull();
    expect(await printerProfileDetail(t.db, await as("multi"), id)).toBeNull();
  });
});

describe("the default profile", () => {
  it("moves in one batch: the old default is cleared, the new one set, one activity row", async () => {
    const first = await newProfile("NTH");
    const before = await defaultsAt("NTH");
    expect(before).toHaveLength(1);
    const previous = await profile(before[0] ?? "");
    const owner = await as("owner");
    const made = await makeDefaultPrinterProfile(t.db, owner, first);
    expect(made).toEqual({ ok: true, name: (await profile(first))?.name, replaced: previous?.name });
    expect(await defaultsAt("NTH")).toEqual([first]);
    expect(await profile(before[0] ?? "")).toMatchObject({ isDefault: false, version: (previous?.version ?? 0) + 1 });
    expect(await t.lastActivity()).toMatchObject({
      action: "update_printer_profile",
      entityId: first,
      locationId: loc.NTH,
      summary: { before: { isDefault: false }, after: { isDefault: true }, replacedDefault: previous?.name },
    });

    const again = await expectNoActivity(() => makeDefaultPrinterProfile(t.db, owner, first));
    expect(again).toMatchObject({ ok: false, refusal: "already_default" });
    expect(await defaultsAt("NTH")).toEqual([first]);
  });

  it("is refused to a manager and leaves the old default in place", async () => {
    const id = await newProfile("WST");
    const before = await defaultsAt("WST");
    const refused = await expectNoActivity(async () => makeDefaultPrinterProfile(t.db, await as("manager"), id));
    expect(refused).toMatchObject({ ok: false, refusal: "forbidden" });
    expect(await defaultsAt("WST")).toEqual(before);
  });

  it("is cleared by archiving it (labels fall back to the built-in default); restoring makes it default again", async () => {
    const owner = await as("owner");
    const [current] = await defaultsAt("DTN");
    const other = await newProfile("DTN");
    const archived = await archivePrinterProfile(t.db, owner, current ?? "");
    expect(archived).toMatchObject({ ok: true, locationId: loc.DTN, wasDefault: true, isDefault: false });
    expect(await defaultsAt("DTN")).toEqual([]);
    expect(await profile(current ?? "")).toMatchObject({ active: false, isDefault: false });
    expect(await t.lastActivity()).toMatchObject({
      action: "archive_printer_profile",
      summary: { before: { active: true, isDefault: true }, after: { active: false, isDefault: false } },
    });

    // An archived profile cannot be the default.
    expect(await expectNoActivity(() => makeDefaultPrinterProfile(t.db, owner, current ?? ""))).toMatchObject({
      refusal: "archived",
    });
    expect(await expectNoActivity(() => archivePrinterProfile(t.db, owner, current ?? ""))).toMatchObject({
      refusal: "already_archived",
    });

    // Archiving a profile that is not the default leaves the default alone.
    expect((await makeDefaultPrinterProfile(t.db, owner, other)).ok).toBe(true);
    const third = await newProfile("DTN");
    expect(await archivePrinterProfile(t.db, owner, third)).toMatchObject({ ok: true, wasDefault: false });
    expect(await defaultsAt("DTN")).toEqual([other]);

    // Restoring where a default exists: not the default. Where none is: the default.
    expect(await restorePrinterProfile(t.db, owner, third)).toMatchObject({ ok: true, isDefault: false });
    expect(await archivePrinterProfile(t.db, owner, other)).toMatchObject({ ok: true, wasDefault: true });
    expect(await restorePrinterProfile(t.db, owner, current ?? "")).toMatchObject({ ok: true, isDefault: true });
    expect(await defaultsAt("DTN")).toEqual([current]);
    expect(await t.lastActivity()).toMatchObject({
      action: "restore_printer_profile",
      summary: { after: { active: true, isDefault: true } },
    });
  });

  it("cannot be two profiles at one location: the database refuses a second default", async () => {
    const [current] = await defaultsAt("NTH");
    const other = await newProfile("NTH");
    await expect(
      t.db.update(schema.printerProfiles).set({ isDefault: true }).where(eq(schema.printerProfiles.id, other)),
    ).rejects.toThrow();
    expect(await defaultsAt("NTH")).toEqual([current]);
  });
});

describe("the printer settings reads", () => {
  it("lists a location's profiles, the default first and archived last, only where READ_SETTINGS reaches", async () => {
    const settings = await printerSettings(t.db, await as("manager"), loc.DTN);
    expect(settings.profiles).toEqual([]); // the manager has no role at Downtown
    expect(settings.locations.map((l) => l.code).sort()).toEqual(["DTN", "NTH", "WST"]);
    const mine = await printerSettings(t.db, await as("admin"), loc.DTN);
    expect(mine.profiles.length).toBeGreaterThan(2);
    expect(mine.profiles[0]?.isDefault).toBe(true);
    const archivedAt = mine.profiles.findIndex((p) => !p.active);
    expect(mine.profiles.slice(archivedAt).every((p) => !p.active)).toBe(true);
  });
});

// ---- The screens: loaders and actions as the worker runs them ----

const context = () => loadContext(t.db, env);

async function cookieFor(name: string, where?: Code | typeof ORGANIZATION) {
  const { cookie } = await session(name);
  return withLocationChoice(cookie, where === ORGANIZATION ? ORGANIZATION : where && loc[where]);
}
const get = pageRequest;
const post = formRequest;

describe("the printer settings screens", () => {
  it("show a manager the profiles in one round trip after the session, without write controls; refuse staff", async () => {
    const cookie = await cookieFor("manager");
    t.resetRoundTrips();
    const list = await outcome(() =>
      settingsScreen.loader({ request: get("/printer-settings", cookie), context: context(), params: {} }),
    );
    expect(t.roundTrips()).toBe(2);
    expect(list).toMatchObject({ status: 200, data: { canWrite: false, location: { code: "WST" } } });
    expect((list.data as { profiles: unknown[] }).profiles.length).toBeGreaterThan(0);

    const staff = await cookieFor("staff");
    const refused = await outcome(() =>
      settingsScreen.loader({ request: get("/printer-settings", staff), context: context(), params: {} }),
    );
    expect(refused.status).toBe(403);

    const forged = await expectNoActivity(async () => [
      await outcome(() =>
        newProfileScreen.action({
          request: post("/printer-settings/new", cookie, formOf()),
          context: context(),
          params: {},
        }),
      ),
      await outcome(() =>
        newProfileScreen.loader({ request: get("/printer-settings/new", cookie), context: context(), params: {} }),
      ),
    ]);
    expect(forged.map((r) => r.status)).toEqual([403, 403]);
  });

  it("in organization mode ask for a location first, then work at the one chosen", async () => {
    const cookie = await cookieFor("owner", ORGANIZATION);
    const none = await outcome(() =>
      settingsScreen.loader({ request: get("/printer-settings", cookie), context: context(), params: {} }),
    );
    expect(none).toMatchObject({ status: 200, data: { organizationMode: true, location: null, profiles: [] } });
    const north = await outcome(() =>
      settingsScreen.loader({
        request: get(`/printer-settings?location=${loc.NTH}`, cookie),
        context: context(),
        params: {},
      }),
    );
    expect(north).toMatchObject({ status: 200, data: { location: { code: "NTH" }, canWrite: true } });

    const created = await outcome(() =>
      newProfileScreen.action({
        request: post(`/printer-settings/new?location=${loc.NTH}`, cookie, formOf({ name: "Org mode Zebra" })),
        context: context(),
        params: {},
      }),
    );
    expect(created).toMatchObject({ status: 302 });
    const profileId = created.location?.split("/")[2] ?? "";
    expect(await profile(profileId)).toMatchObject({ name: "Org mode Zebra", locationId: loc.NTH });
  });

  it("create, edit (a stale save shows the current values), make default and archive through the actions", async () => {
    const cookie = await cookieFor("admin", "DTN");
    const invalid = await outcome(() =>
      newProfileScreen.action({
        request: post("/printer-settings/new", cookie, formOf({ width: "300" })),
        context: context(),
        params: {},
      }),
    );
    expect(invalid).toMatchObject({
      status: 400,
      data: { fieldErrors: { width: PRINTER_PROFILE_MESSAGES.width }, values: { width: "300" } },
    });

    const created = await outcome(() =>
      newProfileScreen.action({
        request: post("/printer-settings/new", cookie, formOf({ name: "Screen Zebra" })),
        context: context(),
        params: {},
      }),
    );
    expect(created.status).toBe(302);
    const profileId = created.location?.split("/")[2] ?? "";
    const here = `/printer-settings/${profileId}`;
    const screen = (form: Record<string, string | string[]>) =>
      outcome(() =>
        profileScreen.action({ request: post(here, cookie, form), context: context(), params: { profileId } }),
      );

    expect(
      await screen({ ...formOf({ name: "Screen Zebra", copies: "4" }), intent: "update", version: "1" }),
    ).toMatchObject({ status: 302, location: here });
    expect(await screen({ ...formOf({ name: "Lost update" }), intent: "update", version: "1" })).toMatchObject({
      status: 409,
      data: { intent: "update", formError: PRINTER_PROFILE_REFUSALS.stale, values: null, conflict: true },
    });
    expect(await profile(profileId)).toMatchObject({ name: "Screen Zebra", copies: 4, version: 2 });

    expect(await screen({ intent: "make_default" })).toMatchObject({ status: 302 });
    expect(await defaultsAt("DTN")).toEqual([profileId]);
    expect(await screen({ intent: "archive" })).toMatchObject({ status: 302 });
    expect(await defaultsAt("DTN")).toEqual([]);
    expect(await screen({ intent: "archive" })).toMatchObject({
      status: 409,
      data: { formError: PRINTER_PROFILE_REFUSALS.already_archived },
    });

    // The list's own buttons do the same by profile id.
    const restored = await outcome(() =>
      settingsScreen.action({
        request: post("/printer-settings", cookie, { intent: "restore", profileId }),
        context: context(),
        params: {},
      }),
    );
    expect(restored).toMatchObject({ status: 302, location: "/printer-settings" });
    expect(await defaultsAt("DTN")).toEqual([profileId]);

    const detail = await outcome(() =>
      profileScreen.loader({ request: get(here, cookie), context: context(), params: { profileId } }),
    );
    expect(detail).toMatchObject({ status: 200, data: { profile: { name: "Screen Zebra" }, canWrite: true } });
  });

  it("test-prints one sample label with the profile, marked as a sample; 404 for a profile out of reach", async () => {
    const id = await newProfile("WST", { symbology: "datamatrix", size: "2x1" });
    const cookie = await cookieFor("manager");
    t.resetRoundTrips();
    const page = await outcome(() =>
      testPrintScreen.loader({
        request: get(`/printer-settings/${id}/test-print`, cookie),
        context: context(),
        params: { profileId: id },
      }),
    );
    expect(t.roundTrips()).toBe(2);
    expect(page.status).toBe(200);
    const sheet = (
      page.data as {
        sheet: { widthMm: number; labels: { code128: unknown; dataMatrix: unknown; lines: { text: string }[] }[] };
      }
    ).sheet;
    expect(sheet.widthMm).toBe(50.8);
    expect(sheet.labels).toHaveLength(1);
    expect(sheet.labels[0]?.code128).toBeNull();
    expect(sheet.labels[0]?.dataMatrix).not.toBeNull();
    expect(sheet.labels[0]?.lines.map((l) => l.text)).toContain("SAMPLE product (test print)");

    const other = await cookieFor("admin", "DTN");
    const unseen = await newProfile("NTH");
    const missing = await outcome(() =>
      testPrintScreen.loader({
        request: get(`/printer-settings/${unseen}/test-print`, other),
        context: context(),
        params: { profileId: unseen },
      }),
    );
    expect(missing.status).toBe(404);
  });
});
