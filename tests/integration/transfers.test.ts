// Transfers against a real database (issue 22 section 1, ADR 0031): create, request, add and remove
// lines, send, receive (all or part, with discrepancies), resolve, cancel and recall, each one batch
// with its movements and activity row; every refusal names its reason and writes nothing; the JSON
// API over the same verbs, its idempotency keys, and two receipts of one line booked once.
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import { schema } from "../../app/db/client.server";
import * as indexRoute from "../../app/routes/_app.transfers._index";
import * as pageRoute from "../../app/routes/_app.transfers.$id";
import * as listRoute from "../../app/routes/api.transfers";
import * as oneRoute from "../../app/routes/api.transfers.$id";
import * as cancelRoute from "../../app/routes/api.transfers.$id.cancel";
import * as receiveRoute from "../../app/routes/api.transfers.$id.receive";
import * as sendRoute from "../../app/routes/api.transfers.$id.send";
import { addTransferLine } from "../../app/transfers/add-line.server";
import { cancelTransfer } from "../../app/transfers/cancel.server";
import { createTransfer } from "../../app/transfers/create.server";
import { listTransfers, readTransfer } from "../../app/transfers/read.server";
import { recallTransfer } from "../../app/transfers/recall.server";
import { receiveTransfer } from "../../app/transfers/receive.server";
import { removeTransferLine } from "../../app/transfers/remove-line.server";
import { requestTransfer } from "../../app/transfers/request.server";
import { resolveDiscrepancy } from "../../app/transfers/resolve.server";
import { sendTransfer } from "../../app/transfers/send.server";
import { startVial } from "../../app/vials/start.server";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { receiveVials, variationNamed } from "../support/receive";
import { formRequest, loadContext, signedIn, withLocationChoice } from "../support/screens";

type Where = "DTN" | "WST" | "NTH" | typeof ORGANIZATION;

let t: TestDatabase;
let loc: Record<"DTN" | "WST" | "NTH", string>;
const users = new Map<string, SessionUser>();
const cookies = new Map<string, string>();
let BOTOX: string;
let PADS: string; // bulk: Alcohol prep pads · Box of 200 (base unit: each)

const DAY = 24 * 60 * 60 * 1000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

function as(name: string, where: Where = "DTN"): ScopedActor {
  const user = users.get(name);
  if (!user) throw new Error(`no user ${name}`);
  return { ...user, locationId: where === ORGANIZATION ? ORGANIZATION : loc[where] };
}

let lotCounter = 0;
async function vials(n: number, where: "DTN" | "WST" = "DTN", variationId = BOTOX): Promise<string[]> {
  return receiveVials(t.db, as(where === "DTN" ? "admin" : "manager", where), {
    locationId: loc[where],
    variationId,
    quantity: n,
    lot: `TR${++lotCounter}`,
    expirationDate: day(200),
  });
}

async function item(id: string) {
  const [row] = await t.db.select().from(schema.items).where(eq(schema.items.id, id));
  if (!row) throw new Error(`no item ${id}`);
  return row;
}
const labelOf = async (id: string) => (await item(id)).labelCode;

async function onHand(where: "DTN" | "WST", variationId: string): Promise<number> {
  const [row] = await t.db.all<{ n: number }>(
    sql`SELECT on_hand AS n FROM stock_levels WHERE location_id = ${loc[where]} AND variation_id = ${variationId}`,
  );
  return Number(row?.n ?? 0);
}

/** Everything a transfer verb writes, counted: a refusal leaves all of it as it was. */
async function written() {
  const [movements, activity, transfers, lines, items, levels, keys] = await t.db.batch([
    t.db.select({ n: count() }).from(schema.stockMovements),
    t.db.select({ n: count() }).from(schema.activityLog),
    t.db.all<{ sig: string }>(
      sql`SELECT group_concat(id || status, ',') AS sig FROM (SELECT * FROM transfers ORDER BY id)`,
    ),
    t.db.all<{ sig: string }>(
      sql`SELECT group_concat(id || status || quantity || coalesce(resolved_at, ''), ',') AS sig FROM (SELECT * FROM transfer_lines ORDER BY id)`,
    ),
    t.db.all<{ sig: string }>(sql`SELECT group_concat(id || state || units_remaining || location_id, ',') AS sig
      FROM (SELECT * FROM items ORDER BY id)`),
    t.db.all<{ total: number }>(sql`SELECT sum(on_hand) AS total FROM stock_levels`),
    t.db.select({ n: count() }).from(schema.idempotencyKeys),
  ]);
  return {
    movements: movements[0]?.n,
    activity: activity[0]?.n,
    transfers: transfers[0]?.sig,
    lines: lines[0]?.sig,
    items: items[0]?.sig,
    onHand: Number(levels[0]?.total),
    keys: keys[0]?.n,
  };
}

/** The ledger's rules hold: each vial's units are the sum of its movements, each level the sum of its pair's. */
async function ledgerHolds() {
  const vialsOff = await t.db.all(sql`SELECT i.id FROM items AS i
    WHERE i.units_remaining <> (SELECT coalesce(sum(m.quantity), 0) FROM stock_movements AS m WHERE m.item_id = i.id)`);
  const levelsOff = await t.db.all(sql`SELECT s.location_id FROM stock_levels AS s
    WHERE s.on_hand <> (SELECT coalesce(sum(m.quantity), 0) FROM stock_movements AS m
      WHERE m.location_id = s.location_id AND m.variation_id = s.variation_id)`);
  expect(vialsOff).toEqual([]);
  expect(levelsOff).toEqual([]);
}

