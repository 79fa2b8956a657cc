// The one change-with-activity helper every edit, archive and restore goes through: the activity
// row is written exactly when the guarded change is, and an edit's summary holds only what changed.
import { and, eq, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedFields, changeWithActivity, recordedFields } from "../../app/activity/change.server";
import { schema } from "../../app/db/client.server";
import type { LabelField } from "../../db/schema/settings/constants";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";

let t: TestDatabase;
let downtown: string;
const p = schema.printerProfiles;

beforeAll(async () => {
  t = await freshDatabase();
  ({
    loc: { DTN: downtown },
  } = await demoLocations(t.db));
});
afterAll(() => t.close());

/** A profile at Downtown (not the default), straight into the table. */
async function newProfile() {
  const id = uuidv7();
  await t.db.insert(p).values({
    id,
    locationId: downtown,
    name: `Profile ${id}`,
    widthTenthMm: 572,
    heightTenthMm: 318,
    fields: ["product", "lot"],
    copies: 1,
  });
  return id;
}

/** Edits `fields`, `copies` and `active` of profile `id` at `version`, as an edit verb would. */
function edit(id: string, version: number, values: { fields: LabelField[]; copies: number; active: boolean }) {
  const { differs, before, after } = changedFields(p, ["fields", "copies", "active"], values);
  const guard = and(eq(p.id, id), eq(p.version, version), differs);
  return changeWithActivity(t.db, {
    from: p,
    guard,
    activity: {
      userId: null,
      locationId: downtown,
      action: "update_printer_profile",
      entity: "printer_profile",
      entityId: id,
      summary: sql`json_object('name', name, 'before', ${before}, 'after', ${after})`,
    },
    before: [t.db.select({ active: p.active }).from(p).where(eq(p.id, id))],
    update: t.db
      .update(p)
      .set({ ...values, version: sql`${p.version} + 1` })
      .where(guard)
      .returning({ version: p.version }),
    readBack: t.db
      .select({ version: p.version, differs: sql<number>`${differs}` })
      .from(p)
      .where(eq(p.id, id)),
  });
}

describe("changeWithActivity", () => {
  it("writes the change and its activity row in one batch, the summary holding only the fields that change", async () => {
    const id = await newProfile();
    const count = await t.activityCount();
    const result = await edit(id, 1, { fields: ["lot", "product", "expiry"], copies: 1, active: false });

    expect(result.updated).toEqual([{ version: 2 }]);
    expect(result.current).toEqual([{ version: 2, differs: 0 }]);
    // `before` ran after the activity row and before the update: it saw the row as it was.
    expect(result.before).toEqual([[{ active: true }]]);
    expect(await t.activityCount()).toBe(count + 1);
    const row = await t.lastActivity();
    expect(row?.entityId).toBe(id);
    // The list as JSON and the flag as true/false, the way the form sends them; copies did not change.
    expect(JSON.stringify(row?.summary)).toBe(
      JSON.stringify({
        name: `Profile ${id}`,
        before: { fields: ["product", "lot"], active: true },
        after: { fields: ["lot", "product", "expiry"], active: false },
      }),
    );
  });

  it("writes nothing, no activity row either, when the guard refuses; the read back says why", async () => {
    const id = await newProfile();
    const count = await t.activityCount();
    const stale = await edit(id, 7, { fields: ["lot"], copies: 2, active: true });
    expect(stale.updated).toEqual([]);
    expect(stale.current).toEqual([{ version: 1, differs: 1 }]);

    const unchanged = await edit(id, 1, { fields: ["product", "lot"], copies: 1, active: true });
    expect(unchanged.updated).toEqual([]);
    expect(unchanged.current).toEqual([{ version: 1, differs: 0 }]);

    expect(await t.activityCount()).toBe(count);
    const [profile] = await t.db.select().from(p).where(eq(p.id, id));
    expect(profile).toMatchObject({ fields: ["product", "lot"], copies: 1, active: true, version: 1 });
  });

  it("refuses a change without a guard before writing anything", async () => {
    const id = await newProfile();
    const count = await t.activityCount();
    await expect(
      changeWithActivity(t.db, {
        from: p,
        guard: undefined,
        activity: {
          userId: null,
          action: "update_printer_profile",
          entity: "printer_profile",
          entityId: id,
          summary: sql`'{}'`,
        },
        update: t.db.update(p).set({ copies: 3 }).returning({ id: p.id }),
        readBack: t.db.select({ copies: p.copies }).from(p).where(eq(p.id, id)),
      }),
    ).rejects.toThrow(/needs its guard/);
    expect(await t.activityCount()).toBe(count);
    const [profile] = await t.db.select({ copies: p.copies }).from(p).where(eq(p.id, id));
    expect(profile?.copies).toBe(1);
  });
});

describe("recordedFields", () => {
  it("reads the fields as one JSON object, in the order given, as a create's summary records them", async () => {
    const id = await newProfile();
    const [row] = await t.db.all<{ json: string }>(
      sql`SELECT ${recordedFields(p, ["name", "fields", "isDefault", "copies"])} AS json FROM ${p} WHERE ${p.id} = ${id}`,
    );
    expect(row?.json).toBe(
      JSON.stringify({ name: `Profile ${id}`, fields: ["product", "lot"], isDefault: false, copies: 1 }),
    );
  });
});
