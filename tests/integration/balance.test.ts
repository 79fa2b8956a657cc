// The balancing suggestions (issue 22) on data made here: three locations of their own stocked
// through the receiving verbs, par levels through their verb, a recall through its verb, transfers
// and the usage history written by SQL as their verbs would (tests/support/transfers.ts). Each
// suggestion's kind, ends, lines (which vials, soonest first; a bulk quantity) and why-line is
// known; vials on open transfers and recalled lots are never suggested; the scope decides which are shown.
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import { schema } from "../../app/db/client.server";
import { WORKED_OUT_STANDS_FOR_MS } from "../../app/db/worked-out.server";
import { createLocation } from "../../app/locations/create.server";
import { saveParLevels } from "../../app/par-levels/save.server";
import { markRecall } from "../../app/recalls/mark.server";
import { loader as transfersLoader } from "../../app/routes/_app.transfers._index";
import type { BalancingSuggestion } from "../../app/transfers/balance";
import { balancingSuggestions } from "../../app/transfers/balance.server";
import { suggestionsQuery, workOutBalancingSuggestions } from "../../app/transfers/suggestions.server";
import { freshDatabase, type TestDatabase } from "../support/database";
import { ownVariation } from "../support/own-variation";
import { receiveVials } from "../support/receive";
import { loadContext, signedIn, withLocationChoice } from "../support/screens";
import { writeTransfer } from "../support/transfers";

const DAY = 24 * 60 * 60 * 1000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

let t: TestDatabase;
let owner: SessionUser;
const loc = { north: "", west: "", east: "" };
/** Variations nothing else in the demo stocks, sets a par level for, or draws from. */
let VIAL = { id: "", upp: 0 };
let SLOW = { id: "", upp: 0 };
let BULK = { id: "", upp: 0 };
const at = (locationId: string): ScopedActor => ({ ...owner, locationId });
let lots = 0;
const receive = (locationId: string, variationId: string, quantity: number, expiresInDays: number) => {
  const lot = `BAL${++lots}`;
  return receiveVials(t.db, at(locationId), {
    locationId,
    variationId,
    quantity,
    lot,
    expirationDate: day(expiresInDays),
  }).then((ids) => ({ lot, ids }));
};
const par = (
  locationId: string,
  variationId: string,
  levels: { par: number; reorderPoint: number; max: number | null },
) =>
  saveParLevels(t.db, owner, { locationId, changes: [{ variationId, levels }] }).then((o) => {
    if (!o.ok) throw new Error(JSON.stringify(o));
  });
const suggest = async (locationIds: string[]) =>
  (await balancingSuggestions(t.db, at(ORGANIZATION), locationIds)).filter((s) =>
    [VIAL.id, SLOW.id, BULK.id].includes(s.variationId),
  );
const items = (s: BalancingSuggestion | undefined) => s?.lines.map((l) => ("itemId" in l ? l.itemId : null));

/** Usage history at a location: `entries` draws of `units` each over the last 90 days, from one of its vials. */
async function drew(locationId: string, variationId: string, entries: number, units: number) {
  const { ids } = await receive(locationId, variationId, 1, 400);
  const itemId = ids[0] as string;
  for (let n = 0; n < entries; n++) {
    const usedAt = Date.now() - (n + 1) * DAY;
    await t.db.run(sql`INSERT INTO usage_entries (id, item_id, location_id, variation_id, lot, units, used_at, user_id, created_at)
      SELECT ${randomUUID()}, i.id, i.location_id, i.variation_id, i.lot, ${units}, ${usedAt}, ${owner.id}, ${usedAt}
      FROM items AS i WHERE i.id = ${itemId}`);
    // Use is read from the ledger (~/stock/usage-rate.server): each entry's USE movement, as a draw books it.
    await t.db.run(sql`INSERT INTO stock_movements (id, occurred_at, location_id, variation_id, item_id, lot, quantity, type, reference_type, user_id)
      SELECT ${randomUUID()}, ${usedAt}, i.location_id, i.variation_id, i.id, i.lot, ${-units}, 'USE', 'usage', ${owner.id}
      FROM items AS i WHERE i.id = ${itemId}`);
  }
}

beforeAll(async () => {
  t = await freshDatabase();
  const first = await signedIn(t.db, "owner");
  for (const [key, name, code] of [
    ["north", "Balance North", "BNO"],
    ["west", "Balance West", "BWE"],
    ["east", "Balance East", "BEA"],
  ] as const) {
    const made = await createLocation(t.db, first.user, { name, code, address: null, timezone: "UTC" });
    if (!made.ok) throw new Error("no location");
    loc[key] = made.locationId;
  }
  ({ user: owner } = await signedIn(t.db, "owner"));
  VIAL = await ownVariation(t.db, "serialized", "Balance Vial");
  SLOW = await ownVariation(t.db, "serialized", "Balance Slow Vial");
  BULK = await ownVariation(t.db, "bulk", "Balance Pads");
});
afterAll(() => t.close());