async function draft(by = as("admin"), to: "WST" | "NTH" = "WST") {
  const made = await createTransfer(t.db, by, { fromLocationId: loc.DTN, toLocationId: loc[to] });
  if (!made.ok) throw new Error(made.message);
  return made.transferId;
}

async function add(transferId: string, line: { labelCode: string } | { variationId: string; quantity: number }) {
  const added = await addTransferLine(t.db, as("admin"), { transferId, line });
  if (!added.ok) throw new Error(added.message);
  return added.lineId;
}

async function sent(vialIds: string[], bulk = 0) {
  const id = await draft();
  for (const v of vialIds) await add(id, { labelCode: await labelOf(v) });
  if (bulk > 0) await add(id, { variationId: PADS, quantity: bulk });
  const done = await sendTransfer(t.db, as("admin"), { transferId: id });
  if (!done.ok) throw new Error(done.message);
  return id;
}

async function linesOf(transferId: string) {
  const read = await readTransfer(t.db, as("owner", ORGANIZATION), transferId);
  if (!read) throw new Error("no transfer");
  return read.lines;
}

// The API, as the worker runs it.
const BASE = "http://clinic.test";
async function api(
  who: string,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
  { key, where = "DTN" }: { key?: string; where?: Where } = {},
) {
  const cookie = await withLocationChoice(cookies.get(who) ?? "", where === ORGANIZATION ? ORGANIZATION : loc[where]);
  const headers: Record<string, string> = { Cookie: cookie };
  if (method === "POST") headers["Content-Type"] = "application/json";
  if (key) headers["Idempotency-Key"] = key;
  const request = new Request(`${BASE}${path}`, {
    method,
    headers,
    body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
  });
  const parts = path.split("?")[0]?.split("/") ?? [];
  const id = parts[3];
  const verb = parts[4];
  const args = { request, context: loadContext(t.db), params: id ? { id } : {} };
  const route = !id
    ? listRoute
    : verb === "send"
      ? sendRoute
      : verb === "receive"
        ? receiveRoute
        : verb === "cancel"
          ? cancelRoute
          : oneRoute;
  let response: Response;
  try {
    const handler = (method === "GET" ? route.loader : route.action) as (a: typeof args) => Promise<Response>;
    response = await handler(args);
  } catch (thrown) {
    if (thrown instanceof Response) response = thrown;
    else throw thrown;
  }
  // biome-ignore lint/suspicious/noExplicitAny: the answers are JSON the assertions read field by field
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "manager", "staff"]) {
    const s = await signedIn(t.db, name);
    users.set(name, s.user);
    cookies.set(name, s.cookie);
  }
  BOTOX = await variationNamed(t.db, "Botox Cosmetic", "100 U vial");
  PADS = await variationNamed(t.db, "Alcohol prep pads", "Box of 200");
  // Enough prep pads at Downtown for every test: a receipt of 10 boxes (2,000 pads).
  const { addReceiptLine } = await import("../../app/receiving/add-line.server");
  const { completeReceipt } = await import("../../app/receiving/complete.server");
  const { openReceipt } = await import("../../app/receiving/open.server");
  const opened = await openReceipt(t.db, as("admin"), {
    locationId: loc.DTN,
    vendorId: null,
    reference: null,
    notes: null,
  });
  if (!opened.ok) throw new Error(opened.message);
  await addReceiptLine(t.db, as("admin"), {
    receiptId: opened.receiptId,
    variationId: PADS,
    quantity: 10,
    lot: null,
    serial: null,
    expirationDate: null,
    unitCostCents: null,
    expiryConfirmed: false,
    expiryReason: null,
  });
  const done = await completeReceipt(t.db, as("admin"), { receiptId: opened.receiptId });
  if (!done.ok) throw new Error(done.message);
});
afterAll(() => t.close());

