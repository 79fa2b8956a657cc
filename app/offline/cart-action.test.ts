import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { countCartAction, savedMessage, vialCartAction } from "./cart-action";
import { openQueue, setQueueUser } from "./store";
import { type OfflineVialFacts, offlineCountField, offlineVialField } from "./vial-facts";

const facts: OfflineVialFacts = {
  name: "Botox 100 U (lot C1234)",
  unit: "U",
  unitsLeft: "80 U",
  wasting: 80,
  locationId: "loc-1",
  witness: false,
};
const NOW = new Date("2026-11-27T10:00:00.000Z");

let keyCounter = 0;
function post(fields: Record<string, string>, vial: OfflineVialFacts = facts) {
  const form = new FormData();
  const all = { idempotencyKey: `key-${String(++keyCounter).padStart(8, "0")}`, ...offlineVialField(vial), ...fields };
  for (const [name, value] of Object.entries(all)) form.append(name, value);
  return {
    request: new Request("http://clinic.test/inventory/item-1", { method: "POST", body: form }),
    key: all.idempotencyKey,
  };
}

async function entries() {
  return (await openQueue()).list();
}

beforeEach(async () => {
  setQueueUser("u1");
  const queue = await openQueue();
  for (const entry of await queue.list()) await queue.remove(entry.key);
});
afterEach(() => {
  vi.unstubAllGlobals();
});
const goOffline = () => vi.stubGlobal("navigator", { onLine: false });

describe("a vial form at the cart", () => {
  it("goes to the server as before while online, and nothing is kept", async () => {
    const online = vi.fn(async () => ({ ok: true }));
    const { request } = post({ intent: "draw", units: "10" });
    expect(await vialCartAction({ request, itemId: "item-1", online, now: () => NOW })).toEqual({ ok: true });
    expect(online).toHaveBeenCalledOnce();
    expect(await entries()).toEqual([]);
  });

  it("offline, saves a draw as its JSON twin under the form's key, used now, and says so", async () => {
    goOffline();
    const online = vi.fn();
    const { request, key } = post({
      intent: "draw",
      units: " 10 ",
      serviceId: "",
      provider: "Dr Lee",
      patientRef: "C-1",
    });
    const answer = await vialCartAction({ request, itemId: "item-1", online, now: () => NOW });
    expect(online).not.toHaveBeenCalled();
    expect(answer).toMatchObject({
      queued: {
        intent: "draw",
        key,
        message:
          "Saved on this device: Draw 10 U from Botox 100 U (lot C1234). It will be sent when the connection is back.",
        note: null,
      },
    });
    expect(await entries()).toEqual([
      expect.objectContaining({
        key,
        userId: "u1",
        locationId: "loc-1",
        status: "waiting",
        command: {
          kind: "draw",
          itemId: "item-1",
          body: { units: "10", serviceId: null, provider: "Dr Lee", patientRef: "C-1", usedAt: NOW.toISOString() },
          recordedAt: NOW.toISOString(),
          summary: "Draw 10 U from Botox 100 U (lot C1234)",
        },
      }),
    ]);
  });

  it("saves the post that fails at the network, and passes the server's own answers on", async () => {
    const { request, key } = post({ intent: "start" });
    const answer = await vialCartAction({
      request,
      itemId: "item-1",
      online: () => Promise.reject(new TypeError("Failed to fetch")),
    });
    expect(answer).toMatchObject({ queued: { key, message: savedMessage("Start Botox 100 U (lot C1234)") } });
    const refused = new Response("Not found", { status: 404 });
    await expect(
      vialCartAction({
        request: post({ intent: "start" }).request,
        itemId: "item-1",
        online: () => Promise.reject(refused),
      }),
    ).rejects.toBe(refused);
    expect((await entries()).map((e) => e.key)).toEqual([key]);
  });

  it("offline, refuses a draw the server would refuse, next to its field, and keeps nothing", async () => {
    goOffline();
    const answer = await vialCartAction({
      request: post({ intent: "draw", units: "ten" }).request,
      itemId: "item-1",
      online: vi.fn(),
    });
    expect(answer).toMatchObject({ intent: "draw", fieldErrors: { units: expect.stringContaining("units drawn") } });
    expect(await entries()).toEqual([]);
  });

  it("offline, asks first before an empty with units left, then saves it when confirmed", async () => {
    goOffline();
    const asked = await vialCartAction({
      request: post({ intent: "empty" }).request,
      itemId: "item-1",
      online: vi.fn(),
    });
    expect(asked).toMatchObject({
      intent: "empty",
      ask: { question: "Empty this vial? 80 U of Botox 100 U (lot C1234) will be booked as waste.", wasting: 80 },
    });
    expect(await entries()).toEqual([]);
    const { request, key } = post({ intent: "empty", confirmWaste: "80" });
    expect(await vialCartAction({ request, itemId: "item-1", online: vi.fn() })).toMatchObject({ queued: { key } });
    expect((await entries())[0]?.command).toMatchObject({ kind: "empty", body: {} });
  });

  it("never keeps a witness's password: the record goes without it, flagged for a manager", async () => {
    goOffline();
    const controlled = { ...facts, witness: true };
    const asked = await vialCartAction({
      request: post({ intent: "discard", reason: "contaminated" }, controlled).request,
      itemId: "item-1",
      online: vi.fn(),
    });
    expect(asked).toMatchObject({ ask: { question: expect.stringContaining("flagged for a manager") } });
    const { request } = post(
      {
        intent: "discard",
        reason: "contaminated",
        confirmWaste: "80",
        witnessEmail: "w@demo.clinic",
        witnessPassword: "hunter22",
      },
      controlled,
    );
    const saved = await vialCartAction({ request, itemId: "item-1", online: vi.fn() });
    expect(saved).toMatchObject({ queued: { note: expect.stringContaining("without a witness") } });
    const [entry] = await entries();
    expect(entry?.command.body).toEqual({ reason: "contaminated", note: null });
    expect(JSON.stringify(entry)).not.toContain("hunter22");
  });
});

