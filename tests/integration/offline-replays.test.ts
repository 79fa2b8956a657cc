// The server's one door for the offline queue's replays (issue #25, app/offline/contract.ts) and the
// flagged records it keeps, against a real database: POST /api/offline-replays runs the command's own
// verb with the entry's key (done), or keeps a refused one as a flag with its activity row (flagged);
// the same key answers the same and writes nothing; a flagged command is never applied later; a
// database outage is a 503, never a flag; 401/403/400 as the contract says. Then a manager's
// resolution: once, with a note, READ_AUDITS at the flag's location only, and who sees which flags.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import { startCount } from "../../app/counts/start.server";
import { type Database, schema } from "../../app/db/client.server";
import { DATABASE_UNAVAILABLE } from "../../app/db/outage";
import { listFlags, resolveFlag } from "../../app/offline/flags.server";
import { REPLAY_MESSAGES, RESOLVE_MESSAGES } from "../../app/offline/forms";
import { FLAG_REFUSALS } from "../../app/offline/outcome";
import { replayCommand } from "../../app/offline/replay.server";
import { action as flaggedAction, loader as flaggedLoader } from "../../app/routes/_app.flagged";
import { action as replayAction } from "../../app/routes/api.offline-replays";
import { clockTimeIn } from "../../app/ui/dates";
import { drawUnits } from "../../app/vials/draw.server";
import { VIAL_REFUSALS } from "../../app/vials/outcome";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { receiveVials, variationNamed } from "../support/receive";
import { formRequest, loadContext, outcome, pageRequest, signedIn, withLocationChoice } from "../support/screens";

const ORIGIN = "http://clinic.test";
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

let t: TestDatabase;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let BOTOX: string;
const users = new Map<string, SessionUser>();
const cookies = new Map<string, string>();

function as(name: string, where: "DTN" | "WST" | typeof ORGANIZATION = "DTN"): ScopedActor {
  const user = users.get(name);
  if (!user) throw new Error(`no user ${name}`);
  return { ...user, locationId: where === ORGANIZATION ? ORGANIZATION : loc[where] };
}

let lotCounter = 0;
async function sealed(where: "DTN" | "WST" = "DTN"): Promise<string> {
  const [id] = await receiveVials(t.db, as(where === "DTN" ? "admin" : "manager", where), {
    locationId: loc[where],
    variationId: BOTOX,
    quantity: 1,
    lot: `OR${++lotCounter}`,
    expirationDate: day(200),
  });
  if (!id) throw new Error("nothing received");
  // Received two days ago, so a command recorded hours ago lies after it.
  await t.db.run(sql`UPDATE items SET received_at = ${Date.now() - 2 * DAY} WHERE id = ${id}`);
  return id;
}

let keyCounter = 0;
const freshKey = () => `replay-${Date.now()}-${++keyCounter}`;

/** POST /api/offline-replays as `who` (a cookie name), through the route and its door. */
async function replay(
  who: string | null,
  command: unknown,
  { key = freshKey() as string | null, locationId = loc.DTN as string | null, db = t.db as Database } = {},
) {
  const query = locationId ? `?locationId=${encodeURIComponent(locationId)}` : "";
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (who) headers.Cookie = cookies.get(who) ?? "";
  if (key) headers["Idempotency-Key"] = key;
  const request = new Request(`${ORIGIN}/api/offline-replays${query}`, {
    method: "POST",
    headers,
    body: typeof command === "string" ? command : JSON.stringify(command),
  });
  let response: Response;
  try {
    response = await replayAction({ request, context: loadContext(db), params: {} } as ActionFunctionArgs);
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: response.status, body, key };
}

/** Everything a replay may write, counted in one batch. */
async function written() {
  const [flags, activity, keys, usage, items] = await t.db.batch([
    t.db.select({ n: count() }).from(schema.offlineFlags),
    t.db.select({ n: count() }).from(schema.activityLog),
    t.db.select({ n: count() }).from(schema.idempotencyKeys),
    t.db.select({ n: count() }).from(schema.usageEntries),
    t.db.all<{ sig: string }>(sql`SELECT group_concat(id || state || units_remaining || coalesce(started_at, ''), ',')
      AS sig FROM (SELECT * FROM items ORDER BY id)`),
  ]);
  return {
    flags: flags[0]?.n,
    activity: activity[0]?.n,
    keys: keys[0]?.n,
    usage: usage[0]?.n,
    items: items[0]?.sig,
  };
}