describe("the whole flow", () => {
  it("sends three vials and 40 pads from Downtown, receives them at Westside one vial short, and resolves it", async () => {
    const ids = await vials(3);
    const [pads0, botoxD0, botoxW0, padsW0] = [
      await onHand("DTN", PADS),
      await onHand("DTN", BOTOX),
      await onHand("WST", BOTOX),
      await onHand("WST", PADS),
    ];
    const transferId = await draft();
    for (const v of ids) await add(transferId, { labelCode: (await labelOf(v)).toLowerCase() });
    await add(transferId, { variationId: PADS, quantity: 40 });
    expect((await linesOf(transferId)).length).toBe(4);

    const send = await sendTransfer(t.db, as("admin"), { transferId });
    expect(send).toEqual({ ok: true, transferId, vials: 3, bulkLines: 1 });
    expect(await onHand("DTN", BOTOX)).toBe(botoxD0 - 300);
    expect(await onHand("DTN", PADS)).toBe(pads0 - 40);
    for (const v of ids)
      expect(await item(v)).toMatchObject({ state: "in_transit", unitsRemaining: 0, locationId: loc.DTN });
    const out = await t.db.all<{ type: string; n: number }>(sql`SELECT type, count(*) AS n FROM stock_movements
      WHERE reference_type = 'transfer' AND reference_id = ${transferId} GROUP BY type`);
    expect(out).toEqual([{ type: "TRANSFER_OUT", n: 4 }]);
    expect(await t.lastActivity()).toMatchObject({
      action: "send_transfer",
      entityId: transferId,
      locationId: loc.DTN,
    });
    await ledgerHolds();

    // Westside receives two vials and marks the third missing; the pads come later.
    const lines = await linesOf(transferId);
    const vialLines = lines.filter((l) => l.itemId);
    const bulkLine = lines.find((l) => !l.itemId);
    const first = await receiveTransfer(t.db, as("manager", "WST"), {
      transferId,
      lines: [
        { lineId: vialLines[0]?.id ?? "", status: "received" },
        { lineId: vialLines[1]?.id ?? "", status: "received" },
        { lineId: vialLines[2]?.id ?? "", status: "missing", reason: "Not in the cooler when it arrived" },
      ],
    });
    expect(first).toEqual({ ok: true, transferId, status: "in_transit", received: 2, discrepancies: 1 });
    expect(await onHand("WST", BOTOX)).toBe(botoxW0 + 200);
    expect(await item(vialLines[0]?.itemId ?? "")).toMatchObject({
      state: "sealed",
      unitsRemaining: 100,
      locationId: loc.WST,
    });
    expect(await item(vialLines[2]?.itemId ?? "")).toMatchObject({
      state: "discarded",
      discardReason: "lost_in_transit",
      unitsRemaining: 0,
      locationId: loc.WST,
    });
    const lost = await t.db.all<{
      type: string;
      quantity: number;
      reason: string | null;
      location: string;
    }>(sql`SELECT type,
        quantity, reason, location_id AS location FROM stock_movements WHERE item_id = ${vialLines[2]?.itemId} ORDER BY rowid`);
    expect(lost.map((m) => [m.type, m.quantity, m.reason, m.location])).toEqual([
      ["RECEIVE", 100, null, loc.DTN],
      ["TRANSFER_OUT", -100, null, loc.DTN],
      ["TRANSFER_IN", 100, null, loc.WST],
      ["DISCARD", -100, "lost_in_transit", loc.WST],
    ]);

    const second = await receiveTransfer(t.db, as("manager", "WST"), {
      transferId,
      lines: [{ lineId: bulkLine?.id ?? "", status: "short", quantity: 35, reason: "One pack of 5 torn open" }],
    });
    expect(second).toMatchObject({ ok: true, status: "received", discrepancies: 1 });
    expect(await onHand("WST", PADS)).toBe(padsW0 + 35);
    const actions = await t.db.all<{
      action: string;
    }>(sql`SELECT action FROM activity_log WHERE entity_id = ${transferId}
      ORDER BY rowid`);
    expect(actions.map((a) => a.action)).toEqual([
      "create_transfer",
      "add_transfer_line",
      "add_transfer_line",
      "add_transfer_line",
      "add_transfer_line",
      "send_transfer",
      "receive_transfer",
      "receive_transfer",
      "transfer_complete",
    ]);
    await ledgerHolds();

    // Both discrepancies stay open until someone with WRITE_TRANSFERS resolves each with a note.
    const now = await readTransfer(t.db, as("admin"), transferId);
    expect(now?.status).toBe("received");
    expect(now?.lines.filter((l) => ["missing", "short"].includes(l.status) && l.resolvedAt === null)).toHaveLength(2);
    expect(
      await resolveDiscrepancy(t.db, as("staff"), { transferId, lineId: vialLines[2]?.id ?? "", note: "x" }),
    ).toMatchObject({
      refusal: "forbidden",
    });
    const resolved = await resolveDiscrepancy(t.db, as("manager", "WST"), {
      transferId,
      lineId: vialLines[2]?.id ?? "",
      note: "Courier claim filed",
    });
    expect(resolved.ok).toBe(true);
    const again = await resolveDiscrepancy(t.db, as("admin"), {
      transferId,
      lineId: vialLines[2]?.id ?? "",
      note: "twice",
    });
    expect(again).toMatchObject({ refusal: "not_a_discrepancy" });
    expect((await linesOf(transferId)).find((l) => l.id === vialLines[2]?.id)).toMatchObject({
      resolutionNote: "Courier claim filed",
      resolvedBy: "Maria Manager",
    });
  });

  it("a damaged vial is discarded at the destination as damaged; a vial recalled on the road arrives quarantined", async () => {
    const [a, b] = await vials(2);
    const transferId = await sent([a ?? "", b ?? ""]);
    const lines = await linesOf(transferId);
    const [org] = await t.db.select({ id: schema.organizations.id }).from(schema.organizations);
    const lot = (await item(a ?? "")).lot ?? "";
    await t.db.insert(schema.lotRecalls).values({
      organizationId: org?.id ?? "",
      variationId: BOTOX,
      lot,
      note: "Recall on the road",
      recalledAt: new Date(),
      recalledBy: users.get("owner")?.id ?? null,
    } as never);
    const done = await receiveTransfer(t.db, as("manager", "WST"), {
      transferId,
      lines: [
        { lineId: lines[0]?.id ?? "", status: "received" },
        { lineId: lines[1]?.id ?? "", status: "damaged", reason: "Vial cracked" },
      ],
    });
    expect(done).toMatchObject({ ok: true, status: "received" });
    const after = await linesOf(transferId);
    expect(after[0]).toMatchObject({ status: "received", recalled: true, itemState: "sealed" });
    expect(await item(lines[1]?.itemId ?? "")).toMatchObject({ state: "discarded", discardReason: "damaged" });
    await ledgerHolds();
  });
});