describe("below the reorder point at one location, above the max at another", () => {
  let westVials: string[] = [];

  it("moves the surplus above max, no more than the shortage, sealed vials soonest-expiring first", async () => {
    await par(loc.north, VIAL.id, { par: 5, reorderPoint: 3, max: 6 });
    await par(loc.west, VIAL.id, { par: 4, reorderPoint: 2, max: 5 });
    await receive(loc.north, VIAL.id, 1, 300);
    // West: 10 vials in three lots, the soonest expiring in 100 days.
    const late = await receive(loc.west, VIAL.id, 4, 300);
    const soon = await receive(loc.west, VIAL.id, 3, 100);
    const middle = await receive(loc.west, VIAL.id, 3, 200);
    westVials = [...soon.ids.sort(), ...middle.ids.sort(), ...late.ids.sort()];

    const [s, ...rest] = await suggest([loc.north]);
    expect(rest).toEqual([]);
    expect(s).toMatchObject({
      kind: "below_reorder",
      fromLocationId: loc.west,
      fromLocationName: "Balance West",
      toLocationId: loc.north,
      toLocationName: "Balance North",
      variationId: VIAL.id,
      why: "Balance North is at 1, below its reorder point of 3; Balance West has 10, above its max of 5: move 5",
    });
    // The shortage up to North's max is 5 and West's surplus above its max is 5: the five soonest.
    expect(items(s)).toEqual(westVials.slice(0, 5));
    // The sender's view shows the same suggestion; a location at neither end sees none of it.
    expect(await suggest([loc.west])).toEqual([s]);
    expect(await suggest([loc.east])).toEqual([]);
  });

  it("never suggests a vial on an open transfer or of a recalled lot, and counts what is already on its way", async () => {
    // One of the soonest vials is on a draft from West to East: it leaves West's surplus (4 left).
    await writeTransfer(t.db, {
      from: loc.west,
      to: loc.east,
      by: owner.id,
      status: "draft",
      itemIds: [westVials[0] as string],
    });
    const [s] = await suggest([loc.north]);
    expect(s?.why).toBe(
      "Balance North is at 1, below its reorder point of 3; Balance West has 10, above its max of 5: move 4",
    );
    expect(items(s)).toEqual(westVials.slice(1, 5));

    // Two vials in transit to North from East: its shortage up to max is 3 now.
    const east = await receive(loc.east, VIAL.id, 2, 300);
    await writeTransfer(t.db, { from: loc.east, to: loc.north, by: owner.id, status: "in_transit", itemIds: east.ids });
    const [less] = await suggest([loc.north]);
    expect(items(less)).toEqual(westVials.slice(1, 4));

    // The soonest lot is recalled: its vials stay put, and are no longer West's stock (7 left, one
    // of them on the draft): the surplus above its max is one vial of the next lot.
    const [{ lot } = { lot: "" }] = await t.db.all<{ lot: string }>(
      sql`SELECT lot FROM items WHERE id = ${westVials[1] as string}`,
    );
    const recalled = await markRecall(t.db, at(loc.west), { variationId: VIAL.id, lot, note: "Manufacturer notice" });
    if (!recalled.ok) throw new Error("not recalled");
    const [after] = await suggest([loc.north]);
    expect(after?.why).toBe(
      "Balance North is at 1, below its reorder point of 3; Balance West has 7, above its max of 5: move 1",
    );
    expect(items(after)).toEqual(westVials.slice(3, 4));
  });

  it("suggests a bulk quantity in base units", async () => {
    await par(loc.north, BULK.id, { par: 2, reorderPoint: 1, max: 3 });
    await par(loc.west, BULK.id, { par: 2, reorderPoint: 1, max: 2 });
    await receive(loc.west, BULK.id, 6, 400);
    const s = (await suggest([loc.north])).find((x) => x.variationId === BULK.id);
    // West holds 6 packages, 4 above its max; North has none and wants 3.
    expect(s).toMatchObject({ kind: "below_reorder", fromLocationId: loc.west, toLocationId: loc.north });
    expect(s?.lines).toEqual([{ variationId: BULK.id, quantity: 3 * BULK.upp }]);
    expect(s?.why).toMatch(
      /^Balance North is at 0, below its reorder point of 1; Balance West has 6, above its max of 2: move /,
    );
  });
});