async function itemOf(id: string) {
  const [row] = await t.db.select().from(schema.items).where(eq(schema.items.id, id));
  if (!row) throw new Error(`no item ${id}`);
  return row;
}

async function flagRow(id: string) {
  const [row] = await t.db.select().from(schema.offlineFlags).where(eq(schema.offlineFlags.id, id));
  if (!row) throw new Error(`no flag ${id}`);
  return row;
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "manager", "staff", "multi", "newhire"]) {
    const { user, cookie } = await signedIn(t.db, name);
    users.set(name, user);
    cookies.set(name, cookie);
  }
  BOTOX = await variationNamed(t.db, "Botox Cosmetic", "100 U vial");
});
afterAll(() => t.close());

describe("POST /api/offline-replays", () => {
  it("applies a draw recorded offline at its recordedAt, answering done as the twin does, once per key", async () => {
    const id = await sealed();
    const recordedAt = new Date(Date.now() - 3 * HOUR);
    const command = {
      kind: "draw",
      itemId: id,
      body: { units: 10 },
      recordedAt: recordedAt.toISOString(),
      summary: "Draw 10 U from Botox Cosmetic 100 U vial",
    };
    const before = await written();
    const first = await replay("staff", command);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: "done",
      result: {
        vial: { id, state: "in_use", unitsRemaining: 90, startedAt: recordedAt.toISOString() },
        usage: { units: 10, usedAt: recordedAt.toISOString() },
        started: { startedAt: recordedAt.toISOString() },
      },
    });
    const [usage] = await t.db.select().from(schema.usageEntries).where(eq(schema.usageEntries.itemId, id));
    expect(usage?.usedAt).toEqual(recordedAt);
    const after = await written();
    expect(after).toMatchObject({ flags: before.flags, usage: (before.usage ?? 0) + 1, keys: (before.keys ?? 0) + 1 });
    // Sent again (the answer was lost on the way): the same answer, nothing written.
    const again = await replay("staff", command, { key: first.key });
    expect(again).toEqual(first);
    expect(await written()).toEqual(after);
  });

  it("answers done, writing nothing, for a form post that was applied before the device lost its answer", async () => {
    const id = await sealed();
    const key = freshKey();
    // The vial page's draw form, posted with its key and no time: applied, but the answer never
    // reached the device, which kept it and now sends it here with its time filled in.
    const posted = await drawUnits(t.db, as("staff"), { itemId: id, units: 10, idempotencyKey: key });
    expect(posted.ok).toBe(true);
    const before = await written();
    const command = {
      kind: "draw",
      itemId: id,
      body: { units: 10 },
      recordedAt: new Date().toISOString(),
      summary: "Draw 10 U from Botox Cosmetic 100 U vial",
    };
    const sent = await replay("staff", command, { key });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      status: "done",
      result: { vial: { id, unitsRemaining: 90 }, usage: { units: 10 } },
    });
    expect(await written()).toEqual(before);
    // The same key for another act (another vial) is still the client's mistake, never a done.
    const other = await sealed();
    const misused = await replay("staff", { ...command, itemId: other }, { key });
    expect(misused.status).toBe(422);
  });

  it("starts a vial at recordedAt: its deadline counts from when it happened at the cart", async () => {
    const id = await sealed();
    const recordedAt = new Date(Date.now() - 4 * HOUR);
    const started = await replay("staff", {
      kind: "start",
      itemId: id,
      body: {},
      recordedAt: recordedAt.toISOString(),
      summary: "Start Botox Cosmetic 100 U vial",
    });
    expect(started.body).toMatchObject({ status: "done", result: { vial: { state: "in_use" } } });
    expect(await itemOf(id)).toMatchObject({ startedAt: recordedAt, expiresAt: new Date(recordedAt.getTime() + DAY) });
  });

  it("keeps a refused command as a flag with its activity row, in one batch, and answers flagged", async () => {
    const id = await sealed();
    const recordedAt = new Date(Date.now() - HOUR);
    const before = await written();
    const flagged = await replay("staff", {
      kind: "empty",
      itemId: id,
      body: { witness: { email: "admin@demo.clinic", password: "not kept" } },
      recordedAt: recordedAt.toISOString(),
      summary: "Empty Botox Cosmetic 100 U vial",
    });
    expect(flagged.status).toBe(200);
    expect(flagged.body).toEqual({
      status: "flagged",
      flag: { id: expect.any(String), code: "not_in_use", reason: VIAL_REFUSALS.not_in_use },
    });
    const flagId = (flagged.body.flag as { id: string }).id;
    const row = await flagRow(flagId);
    expect(row).toMatchObject({
      locationId: loc.DTN,
      userId: users.get("staff")?.id,
      kind: "empty",
      itemId: id,
      sessionId: null,
      summary: "Empty Botox Cosmetic 100 U vial",
      recordedAt,
      code: "not_in_use",
      idempotencyKey: flagged.key,
      resolvedAt: null,
    });
    // The body as sent, never a password.
    expect(JSON.parse(row.body)).toEqual({ witness: { email: "admin@demo.clinic" } });
    expect(await t.lastActivity()).toMatchObject({
      action: "flag_offline_command",
      entity: "offline_flag",
      entityId: flagId,
      locationId: loc.DTN,
      userId: users.get("staff")?.id,
      summary: { kind: "empty", code: "not_in_use", summary: "Empty Botox Cosmetic 100 U vial", itemId: id },
    });
    const after = await written();
    expect(after).toMatchObject({
      flags: (before.flags ?? 0) + 1,
      activity: (before.activity ?? 0) + 1,
      keys: before.keys,
      items: before.items,
    });
    // The same entry again: the same flag, nothing written.
    const command = {
      kind: "empty",
      itemId: id,
      body: { witness: { email: "admin@demo.clinic", password: "typed again" } },
      recordedAt: recordedAt.toISOString(),
      summary: "Empty Botox Cosmetic 100 U vial",
    };
    expect((await replay("staff", command, { key: flagged.key })).body).toEqual(flagged.body);
    // The same key with another command: a mistake of the queue's, said, never answered with this flag.
    expect(await replay("staff", { ...command, summary: "Empty it" }, { key: flagged.key })).toMatchObject({
      status: 422,
      body: { code: "idempotency_key_reused" },
    });
    expect(await written()).toEqual(after);
  });

  it("never applies a flagged draw later, even once the reason is gone", async () => {
    const id = await sealed();
    const { lot } = await itemOf(id);
    const [org] = await t.db.select({ id: schema.organizations.id }).from(schema.organizations);
    await t.db.insert(schema.lotRecalls).values({
      organizationId: org?.id ?? "",
      variationId: BOTOX,
      lot: lot ?? "",
      note: "Manufacturer recall notice",
      recalledAt: new Date(),
    });
    const command = {
      kind: "draw",
      itemId: id,
      body: { units: "20", patientRef: "MRN-1" },
      recordedAt: new Date(Date.now() - HOUR).toISOString(),
      summary: "Draw 20 U from Botox Cosmetic 100 U vial",
    };
    const flagged = await replay("staff", command);
    expect(flagged.body).toMatchObject({
      status: "flagged",
      flag: { code: "recalled", reason: VIAL_REFUSALS.recalled },
    });
    // The recall is lifted; the queue sends the same entry again.
    await t.db.run(
      sql`UPDATE lot_recalls SET lifted_at = ${Date.now()}, lifted_by = ${users.get("admin")?.id}, lift_note = ${"Cleared"} WHERE lot = ${lot}`,
    );
    const before = await written();
    const again = await replay("staff", command, { key: flagged.key });
    expect(again.body).toEqual(flagged.body);
    expect(await written()).toEqual(before);
    expect(await itemOf(id)).toMatchObject({ state: "sealed", unitsRemaining: 100 });
    // What it refused is gone: the same draw as a new entry (another key) is applied now.
    expect((await replay("staff", command)).body).toMatchObject({ status: "done", result: { usage: { units: 20 } } });
  });

  it("flags a body its verb does not parse (it is what happened at the cart), and a count of an unknown count", async () => {
    const id = await sealed();
    const unparsed = await replay("staff", {
      kind: "draw",
      itemId: id,
      body: { units: "lots" },
      recordedAt: new Date().toISOString(),
      summary: "Draw lots",
    });
    expect(unparsed.body).toMatchObject({ status: "flagged", flag: { code: "invalid" } });
    const counted = await replay("staff", {
      kind: "count",
      sessionId: "no-such-count",
      body: { labelCode: "XYZ" },
      recordedAt: new Date().toISOString(),
      summary: "Count XYZ",
    });
    expect(counted.body).toMatchObject({ status: "flagged", flag: { code: "not_found" } });
    expect(await flagRow((counted.body.flag as { id: string }).id)).toMatchObject({
      kind: "count",
      sessionId: "no-such-count",
      itemId: null,
    });
  });

  it("counts a vial scanned offline in the open count: done with the count's answer, once", async () => {
    const id = await sealed();
    const { labelCode } = await itemOf(id);
    const opened = await startCount(t.db, as("admin"), { locationId: loc.DTN, scope: { kind: "all" }, blind: false });
    if (!opened.ok) throw new Error(opened.message);
    const command = {
      kind: "count",
      sessionId: opened.sessionId,
      body: { labelCode },
      recordedAt: new Date().toISOString(),
      summary: `Count ${labelCode}`,
    };
    const counted = await replay("staff", command);
    expect(counted.body).toMatchObject({ status: "done", result: { already: false, found: false, quantity: 100 } });
    const after = await written();
    // Sent again: done, the same line, nothing written. (The count verb answers a vial counted
    // before without units as `already` before it looks at the key: its JSON twin answers so too.)
    const lineId = (counted.body.result as { lineId: string }).lineId;
    expect((await replay("staff", command, { key: counted.key })).body).toMatchObject({
      status: "done",
      result: { lineId },
    });
    expect(await written()).toEqual(after);
  });

  it("answers 400 invalid_body for a malformed envelope or no key, writing nothing", async () => {
    const id = await sealed();
    const good = { kind: "draw", itemId: id, body: { units: 1 }, recordedAt: new Date().toISOString(), summary: "D" };
    const before = await written();
    const cases: [unknown, string][] = [
      [{ ...good, kind: "transfer" }, REPLAY_MESSAGES.kind],
      [{ ...good, itemId: undefined }, REPLAY_MESSAGES.itemId],
      [{ ...good, kind: "count" }, REPLAY_MESSAGES.sessionId],
      [{ ...good, body: [1] }, REPLAY_MESSAGES.body],
      [{ ...good, recordedAt: "yesterday" }, REPLAY_MESSAGES.recordedAt],
      [{ ...good, summary: "" }, REPLAY_MESSAGES.summary],
    ];
    for (const [command, message] of cases) {
      const answer = await replay("staff", command);
      expect(answer).toMatchObject({ status: 400, body: { code: "invalid_body", error: message } });
    }
    expect(await replay("staff", good, { key: null })).toMatchObject({
      status: 400,
      body: { code: "invalid_body", error: REPLAY_MESSAGES.key },
    });
    expect(await replay("staff", "not json")).toMatchObject({ status: 400, body: { code: "invalid_json" } });
    expect(await replay("staff", good, { key: "bad key!" })).toMatchObject({
      status: 400,
      body: { code: "invalid_idempotency_key" },
    });
    // Organization mode names no one location: the flag would belong nowhere.
    const owner = await withLocationChoice(cookies.get("owner") ?? "", ORGANIZATION);
    cookies.set("owner-org", owner);
    expect(await replay("owner-org", good, { locationId: null })).toMatchObject({
      status: 400,
      body: { code: "invalid_body", error: REPLAY_MESSAGES.location },
    });
    expect(await written()).toEqual(before);
  });

  it("answers 401 signed out, 403 without WRITE_INVENTORY at the location named, writing nothing", async () => {
    const id = await sealed();
    const good = { kind: "start", itemId: id, body: {}, recordedAt: new Date().toISOString(), summary: "Start" };
    const before = await written();
    expect(await replay(null, good)).toMatchObject({ status: 401, body: { code: expect.any(String) } });
    expect(await replay("newhire", good)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    // Staff of Downtown naming West, where they have no role.
    expect(await replay("staff", good, { locationId: loc.WST })).toMatchObject({ status: 403 });
    expect(await written()).toEqual(before);
    // The verb itself refuses an actor who may not write there (a program calling it directly).
    expect(await replayCommand(t.db, as("newhire"), good, freshKey())).toMatchObject({
      ok: false,
      refusal: "forbidden",
    });
  });

  it("answers 503 when the database is down, and keeps no flag", async () => {
    const id = await sealed();
    // Refused before the verb touches the database (its body does not parse): the flag's batch is
    // the first write, and the database is gone by then.
    const command = { kind: "draw", itemId: id, body: {}, recordedAt: new Date().toISOString(), summary: "Draw" };
    let batches = 0;
    const flaky = new Proxy(t.db, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (name !== "batch" || typeof value !== "function") return value;
        return (...args: unknown[]) => {
          // The first batch is the door's session lookup.
          if (++batches > 1) return Promise.reject(new TypeError("fetch failed"));
          return value.apply(target, args);
        };
      },
    }) as Database;
    const before = await written();
    const down = await replay("staff", command, { db: flaky });
    expect(down).toMatchObject({ status: 503, body: { text: DATABASE_UNAVAILABLE } });
    expect(batches).toBe(2);
    expect(await written()).toEqual(before);
    // Back up: the same entry is flagged then, once.
    const up = await replay("staff", command, { key: down.key });
    expect(up.body).toMatchObject({ status: "flagged", flag: { code: "invalid" } });
  });
});