describe("refusals write nothing", () => {
  it("refuses a started vial, one elsewhere, one on another transfer, one in transit, a recalled lot, too much bulk", async () => {
    const [started, onOther, recalled, plain] = [...(await vials(2)), ...(await vials(1)), ...(await vials(1))];
    const [west] = await vials(1, "WST");
    const [inTransit] = await vials(1);
    await sent([inTransit ?? ""]);
    const s = await startVial(t.db, as("staff"), { itemId: started ?? "" });
    expect(s.ok).toBe(true);
    const other = await draft();
    await add(other, { labelCode: await labelOf(onOther ?? "") });
    const [org] = await t.db.select({ id: schema.organizations.id }).from(schema.organizations);
    await t.db.insert(schema.lotRecalls).values({
      organizationId: org?.id ?? "",
      variationId: BOTOX,
      lot: (await item(recalled ?? "")).lot ?? "",
      note: "Recalled",
      recalledAt: new Date(),
      recalledBy: users.get("owner")?.id ?? null,
    } as never);
    const transferId = await draft();
    const before = await written();
    const tryAdd = async (line: { labelCode: string } | { variationId: string; quantity: number }) =>
      addTransferLine(t.db, as("admin"), { transferId, line });
    expect(await tryAdd({ labelCode: await labelOf(started ?? "") })).toEqual({
      ok: false,
      refusal: "vial_started",
      message: "This vial is open: a started vial stays where it was opened.",
    });
    expect(await tryAdd({ labelCode: await labelOf(west ?? "") })).toMatchObject({ refusal: "vial_elsewhere" });
    expect(await tryAdd({ labelCode: await labelOf(onOther ?? "") })).toMatchObject({ refusal: "vial_on_transfer" });
    expect(await tryAdd({ labelCode: await labelOf(inTransit ?? "") })).toMatchObject({ refusal: "vial_in_transit" });
    expect(await tryAdd({ labelCode: await labelOf(recalled ?? "") })).toMatchObject({
      refusal: "lot_recalled",
      message: expect.stringMatching(/^Lot TR\d+ of Botox Cosmetic is recalled/),
    });
    expect(await tryAdd({ labelCode: "VNOSUCHONE" })).toMatchObject({ refusal: "vial_not_found" });
    expect(await tryAdd({ variationId: PADS, quantity: 1_000_000 })).toMatchObject({ refusal: "not_enough" });
    expect(await tryAdd({ variationId: PADS, quantity: -3 })).toMatchObject({ refusal: "invalid" });
    expect(await tryAdd({ variationId: PADS, quantity: 1.5 })).toMatchObject({ refusal: "invalid" });
    expect(await tryAdd({ variationId: BOTOX, quantity: 10 })).toMatchObject({ refusal: "variation_unavailable" });
    // Staff at Downtown read transfers but do not write them.
    expect(
      await addTransferLine(t.db, as("staff"), { transferId, line: { labelCode: await labelOf(plain ?? "") } }),
    ).toMatchObject({ refusal: "forbidden" });
    expect(await written()).toEqual(before);
  });

  it("refuses to send a lot recalled after it was added, naming it, and sends nothing", async () => {
    const [v] = await vials(1);
    const transferId = await draft();
    await add(transferId, { labelCode: await labelOf(v ?? "") });
    const lot = (await item(v ?? "")).lot ?? "";
    const [org] = await t.db.select({ id: schema.organizations.id }).from(schema.organizations);
    await t.db.insert(schema.lotRecalls).values({
      organizationId: org?.id ?? "",
      variationId: BOTOX,
      lot,
      note: "Recalled",
      recalledAt: new Date(),
      recalledBy: users.get("owner")?.id ?? null,
    } as never);
    const before = await written();
    const refused = await sendTransfer(t.db, as("admin"), { transferId });
    expect(refused).toMatchObject({ ok: false, refusal: "lot_recalled" });
    expect(refused.ok === false && refused.message).toContain(`Lot ${lot} of Botox Cosmetic is recalled`);
    expect(await written()).toEqual(before);
  });

  it("refuses a vial past its expiration date, at adding and at sending, naming it, and writes nothing", async () => {
    const [kept, lapsing] = await vials(2);
    const transferId = await draft();
    await add(transferId, { labelCode: await labelOf(lapsing ?? "") });
    // Both pass their expiration date (a draft can wait on a shelf for weeks).
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    for (const id of [kept, lapsing])
      await t.db.run(sql`UPDATE items SET expiration_date = ${yesterday} WHERE id = ${id ?? ""}`);
    const before = await written();
    const added = await addTransferLine(t.db, as("admin"), {
      transferId,
      line: { labelCode: await labelOf(kept ?? "") },
    });
    expect(added).toMatchObject({
      ok: false,
      refusal: "vial_expired",
      message: `Vial ${await labelOf(kept ?? "")} of Botox Cosmetic expired on ${yesterday}: it cannot be sent. Discard it here as expired.`,
    });
    const sent = await sendTransfer(t.db, as("admin"), { transferId });
    expect(sent).toMatchObject({ ok: false, refusal: "vial_expired" });
    expect(sent.ok === false && sent.message).toMatch(/expired on .*Remove it first\.$/);
    expect(await written()).toEqual(before);
  });

  it("refuses to send more bulk than is on hand now (two drafts of the same stock), sending nothing", async () => {
    const all = await onHand("DTN", PADS);
    const first = await draft();
    await add(first, { variationId: PADS, quantity: all });
    const second = await draft();
    await add(second, { variationId: PADS, quantity: all });
    expect((await sendTransfer(t.db, as("admin"), { transferId: first })).ok).toBe(true);
    const before = await written();
    expect(await sendTransfer(t.db, as("admin"), { transferId: second })).toMatchObject({ refusal: "not_enough" });
    expect(await written()).toEqual(before);
    // Put the pads back for the tests after this one.
    expect(await recallTransfer(t.db, as("admin"), { transferId: first })).toMatchObject({ ok: true });
    expect(await onHand("DTN", PADS)).toBe(all);
  });

  it("refuses creating to the same, an archived or another organization's location, and outside the sender", async () => {
    const [otherOrg] = await t.db.all<{
      id: string;
    }>(sql`INSERT INTO organizations (id, name, created_at) VALUES ('org-x', 'Elsewhere', 0)
      RETURNING id`);
    await t.db.run(
      sql`INSERT INTO locations (id, organization_id, name, code, created_at) VALUES ('loc-x', ${otherOrg?.id}, 'Far', 'FAR', 0)`,
    );
    const before = await written();
    const create = (by: ScopedActor, from: string, to: string) =>
      createTransfer(t.db, by, { fromLocationId: from, toLocationId: to });
    expect(await create(as("admin"), loc.DTN, loc.DTN)).toMatchObject({ refusal: "same_location" });
    expect(await create(as("admin"), loc.DTN, "loc-x")).toMatchObject({ refusal: "location_unavailable" });
    expect(await create(as("owner", ORGANIZATION), loc.DTN, "loc-x")).toMatchObject({
      refusal: "location_unavailable",
    });
    expect(await create(as("staff"), loc.DTN, loc.WST)).toMatchObject({ refusal: "forbidden" });
    expect(await create(as("manager", "WST"), loc.DTN, loc.WST)).toMatchObject({ refusal: "forbidden" });
    expect(await written()).toEqual(before);
  });

  it("refuses a receipt of more than was sent, a short vial, a 10,000-character reason, and the wrong location", async () => {
    const [v] = await vials(1);
    const transferId = await sent([v ?? ""], 20);
    const [vialLine, bulkLine] = await linesOf(transferId);
    const before = await written();
    const receive = (by: ScopedActor, lines: unknown[]) =>
      receiveTransfer(t.db, by, { transferId, lines: lines as never });
    expect(
      await receive(as("manager", "WST"), [{ lineId: bulkLine?.id, status: "short", quantity: 25, reason: "x" }]),
    ).toMatchObject({
      refusal: "receive_too_much",
    });
    expect(
      await receive(as("manager", "WST"), [{ lineId: vialLine?.id, status: "short", quantity: 50, reason: "x" }]),
    ).toMatchObject({
      refusal: "short_vial",
    });
    expect(
      await receive(as("manager", "WST"), [{ lineId: vialLine?.id, status: "missing", reason: "x".repeat(10_000) }]),
    ).toMatchObject({ refusal: "invalid" });
    expect(await receive(as("manager", "WST"), [{ lineId: vialLine?.id, status: "missing" }])).toMatchObject({
      refusal: "invalid",
    });
    expect(
      await receive(as("manager", "WST"), [{ lineId: bulkLine?.id, status: "short", quantity: -1, reason: "x" }]),
    ).toMatchObject({
      refusal: "invalid",
    });
    // The sender does not receive its own transfer; staff at Downtown have no role at Westside.
    expect(await receive(as("admin"), [{ lineId: vialLine?.id, status: "received" }])).toMatchObject({
      refusal: "forbidden",
    });
    expect(await receive(as("staff"), [{ lineId: vialLine?.id, status: "received" }])).toMatchObject({
      refusal: "forbidden",
    });
    expect(await cancelTransfer(t.db, as("admin"), { transferId })).toMatchObject({ refusal: "not_cancellable" });
    expect(await written()).toEqual(before);
  });
});