describe("lots that expire before their location can use them", () => {
  it("moves them to the location that uses the variation fast enough, and says why", async () => {
    // East holds 4 vials expiring in 20 days and used 1 vial's worth in 90 days; North draws 3 vials' worth a week.
    const slow = await receive(loc.east, SLOW.id, 4, 20);
    await drew(loc.east, SLOW.id, 1, SLOW.upp);
    await drew(loc.north, SLOW.id, 36, SLOW.upp);
    const s = (await suggest([loc.east])).find((x) => x.variationId === SLOW.id);
    expect(s).toMatchObject({ kind: "expiring", fromLocationId: loc.east, toLocationId: loc.north });
    expect(items(s)?.sort()).toEqual([...slow.ids].sort());
    // North used 36 vials in 90 days: 12 a month; it holds the one vial its history was drawn from.
    expect(s?.why).toBe(
      "Balance North uses 12 vials a month; these 4 expire in 20 days at Balance East, which used 1 in 90 days",
    );
    // North, the destination, sees the same suggestion in its own scope.
    expect((await suggest([loc.north])).find((x) => x.variationId === SLOW.id)).toEqual(s);
    // West, which never drew from it, is offered nothing of it.
    expect((await suggest([loc.west])).filter((x) => x.variationId === SLOW.id)).toEqual([]);
  });

  it("moves only what the faster location can use before they expire", async () => {
    // West holds 6 more expiring in 10 days and used none; North (12 a month) can use 4 in 10 days,
    // less the 1 it holds and the 4 already suggested to it.
    const more = await receive(loc.west, SLOW.id, 6, 10);
    const s = (await suggest([loc.west])).find((x) => x.variationId === SLOW.id);
    expect(s?.lines.length).toBeGreaterThan(0);
    expect(s?.lines.length).toBeLessThan(6);
    for (const id of items(s) ?? []) expect(more.ids).toContain(id);
    expect(s?.why).toMatch(
      /^Balance North uses 12 vials a month; these \d \(of 6\) expire in 10 days at Balance West, which used 0 in 90 days$/,
    );
  });
});

describe("on /transfers, worked out every minute (ADR 0030)", () => {
  const page = async (where: string) => {
    const cookie = await withLocationChoice((await signedIn(t.db, "owner")).cookie, where);
    t.resetRoundTrips();
    const data = await transfersLoader({
      request: new Request("http://clinic.test/transfers", { headers: { Cookie: cookie } }),
      context: loadContext(t.db),
      params: {},
    });
    return { data, roundTrips: t.roundTrips() };
  };
  const ours = (list: readonly BalancingSuggestion[]) =>
    list.filter((s) => [VIAL.id, SLOW.id, BULK.id].includes(s.variationId));

  it("are the organization's of the last minute, the reader's share of them, in the page's one round trip", async () => {
    const live = await page(loc.north);
    expect(live.data.suggestionsAsOf).toBeNull();
    const now = new Date();
    await workOutBalancingSuggestions(t.db, now);
    const read = await page(loc.north);
    // The session, then one batch: the transfers, what is on the way, the locations, the suggestions.
    expect(read.roundTrips).toBe(2);
    expect(read.data.suggestionsAsOf).not.toBeNull();
    expect(ours(read.data.suggestions)).toEqual(ours(live.data.suggestions));
    for (const s of read.data.suggestions) expect([s.fromLocationId, s.toLocationId]).toContain(loc.north);
    // In organization mode, every location's.
    const all = await page(ORGANIZATION);
    expect(ours(all.data.suggestions)).toEqual(
      ours(await balancingSuggestions(t.db, at(ORGANIZATION), Object.values(loc).concat(await others()))),
    );
  });

  it("carry only the reader's share of the worked-out body, in its order; a body that is not JSON is worked out afresh", async () => {
    await workOutBalancingSuggestions(t.db, new Date());
    const [stored] = await t.db.all<{ body: string }>(
      sql`SELECT body FROM worked_out WHERE kind = 'balancing_suggestions'`,
    );
    const whole = (JSON.parse(stored?.body ?? "{}") as { suggestions: BalancingSuggestion[] }).suggestions;
    const shares = [];
    for (const where of Object.values(loc)) {
      const [rows] = await t.db.batch([suggestionsQuery(t.db, at(where))]);
      const share = (JSON.parse(rows[0]?.body ?? "{}") as { suggestions: BalancingSuggestion[] }).suggestions;
      expect(share).toEqual(whole.filter((s) => s.fromLocationId === where || s.toLocationId === where));
      shares.push(share.length);
    }
    // Some location's share is less than the whole: the body was cut, not carried whole.
    expect(Math.min(...shares)).toBeLessThan(whole.length);
    await t.db.run(sql`UPDATE worked_out SET body = 'not json' WHERE kind = 'balancing_suggestions'`);
    const fallen = await page(loc.north);
    expect(fallen.data.suggestionsAsOf).toBeNull();
    expect(ours(fallen.data.suggestions).length).toBeGreaterThan(0);
  });

  it("are worked out on the page again when the last ones are too old", async () => {
    await workOutBalancingSuggestions(t.db, new Date(Date.now() - WORKED_OUT_STANDS_FOR_MS - 1000));
    await t.db
      .update(schema.workedOut)
      .set({ computedAt: new Date(Date.now() - WORKED_OUT_STANDS_FOR_MS - 1000) })
      .where(eq(schema.workedOut.kind, "balancing_suggestions"));
    const stale = await page(loc.north);
    expect(stale.data.suggestionsAsOf).toBeNull();
    expect(ours(stale.data.suggestions).length).toBeGreaterThan(0);
  });
});

/** The organization's other active locations (the demo's). */
async function others(): Promise<string[]> {
  const rows = await t.db.all<{ id: string }>(sql`SELECT id FROM locations WHERE active = 1`);
  return rows.map((r) => r.id).filter((id) => !Object.values(loc).includes(id));
}
