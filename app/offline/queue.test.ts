import "fake-indexeddb/auto";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { OfflineCommand } from "./contract";
import { type OfflineQueue, openOfflineQueue, type QueueChange } from "./queue";

const draw = (units: number): OfflineCommand => ({
  kind: "draw",
  itemId: "item-1",
  body: { units: String(units) },
  recordedAt: "2026-11-27T10:00:00.000Z",
  summary: `Draw ${units} U from Botox 100 U`,
});

const opened: OfflineQueue[] = [];
async function open(name: string, channel: BroadcastChannel | null = null) {
  const queue = await openOfflineQueue({ name, channel });
  opened.push(queue);
  return queue;
}
afterEach(() => {
  for (const queue of opened.splice(0)) queue.close();
});

describe("the offline queue", () => {
  it("keeps entries in the order they were saved, each waiting under its key", async () => {
    const queue = await open(randomUUID());
    for (const [key, units] of [
      ["key-bbbbbbbb", 10],
      ["key-aaaaaaaa", 20],
      ["key-cccccccc", 5],
    ] as const) {
      await queue.save({ key, userId: "u1", locationId: "loc-1", command: draw(units) });
    }
    const entries = await queue.list("u1");
    expect(entries.map((e) => [e.key, e.seq, e.status])).toEqual([
      ["key-bbbbbbbb", 1, "waiting"],
      ["key-aaaaaaaa", 2, "waiting"],
      ["key-cccccccc", 3, "waiting"],
    ]);
  });

  it("survives a new connection (a reload, a browser restart)", async () => {
    const name = randomUUID();
    const first = await open(name);
    await first.save({ key: "key-11111111", userId: "u1", locationId: "loc-1", command: draw(10) });
    first.close();
    opened.splice(opened.indexOf(first), 1);
    const again = await open(name);
    const [entry] = await again.list("u1");
    expect(entry).toMatchObject({ key: "key-11111111", locationId: "loc-1", status: "waiting", command: draw(10) });
    await again.save({ key: "key-22222222", userId: "u1", locationId: "loc-1", command: draw(3) });
    expect((await again.list()).map((e) => e.seq)).toEqual([1, 2]);
  });

  it("keeps the first entry when the same key is saved twice (a double tap)", async () => {
    const queue = await open(randomUUID());
    await queue.save({ key: "key-11111111", userId: "u1", locationId: "loc-1", command: draw(10) });
    const again = await queue.save({ key: "key-11111111", userId: "u1", locationId: "loc-1", command: draw(99) });
    expect(again.command).toEqual(draw(10));
    expect(await queue.list()).toHaveLength(1);
  });

  it("lists only the user's own entries when asked for one user", async () => {
    const queue = await open(randomUUID());
    await queue.save({ key: "key-11111111", userId: "u1", locationId: "loc-1", command: draw(1) });
    await queue.save({ key: "key-22222222", userId: "u2", locationId: "loc-1", command: draw(2) });
    expect((await queue.list("u2")).map((e) => e.key)).toEqual(["key-22222222"]);
    expect(await queue.list()).toHaveLength(2);
  });

  it("lets only its person dismiss a flagged entry, and never a waiting or stuck one", async () => {
    const queue = await open(randomUUID());
    await queue.save({ key: "key-11111111", userId: "u1", locationId: "loc-1", command: draw(1) });
    await queue.save({ key: "key-22222222", userId: "u1", locationId: "loc-1", command: draw(2) });
    await queue.save({ key: "key-33333333", userId: "u1", locationId: "loc-1", command: draw(3) });
    await queue.mark("key-22222222", { status: "flagged", flag: { id: "f1", code: "not_in_use", reason: "Emptied" } });
    await queue.mark("key-33333333", { status: "stuck", problem: "No WRITE_INVENTORY there" });
    expect(await queue.dismiss("key-11111111", "u1")).toBe(false);
    expect(await queue.dismiss("key-33333333", "u1")).toBe(false);
    expect(await queue.dismiss("key-22222222", "u2")).toBe(false);
    expect(await queue.dismiss("key-22222222", "u1")).toBe(true);
    expect((await queue.list()).map((e) => [e.key, e.status, e.problem])).toEqual([
      ["key-11111111", "waiting", undefined],
      ["key-33333333", "stuck", "No WRITE_INVENTORY there"],
    ]);
  });

  it("announces every change to this tab and to the others", async () => {
    const name = randomUUID();
    const channel = `test-${name}`;
    const here = await open(name, new BroadcastChannel(channel));
    const there = await open(name, new BroadcastChannel(channel));
    const seenHere: QueueChange[] = [];
    const seenThere: QueueChange[] = [];
    here.subscribe((c) => seenHere.push(c));
    there.subscribe((c) => seenThere.push(c));
    await here.save({ key: "key-11111111", userId: "u1", locationId: "loc-1", command: draw(1) });
    await here.remove("key-11111111");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const expected = [
      { type: "saved", key: "key-11111111" },
      { type: "removed", key: "key-11111111" },
    ];
    expect(seenHere).toEqual(expected);
    expect(seenThere).toEqual(expected);
    expect(await there.list()).toEqual([]);
  });
});