describe("requests, cancel and recall", () => {
  it("a request from Westside shows at Downtown, becomes a draft when filled, and can be cancelled", async () => {
    const asked = await requestTransfer(t.db, as("manager", "WST"), {
      fromLocationId: loc.DTN,
      toLocationId: loc.WST,
      note: "Two boxes of prep pads for Saturday",
    });
    if (!asked.ok) throw new Error(asked.message);
    expect(
      await requestTransfer(t.db, as("admin"), { fromLocationId: loc.WST, toLocationId: loc.DTN, note: "" }),
    ).toMatchObject({
      refusal: "invalid",
    });
    const seen = await readTransfer(t.db, as("admin"), asked.transferId);
    expect(seen).toMatchObject({
      status: "requested",
      requestedBy: "Maria Manager",
      note: "Two boxes of prep pads for Saturday",
    });
    // Westside cannot fill it (it is Downtown's stock); Downtown can.
    expect(
      await addTransferLine(t.db, as("manager", "WST"), {
        transferId: asked.transferId,
        line: { variationId: PADS, quantity: 400 },
      }),
    ).toMatchObject({ refusal: "forbidden" });
    const lineId = await add(asked.transferId, { variationId: PADS, quantity: 400 });
    expect((await readTransfer(t.db, as("admin"), asked.transferId))?.status).toBe("draft");
    expect(await removeTransferLine(t.db, as("admin"), { transferId: asked.transferId, lineId })).toMatchObject({
      ok: true,
    });
    const cancelled = await cancelTransfer(t.db, as("manager", "WST"), {
      transferId: asked.transferId,
      reason: "Found some",
    });
    expect(cancelled).toEqual({ ok: true, transferId: asked.transferId, status: "cancelled" });
    expect(await t.lastActivity()).toMatchObject({ action: "cancel_transfer", entityId: asked.transferId });
  });

  it("recalls a transfer on its way: its vials sealed at the sender again, everything booked back", async () => {
    const ids = await vials(2);
    const levels = [await onHand("DTN", BOTOX), await onHand("DTN", PADS)];
    const transferId = await sent(ids, 10);
    expect(await recallTransfer(t.db, as("manager", "WST"), { transferId })).toMatchObject({ refusal: "forbidden" });
    const recalled = await recallTransfer(t.db, as("admin"), { transferId, reason: "Wrong clinic" });
    expect(recalled).toEqual({ ok: true, transferId, lines: 3 });
    expect([await onHand("DTN", BOTOX), await onHand("DTN", PADS)]).toEqual(levels);
    for (const v of ids)
      expect(await item(v)).toMatchObject({ state: "sealed", unitsRemaining: 100, locationId: loc.DTN });
    const now = await readTransfer(t.db, as("admin"), transferId);
    expect(now?.status).toBe("cancelled");
    expect(now?.recalledAt).not.toBeNull();
    expect(now?.lines.every((l) => l.status === "returned")).toBe(true);
    await ledgerHolds();
    // Sealed again at Downtown, they can go on a new transfer.
    const next = await draft();
    await add(next, { labelCode: await labelOf(ids[0] ?? "") });
  });

  it("does not recall a transfer once a line was received", async () => {
    const ids = await vials(2);
    const transferId = await sent(ids);
    const [first] = await linesOf(transferId);
    await receiveTransfer(t.db, as("manager", "WST"), {
      transferId,
      lines: [{ lineId: first?.id ?? "", status: "received" }],
    });
    const before = await written();
    expect(await recallTransfer(t.db, as("admin"), { transferId })).toMatchObject({ refusal: "not_recallable" });
    expect(await written()).toEqual(before);
  });
});