describe("resolving a flag", () => {
  async function flagOf(who = "staff"): Promise<string> {
    const id = await sealed();
    const answer = await replay(who, {
      kind: "empty",
      itemId: id,
      body: {},
      recordedAt: new Date(Date.now() - HOUR).toISOString(),
      summary: `Empty vial ${id.slice(-6)}`,
    });
    expect(answer.body).toMatchObject({ status: "flagged" });
    return (answer.body.flag as { id: string }).id;
  }

  it("is for READ_AUDITS at the flag's location: staff see theirs and are told who resolves it", async () => {
    const flagId = await flagOf();
    const before = await written();
    expect(await resolveFlag(t.db, as("staff"), { flagId, note: "Mine" })).toEqual({
      ok: false,
      refusal: "not_manager",
      message: "Only a manager at Downtown can resolve this.",
    });
    // Another location's manager does not reach it at all.
    expect(await resolveFlag(t.db, as("manager", "WST"), { flagId, note: "Theirs" })).toMatchObject({
      refusal: "not_found",
    });
    expect(await resolveFlag(t.db, as("multi"), { flagId, note: "Not mine" })).toMatchObject({ refusal: "not_found" });
    expect(await resolveFlag(t.db, as("admin"), { flagId: "no-such-flag", note: "x" })).toMatchObject({
      refusal: "not_found",
    });
    expect(await written()).toEqual(before);
  });

  it("needs a note of at most 500 characters", async () => {
    const flagId = await flagOf();
    const before = await written();
    for (const note of ["", "   ", "x".repeat(501)]) {
      expect(await resolveFlag(t.db, as("admin"), { flagId, note })).toEqual({
        ok: false,
        refusal: "invalid",
        message: RESOLVE_MESSAGES.note,
      });
    }
    expect(await written()).toEqual(before);
  });

  it("resolves once with its activity row; a second resolution is told who did it and when; the same key replays", async () => {
    const flagId = await flagOf();
    const key = freshKey();
    const now = new Date();
    const before = await written();
    const resolved = await resolveFlag(
      t.db,
      as("admin"),
      { flagId, note: "Emptied on the ward", idempotencyKey: key },
      { now },
    );
    expect(resolved).toEqual({ ok: true, flagId });
    expect(await flagRow(flagId)).toMatchObject({
      resolvedAt: now,
      resolvedBy: users.get("admin")?.id,
      resolutionNote: "Emptied on the ward",
    });
    expect(await t.lastActivity()).toMatchObject({
      action: "resolve_offline_flag",
      entity: "offline_flag",
      entityId: flagId,
      locationId: loc.DTN,
      userId: users.get("admin")?.id,
      summary: { note: "Emptied on the ward", code: "not_in_use", by: users.get("staff")?.id },
    });
    const after = await written();
    expect(after).toMatchObject({ activity: (before.activity ?? 0) + 1, keys: (before.keys ?? 0) + 1 });
    // A double tap: the same answer, nothing more.
    expect(await resolveFlag(t.db, as("admin"), { flagId, note: "Emptied on the ward", idempotencyKey: key })).toEqual(
      resolved,
    );
    expect(await written()).toEqual(after);
    // Someone else, later (another form): refused, saying who and when.
    const timeZone =
      users.get("admin")?.locationRoles.find((r) => r.locationId === loc.DTN)?.location.timeZone ?? "UTC";
    const message = `Already resolved by Adam Admin at ${clockTimeIn(now, timeZone)}.`;
    for (const idempotencyKey of [null, freshKey()]) {
      expect(await resolveFlag(t.db, as("owner", ORGANIZATION), { flagId, note: "Again", idempotencyKey })).toEqual({
        ok: false,
        refusal: "already_resolved",
        message,
      });
    }
    expect(await written()).toEqual(after);
    expect(FLAG_REFUSALS.already_resolved).toBeTruthy();
  });

  it("two managers at once: one resolves it, the other is told, and one activity row is written", async () => {
    const flagId = await flagOf();
    const before = await written();
    const both = await Promise.all([
      resolveFlag(t.db, as("admin"), { flagId, note: "First", idempotencyKey: freshKey() }),
      resolveFlag(t.db, as("owner", ORGANIZATION), { flagId, note: "Second", idempotencyKey: freshKey() }),
    ]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(both.filter((r) => !r.ok)).toMatchObject([{ refusal: "already_resolved" }]);
    expect((await written()).activity).toBe((before.activity ?? 0) + 1);
  });

  it("lists open flags first, newest first; staff see only their own, managers all of the location's", async () => {
    const theirs = await flagOf("multi");
    const mine = await flagOf("staff");
    const all = await listFlags(t.db, as("admin"), loc.DTN, 1);
    expect(all.all).toBe(true);
    const ids = all.rows.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([theirs, mine]));
    const firstResolved = all.rows.findIndex((r) => r.resolvedAt !== null);
    expect(all.rows.slice(0, firstResolved).every((r) => r.resolvedAt === null)).toBe(true);
    expect(all.rows.slice(firstResolved).every((r) => r.resolvedAt !== null)).toBe(true);
    const open = all.rows.slice(0, firstResolved).map((r) => r.recordedAt);
    expect(open).toEqual([...open].sort((a, b) => b - a));
    expect(all.open).toBe(firstResolved);
    const own = await listFlags(t.db, as("staff"), loc.DTN, 1);
    expect(own.all).toBe(false);
    expect(own.rows.map((r) => r.id)).toContain(mine);
    expect(own.rows.every((r) => r.userId === users.get("staff")?.id)).toBe(true);
    expect(own.rows.map((r) => r.id)).not.toContain(theirs);
  });

  it("the screen: staff see theirs with who resolves it; the admin resolves through the plain form", async () => {
    const flagId = await flagOf();
    const staffPage = await outcome(() =>
      flaggedLoader({
        request: pageRequest("/flagged", cookies.get("staff") ?? ""),
        context: loadContext(t.db),
        params: {},
      }),
    );
    const here = (staffPage.data as { here: { flags: { id: string; key: string | null; mine: boolean }[] } }).here;
    expect(here.flags.find((f) => f.id === flagId)).toMatchObject({ mine: true, key: null });
    const adminPage = await outcome(() =>
      flaggedLoader({
        request: pageRequest("/flagged", cookies.get("admin") ?? ""),
        context: loadContext(t.db),
        params: {},
      }),
    );
    const shown = (adminPage.data as typeof staffPage.data & { here: typeof here }).here.flags.find(
      (f) => f.id === flagId,
    );
    expect(shown?.key).toEqual(expect.any(String));
    const posted = await outcome(() =>
      flaggedAction({
        request: formRequest("/flagged", cookies.get("admin") ?? "", {
          flagId,
          note: "Checked with the nurse",
          idempotencyKey: shown?.key ?? "",
        }),
        context: loadContext(t.db),
        params: {},
      }),
    );
    expect(posted).toMatchObject({ status: 302, location: "/flagged" });
    expect(await flagRow(flagId)).toMatchObject({ resolutionNote: "Checked with the nurse" });
    const staffTries = await outcome(() =>
      flaggedAction({
        request: formRequest("/flagged", cookies.get("staff") ?? "", { flagId, note: "x", idempotencyKey: freshKey() }),
        context: loadContext(t.db),
        params: {},
      }),
    );
    expect(staffTries).toMatchObject({
      status: 409,
      data: { formError: "Only a manager at Downtown can resolve this.", flagId },
    });
  });
});
