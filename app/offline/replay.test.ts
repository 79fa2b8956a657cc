import "fake-indexeddb/auto";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiClient } from "~/browser/request";
import type { OfflineCommand, ReplayAnswer } from "./contract";
import { type OfflineQueue, openOfflineQueue } from "./queue";
import { type Request, replayWaiting } from "./replay";

const command = (kind: OfflineCommand["kind"], summary: string): OfflineCommand => ({
  kind,
  itemId: "item-1",
  body: kind === "draw" ? { units: "10" } : {},
  recordedAt: "2026-11-27T10:00:00.000Z",
  summary,
});

const json = (data: unknown, status = 200) => new Response(JSON.stringify(data), { status });
const done: ReplayAnswer = { status: "done", result: {} };
const flagged: ReplayAnswer = {
  status: "flagged",
  flag: { id: "flag-1", code: "not_in_use", reason: "The vial was emptied elsewhere." },
};

type Answer = Response | Error;
/** The server's door as the contract says it answers, one answer per call in turn (the last repeats). */
function fakeServer(...answers: Answer[]) {
  const calls: { path: string; key: string | null; body: OfflineCommand }[] = [];
  let index = 0;
  const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
    const headers = new Headers(init?.headers);
    calls.push({ path: String(input), key: headers.get("Idempotency-Key"), body: JSON.parse(String(init?.body)) });
    const answer = answers[Math.min(index++, answers.length - 1)] as Answer;
    if (answer instanceof Error) throw answer;
    return answer.clone();
  });
  // The app's own helper, breaker and all, over the fake network.
  const client = createApiClient({ fetch });
  const request: Request = (method, path, options) => client.request(method, path, options);
  return { calls, request };
}

const opened: OfflineQueue[] = [];
afterEach(() => {
  for (const queue of opened.splice(0)) queue.close();
});

async function queueWith(...entries: [key: string, userId: string, kind: OfflineCommand["kind"]][]) {
  const queue = await openOfflineQueue({ name: randomUUID(), channel: null });
  opened.push(queue);
  for (const [key, userId, kind] of entries) {
    await queue.save({ key, userId, locationId: "loc 1", command: command(kind, `${kind} ${key}`) });
  }
  return queue;
}

const statuses = async (queue: OfflineQueue) => (await queue.list()).map((e) => [e.key, e.status]);