describe("concurrency", () => {
  it("two receipts of the same line at once book it once", async () => {
    const [v] = await vials(1);
    const transferId = await sent([v ?? ""]);
    const [line] = await linesOf(transferId);
    const level = await onHand("WST", BOTOX);
    const receive = () =>
      receiveTransfer(t.db, as("manager", "WST"), {
        transferId,
        lines: [{ lineId: line?.id ?? "", status: "received" }],
      });
    const results = await Promise.all([receive(), receive()]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({
      refusal: expect.stringMatching(/line_closed|not_in_transit|changed/),
    });
    expect(await onHand("WST", BOTOX)).toBe(level + 100);
    const ins = await t.db.all(sql`SELECT 1 FROM stock_movements WHERE item_id = ${v} AND type = 'TRANSFER_IN'`);
    expect(ins).toHaveLength(1);
    const completes = await t.db.all(
      sql`SELECT 1 FROM activity_log WHERE entity_id = ${transferId} AND action = 'transfer_complete'`,
    );
    expect(completes).toHaveLength(1);
    await ledgerHolds();
  });
});

describe("concurrency, with both receipts past their reads", () => {
  /** The database, whose batches wait until `n` callers have reached one: every read before them is done. */
  function barrier(n: number) {
    let waiting = 0;
    let open: () => void = () => {};
    const allThere = new Promise<void>((resolve) => {
      open = resolve;
    });
    return new Proxy(t.db, {
      get(target, property, receiver) {
        if (property !== "batch") return Reflect.get(target, property, receiver);
        return async (statements: Parameters<typeof target.batch>[0]) => {
          waiting += 1;
          if (waiting >= n) open();
          await allThere;
          return target.batch(statements);
        };
      },
    });
  }

  it("the SQL guard books a line once when both receipts read it pending", async () => {
    const [v] = await vials(1);
    const transferId = await sent([v ?? ""]);
    const [line] = await linesOf(transferId);
    const level = await onHand("WST", BOTOX);
    const db = barrier(2);
    const receive = (status: "received" | "missing") =>
      receiveTransfer(db, as("manager", "WST"), {
        transferId,
        lines: [{ lineId: line?.id ?? "", status, reason: status === "missing" ? "Not found" : undefined }],
      });
    const results = await Promise.all([receive("received"), receive("missing")]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    // The loser's batch wrote nothing; read again, its one line's transfer is no longer on the way.
    expect(results.find((r) => !r.ok)).toMatchObject({ refusal: "not_in_transit" });
    const ins = await t.db.all(sql`SELECT 1 FROM stock_movements WHERE item_id = ${v} AND type = 'TRANSFER_IN'`);
    expect(ins).toHaveLength(1);
    const closed = (await linesOf(transferId))[0];
    const onWst = await onHand("WST", BOTOX);
    // Whichever won, the ledger agrees with it: received adds the vial, missing adds and discards it.
    expect(onWst).toBe(closed?.status === "received" ? level + 100 : level);
    await ledgerHolds();
  });
});

describe("the JSON API", () => {
  it("creates with lines, sends, receives and lists; a key replays, another request with it is refused", async () => {
    const ids = await vials(2);
    const body = {
      fromLocationId: loc.DTN,
      toLocationId: loc.WST,
      lines: [{ itemId: ids[0] }, { itemId: await labelOf(ids[1] ?? "") }, { variationId: PADS, quantity: 5 }],
      note: "Weekly top-up",
    };
    const created = await api("admin", "POST", "/api/transfers", body, { key: "create-key-0001" });
    expect(created.status).toBe(201);
    expect(created.body.transfer).toMatchObject({
      status: "draft",
      note: "Weekly top-up",
      from: { code: "DTN" },
      to: { code: "WST" },
    });
    expect(created.body.transfer.lines).toHaveLength(3);
    expect(created.body.transfer.lines.map((l: { itemId: string | null }) => l.itemId)).toEqual([ids[0], ids[1], null]);
    const id = created.body.transfer.id as string;
    const replay = await api("admin", "POST", "/api/transfers", body, { key: "create-key-0001" });
    expect(replay).toMatchObject({ status: 201, body: { transfer: { id } } });
    const reused = await api("admin", "POST", "/api/transfers", { ...body, note: "other" }, { key: "create-key-0001" });
    expect(reused).toMatchObject({ status: 422, body: { code: "idempotency_key_reused" } });
    const [{ n }] = (await t.db.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM transfers WHERE note = 'Weekly top-up'`,
    )) as [{ n: number }];
    expect(n).toBe(1);

    const send = await api("admin", "POST", `/api/transfers/${id}/send`, {}, { key: "send-key-0001" });
    expect(send).toMatchObject({ status: 200, body: { transfer: { status: "in_transit" } } });
    const sendAgain = await api("admin", "POST", `/api/transfers/${id}/send`, {}, { key: "send-key-0001" });
    expect(sendAgain).toMatchObject({ status: 200, body: { transfer: { status: "in_transit" } } });
    const sendNoKey = await api("admin", "POST", `/api/transfers/${id}/send`, {});
    expect(sendNoKey).toMatchObject({ status: 409, body: { code: "not_draft" } });

    const lines = send.body.transfer.lines as { id: string; kind: string }[];
    const tooMuch = await api(
      "manager",
      "POST",
      `/api/transfers/${id}/receive`,
      { lines: [{ lineId: lines[2]?.id, status: "short", quantity: 6, reason: "?" }] },
      { where: "WST" },
    );
    expect(tooMuch).toMatchObject({ status: 422, body: { code: "receive_too_much" } });
    const longReason = await api(
      "manager",
      "POST",
      `/api/transfers/${id}/receive`,
      { lines: [{ lineId: lines[0]?.id, status: "missing", reason: "x".repeat(10_000) }] },
      { where: "WST" },
    );
    expect(longReason).toMatchObject({ status: 422, body: { code: "invalid_input" } });
    const fraction = await api(
      "manager",
      "POST",
      `/api/transfers/${id}/receive`,
      { lines: [{ lineId: lines[2]?.id, status: "short", quantity: 2.5, reason: "?" }] },
      { where: "WST" },
    );
    expect(fraction).toMatchObject({ status: 422, body: { code: "invalid_input" } });
    const received = await api(
      "manager",
      "POST",
      `/api/transfers/${id}/receive`,
      {
        lines: [
          { lineId: lines[0]?.id, status: "received" },
          { lineId: lines[1]?.id, status: "received" },
          { lineId: lines[2]?.id, status: "received" },
        ],
      },
      { where: "WST", key: "receive-key-01" },
    );
    expect(received).toMatchObject({ status: 200, body: { transfer: { status: "received" } } });

    const list = await api("manager", "GET", "/api/transfers?status=received", undefined, { where: "WST" });
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { id: string }) => i.id)).toContain(id);
    expect(list.body.items.every((i: { status: string }) => i.status === "received")).toBe(true);
    const one = await api("manager", "GET", `/api/transfers/${id}`, undefined, { where: "WST" });
    expect(one).toMatchObject({ status: 200, body: { transfer: { id, status: "received" } } });
    const badStatus = await api("manager", "GET", "/api/transfers?status=lost", undefined, { where: "WST" });
    expect(badStatus).toMatchObject({ status: 400, body: { code: "invalid_filter" } });
  });

  it("answers a clear 4xx and writes nothing for bad input", async () => {
    const [mine] = await vials(1);
    const [west] = await vials(1, "WST");
    const [started] = await vials(1);
    await startVial(t.db, as("staff"), { itemId: started ?? "" });
    const before = await written();
    const post = (body: unknown, who = "admin") => api(who, "POST", "/api/transfers", body);
    const base = { fromLocationId: loc.DTN, toLocationId: loc.WST };
    expect(await post({ ...base, lines: [{ itemId: west }] })).toMatchObject({
      status: 409,
      body: { code: "vial_elsewhere" },
    });
    expect(await post({ ...base, lines: [{ itemId: started }] })).toMatchObject({
      status: 409,
      body: { code: "vial_started" },
    });
    expect(await post({ ...base, lines: [{ variationId: PADS, quantity: -1 }] })).toMatchObject({
      status: 422,
      body: { code: "invalid_input" },
    });
    expect(await post({ ...base, lines: [{ variationId: PADS, quantity: 0.5 }] })).toMatchObject({ status: 422 });
    expect(await post({ ...base, lines: [] })).toMatchObject({ status: 422, body: { code: "invalid_input" } });
    expect(await post({ ...base, toLocationId: "loc-x", lines: [{ itemId: mine }] })).toMatchObject({
      status: 422,
      body: { code: "location_unavailable" },
    });
    expect(await post({ fromLocationId: "loc-x", toLocationId: loc.WST, lines: [{ itemId: mine }] })).toMatchObject({
      status: 403,
    });
    expect(await post({ ...base, lines: [{ itemId: mine }] }, "staff")).toMatchObject({
      status: 403,
      body: { code: "forbidden" },
    });
    expect(await api("admin", "POST", "/api/transfers/nope/send", {})).toMatchObject({
      status: 404,
      body: { code: "not_found" },
    });
    expect(await written()).toEqual(before);
  });
});

describe("the screens' actions", () => {
  const cookieAt = (who: string, where: "DTN" | "WST") => withLocationChoice(cookies.get(who) ?? "", loc[where]);
  const run = async (
    route: { action: (args: never) => Promise<unknown> },
    path: string,
    cookie: string,
    form: Record<string, string>,
    id?: string,
  ) => {
    try {
      return await route.action({
        request: formRequest(path, cookie, form),
        context: loadContext(t.db),
        params: id ? { id } : {},
      } as never);
    } catch (thrown) {
      return thrown;
    }
  };

  it("makes a draft from a balancing suggestion and goes to it; staff may not", async () => {
    const [v] = await vials(1);
    const form = {
      intent: "draft_from_suggestion",
      fromLocationId: loc.DTN,
      toLocationId: loc.WST,
      lines: JSON.stringify([{ itemId: v }, { variationId: PADS, quantity: 3 }]),
    };
    const made = (await run(indexRoute, "/transfers", await cookieAt("admin", "DTN"), form)) as Response;
    expect(made.status).toBe(302);
    const id = made.headers.get("Location")?.split("/").pop() ?? "";
    const draftMade = await readTransfer(t.db, as("admin"), id);
    expect(draftMade).toMatchObject({ status: "draft", fromLocationId: loc.DTN, toLocationId: loc.WST });
    expect(draftMade?.lines.map((l) => [l.itemId, l.quantity])).toEqual([
      [v, 100],
      [null, 3],
    ]);
    const before = await written();
    const staff = (await run(indexRoute, "/transfers", await cookieAt("staff", "DTN"), form)) as Response;
    expect(staff.status).toBe(403);
    const bad = (await run(indexRoute, "/transfers", await cookieAt("admin", "DTN"), { ...form, lines: "[{" })) as {
      init: { status: number };
    };
    expect(bad.init.status).toBe(400);
    expect(await written()).toEqual(before);
  });

  it("asks before booking a loss on receipt, and books it once confirmed", async () => {
    const [v] = await vials(1);
    const id = await sent([v ?? ""]);
    const [line] = await linesOf(id);
    const cookie = await cookieAt("manager", "WST");
    const form = { intent: "receive", [`status:${line?.id}`]: "damaged", [`reason:${line?.id}`]: "Cracked in the box" };
    const before = await written();
    const asked = (await run(pageRoute, `/transfers/${id}`, cookie, form, id)) as { data: { ask: string } };
    expect(asked.data.ask).toContain(`Vial ${await labelOf(v ?? "")} (Botox Cosmetic): damaged (discarded).`);
    expect(await written()).toEqual(before);
    const booked = (await run(pageRoute, `/transfers/${id}`, cookie, { ...form, confirm: "yes" }, id)) as Response;
    expect(booked.status).toBe(302);
    expect(await item(v ?? "")).toMatchObject({ state: "discarded", discardReason: "damaged", locationId: loc.WST });
  });
});

describe("the list", () => {
  it("pages the transfers newest first, forward and back, each with its own lines' figures", async () => {
    // By now Downtown has sent, received and drafted transfers of every kind; one more with two vials and bulk.
    await sent(await vials(2), 3);
    const expected = await t.db.all<{ id: string; vials: number; bulkLines: number; pending: number }>(sql`
      SELECT t.id, (SELECT count(*) FROM transfer_lines AS l WHERE l.transfer_id = t.id AND l.item_id IS NOT NULL) AS vials,
        (SELECT count(*) FROM transfer_lines AS l WHERE l.transfer_id = t.id AND l.item_id IS NULL) AS bulkLines,
        (SELECT count(*) FROM transfer_lines AS l WHERE l.transfer_id = t.id AND l.status = 'pending') AS pending
      FROM transfers AS t WHERE t.from_location_id = ${loc.DTN} OR t.to_location_id = ${loc.DTN}
      ORDER BY t.created_at DESC, t.id DESC`);
    expect(expected.length).toBeGreaterThan(4);
    const query = { locationIds: [loc.DTN], status: null, pageSize: 2 };
    const shown = (page: Awaited<ReturnType<typeof listTransfers>>) =>
      (page?.items ?? []).map((r) => ({ id: r.id, vials: r.vials, bulkLines: r.bulkLines, pending: r.pending }));
    const numbers = (rows: typeof expected) =>
      rows.map((e) => ({
        id: e.id,
        vials: Number(e.vials),
        bulkLines: Number(e.bulkLines),
        pending: Number(e.pending),
      }));
    const first = await listTransfers(t.db, query);
    expect(shown(first)).toEqual(numbers(expected.slice(0, 2)));
    const second = await listTransfers(t.db, { ...query, after: first?.next ?? "" });
    expect(shown(second)).toEqual(numbers(expected.slice(2, 4)));
    const back = await listTransfers(t.db, { ...query, before: second?.previous ?? "" });
    expect(shown(back)).toEqual(shown(first));
    // Filtered by status: only those, still newest first.
    const drafts = await listTransfers(t.db, { ...query, status: "draft", pageSize: 50 });
    expect(drafts?.items.map((r) => r.id)).toEqual(
      (
        await t.db.all<{ id: string }>(sql`SELECT id FROM transfers WHERE status = 'draft'
          AND (from_location_id = ${loc.DTN} OR to_location_id = ${loc.DTN}) ORDER BY created_at DESC, id DESC`)
      ).map((r) => r.id),
    );
  });
});