describe("a count form at the cart", () => {
  function count(fields: Record<string, string>) {
    const form = new FormData();
    const key = `key-${String(++keyCounter).padStart(8, "0")}`;
    for (const [name, value] of Object.entries({ idempotencyKey: key, sessionId: "session-1", ...fields })) {
      form.append(name, value);
    }
    return { request: new Request("http://clinic.test/audit", { method: "POST", body: form }), key };
  }

  it("offline, saves a vial scanned and a bulk quantity as the counts API's bodies, in order", async () => {
    goOffline();
    const scan = count({
      intent: "scan",
      labelCode: "VIAL-1",
      unitsRemaining: "40",
      ...offlineCountField({ locationId: "loc-1" }),
    });
    const bulk = count({
      intent: "bulk",
      variationId: "var-1",
      lot: "",
      quantity: "12",
      ...offlineCountField({ locationId: "loc-1", name: "Gauze · Box", unit: "ea" }),
    });
    expect(await countCartAction({ request: scan.request, online: vi.fn(), now: () => NOW })).toMatchObject({
      queued: { intent: "scan", key: scan.key, message: savedMessage("Count vial VIAL-1 (40 left)") },
    });
    expect(await countCartAction({ request: bulk.request, online: vi.fn(), now: () => NOW })).toMatchObject({
      queued: { intent: "bulk", message: savedMessage("Count 12 ea of Gauze · Box") },
    });
    expect(
      (await entries()).map((e) => [e.key, e.locationId, e.command.kind, e.command.sessionId, e.command.body]),
    ).toEqual([
      [scan.key, "loc-1", "count", "session-1", { labelCode: "VIAL-1", unitsRemaining: "40" }],
      [bulk.key, "loc-1", "count", "session-1", { variationId: "var-1", lot: null, quantity: "12" }],
    ]);
  });

  it("online, goes to the server as before", async () => {
    const online = vi.fn(async () => "sent");
    const { request } = count({ intent: "scan", labelCode: "VIAL-1", ...offlineCountField({ locationId: "loc-1" }) });
    expect(await countCartAction({ request, online })).toBe("sent");
    expect(await entries()).toEqual([]);
  });
});