describe("replaying the offline queue", () => {
  it("sends the user's waiting entries in order, each with its key and location, and removes what is done", async () => {
    const queue = await queueWith(
      ["key-start-01", "u1", "start"],
      ["key-draw-001", "u1", "draw"],
      ["key-other-01", "u2", "draw"],
      ["key-draw-002", "u1", "draw"],
    );
    const server = fakeServer(json(done));
    const round = await replayWaiting({ queue, userId: "u1", request: server.request, locks: null });
    expect(round).toEqual({ done: 3, flagged: 0, stuck: 0, stopped: null, busy: false });
    expect(server.calls.map((c) => [c.path, c.key, c.body.kind])).toEqual([
      ["/api/offline-replays?locationId=loc%201", "key-start-01", "start"],
      ["/api/offline-replays?locationId=loc%201", "key-draw-001", "draw"],
      ["/api/offline-replays?locationId=loc%201", "key-draw-002", "draw"],
    ]);
    expect(server.calls[1]?.body).toEqual(command("draw", "draw key-draw-001"));
    // Another user's entry is not theirs to send.
    expect(await statuses(queue)).toEqual([["key-other-01", "waiting"]]);
  });

  it("keeps a flagged answer as flagged, with its reason, and goes on", async () => {
    const queue = await queueWith(["key-draw-001", "u1", "draw"], ["key-draw-002", "u1", "draw"]);
    const server = fakeServer(json(flagged), json(done));
    const round = await replayWaiting({ queue, userId: "u1", request: server.request, locks: null });
    expect(round).toMatchObject({ done: 1, flagged: 1, stopped: null });
    const [entry, ...rest] = await queue.list();
    expect(entry).toMatchObject({ key: "key-draw-001", status: "flagged", flag: flagged.flag });
    expect(rest).toEqual([]);
    // A flag is not sent again.
    const again = fakeServer(json(done));
    await replayWaiting({ queue, userId: "u1", request: again.request, locks: null });
    expect(again.calls).toEqual([]);
  });

  it.each([400, 403, 404])("keeps a %i answer as stuck with the server's message, never dropped", async (status) => {
    const queue = await queueWith(["key-draw-001", "u1", "draw"], ["key-draw-002", "u1", "draw"]);
    const server = fakeServer(json({ error: "You cannot do that here.", code: "forbidden" }, status), json(done));
    const round = await replayWaiting({ queue, userId: "u1", request: server.request, locks: null });
    expect(round).toMatchObject({ done: 1, stuck: 1, stopped: null });
    expect(await queue.list()).toEqual([
      expect.objectContaining({ key: "key-draw-001", status: "stuck", problem: "You cannot do that here." }),
    ]);
  });

  it("tries a stuck entry again only when its person asks (Send now), under the same key", async () => {
    const queue = await queueWith(["key-draw-001", "u1", "draw"]);
    const server = fakeServer(json({ error: "No such path", code: "not_found" }, 404), json(done));
    await replayWaiting({ queue, userId: "u1", request: server.request, locks: null });
    await replayWaiting({ queue, userId: "u1", request: server.request, locks: null });
    expect(server.calls).toHaveLength(1);
    expect(await statuses(queue)).toEqual([["key-draw-001", "stuck"]]);
    const round = await replayWaiting({ queue, userId: "u1", request: server.request, locks: null, retryStuck: true });
    expect(round).toMatchObject({ done: 1 });
    expect(server.calls.map((c) => c.key)).toEqual(["key-draw-001", "key-draw-001"]);
    expect(await queue.list()).toEqual([]);
  });

  it("stops at 401 and waits for a sign-in, keeping the entry and those after it", async () => {
    const queue = await queueWith(["key-draw-001", "u1", "draw"], ["key-draw-002", "u1", "draw"]);
    const server = fakeServer(json({ error: "Sign in", code: "unauthorized" }, 401));
    const round = await replayWaiting({ queue, userId: "u1", request: server.request, locks: null });
    expect(round).toMatchObject({ done: 0, stopped: "signed_out" });
    expect(server.calls).toHaveLength(1);
    expect(await statuses(queue)).toEqual([
      ["key-draw-001", "waiting"],
      ["key-draw-002", "waiting"],
    ]);
  });

  it.each([
    ["no connection", new TypeError("Failed to fetch")],
    ["the database down", json({ error: "Database unavailable", code: "database_unavailable" }, 503)],
    ["a server error", json({ error: "Boom", code: "internal" }, 500)],
  ])("stops on %s and sends the same key again later, exactly once in the end", async (_, failure) => {
    const queue = await queueWith(["key-draw-001", "u1", "draw"], ["key-draw-002", "u1", "draw"]);
    const server = fakeServer(failure as Answer, failure as Answer, json(done));
    expect(await replayWaiting({ queue, userId: "u1", request: server.request, locks: null })).toMatchObject({
      stopped: "unreachable",
    });
    expect(await replayWaiting({ queue, userId: "u1", request: server.request, locks: null })).toMatchObject({
      stopped: "unreachable",
    });
    expect(await statuses(queue)).toHaveLength(2);
    expect(await replayWaiting({ queue, userId: "u1", request: server.request, locks: null })).toMatchObject({
      done: 2,
      stopped: null,
    });
    expect(server.calls.map((c) => c.key)).toEqual(["key-draw-001", "key-draw-001", "key-draw-001", "key-draw-002"]);
    expect(await queue.list()).toEqual([]);
  });

  it("stops while the breaker is open, without calling the server", async () => {
    const queue = await queueWith(["key-draw-001", "u1", "draw"]);
    const server = fakeServer(json({ error: "Boom", code: "internal" }, 500));
    for (let i = 0; i < 10; i++) await replayWaiting({ queue, userId: "u1", request: server.request, locks: null });
    const calls = server.calls.length;
    expect(calls).toBeLessThan(10);
    expect(await replayWaiting({ queue, userId: "u1", request: server.request, locks: null })).toMatchObject({
      stopped: "unreachable",
    });
    expect(server.calls).toHaveLength(calls);
    expect(await statuses(queue)).toEqual([["key-draw-001", "waiting"]]);
  });

  it("sends nothing while another tab holds the lock, and joins a round already running in this tab", async () => {
    const queue = await queueWith(["key-draw-001", "u1", "draw"]);
    const server = fakeServer(json(done));
    const heldElsewhere = {
      request: (_name: string, _options: LockOptions, callback: (lock: Lock | null) => unknown) =>
        Promise.resolve(callback(null)),
    } as Pick<LockManager, "request">;
    expect(await replayWaiting({ queue, userId: "u1", request: server.request, locks: heldElsewhere })).toMatchObject({
      busy: true,
      done: 0,
    });
    expect(server.calls).toEqual([]);
    const first = replayWaiting({ queue, userId: "u1", request: server.request, locks: null });
    const second = replayWaiting({ queue, userId: "u1", request: server.request, locks: null });
    expect(await second).toEqual(await first);
    expect(server.calls).toHaveLength(1);
  });
});
