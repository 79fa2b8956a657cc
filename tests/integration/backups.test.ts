// The backup verbs against a real database: "Back up now" queues one snapshot (WRITE_BACKUPS where
// the user stands) and refuses while another is queued or written, also when two ask at once; a
// restore is asked for by organization admins only, with the organization's name typed (trimmed,
// case-sensitive), never for a snapshot that is not ready, was deleted or failed its rehearsal,
// nor while a restore or a snapshot is under way; each writes its activity row, a refusal writes
// nothing, and an idempotency key writes once. The snapshots' states are set here directly where
// the jobs worker would move them (its engine is tested on its own).
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import { backupKey } from "../../app/backups/keys";
import { backupScreen, readBackup, readBackups } from "../../app/backups/list.server";
import { BACKUP_REFUSALS } from "../../app/backups/outcome";
import { requestBackup } from "../../app/backups/request-backup.server";
import { requestRestore } from "../../app/backups/request-restore.server";
import { schema } from "../../app/db/client.server";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { signedIn } from "../support/screens";

let t: TestDatabase;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let organizationName = "";
const users = new Map<string, SessionUser>();

function as(name: string, where: "DTN" | "WST" | "NTH" | typeof ORGANIZATION): ScopedActor {
  const user = users.get(name);
  if (!user) throw new Error(`no user ${name}`);
  return { ...user, locationId: where === ORGANIZATION ? ORGANIZATION : loc[where] };
}

const owner = () => as("owner", ORGANIZATION);
const noKey = { idempotencyKey: null };

async function counts() {
  const [backups, restores, activity] = await t.db.batch([
    t.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM backups`),
    t.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM backup_restores`),
    t.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM activity_log`),
  ]);
  return { backups: backups[0]?.n ?? 0, restores: restores[0]?.n ?? 0, activity: activity[0]?.n ?? 0 };
}

/** Where the jobs worker would have taken the snapshot: its status (and rehearsal). */
async function setBackup(id: string, set: Partial<typeof schema.backups.$inferInsert>) {
  await t.db.update(schema.backups).set(set).where(eq(schema.backups.id, id));
}

/** A ready snapshot, made through "Back up now" and marked written. */
async function readySnapshot(set: Partial<typeof schema.backups.$inferInsert> = {}): Promise<string> {
  const made = await requestBackup(t.db, owner(), noKey);
  if (!made.ok) throw new Error(made.message);
  await setBackup(made.id, { status: "ready", rowsDone: 10, rowsTotal: 10, sizeBytes: 1234, ...set });
  return made.id;
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "manager", "staff"]) users.set(name, (await signedIn(t.db, name)).user);
  const [org] = await t.db.select({ name: schema.organizations.name }).from(schema.organizations);
  organizationName = org?.name ?? "";
});
afterAll(() => t.close());

// Each test starts with no snapshot or restore under way.
beforeEach(async () => {
  await t.db.run(
    sql`UPDATE backup_restores SET status = 'done' WHERE status IN ('queued', 'checking', 'staging', 'switching')`,
  );
  await t.db.run(sql`UPDATE backups SET status = 'failed' WHERE status IN ('queued', 'writing')`);
});

describe("Back up now", () => {
  it("queues one snapshot under its key, with its request_backup activity row (the jobs worker adds create_backup once it is written)", async () => {
    const before = await counts();
    const made = await requestBackup(t.db, owner(), noKey);
    expect(made).toEqual({ ok: true, id: expect.any(String), status: "queued" });
    if (!made.ok) return;
    const [row] = await t.db.select().from(schema.backups).where(eq(schema.backups.id, made.id));
    expect(row).toMatchObject({
      origin: "user",
      status: "queued",
      requestedBy: users.get("owner")?.id,
      r2Key: backupKey(made.id),
      rowsDone: 0,
      manifest: null,
    });
    expect(await counts()).toEqual({ ...before, backups: before.backups + 1, activity: before.activity + 1 });
    expect(await t.lastActivity()).toMatchObject({
      action: "request_backup",
      entity: "backup",
      entityId: made.id,
      userId: users.get("owner")?.id,
      locationId: null,
    });
  });

  it("refuses, in words and writing nothing, while another snapshot is queued or being written", async () => {
    const first = await requestBackup(t.db, owner(), noKey);
    expect(first.ok).toBe(true);
    const before = await counts();
    expect(await requestBackup(t.db, as("admin", "DTN"), noKey)).toEqual({
      ok: false,
      refusal: "busy",
      message: BACKUP_REFUSALS.busy,
    });
    if (first.ok) await setBackup(first.id, { status: "writing", rowsDone: 5, rowsTotal: 50 });
    expect((await requestBackup(t.db, owner(), noKey)).ok).toBe(false);
    expect(await counts()).toEqual(before);
    if (first.ok) await setBackup(first.id, { status: "ready" });
    expect((await requestBackup(t.db, owner(), noKey)).ok).toBe(true);
  });

  it("makes one snapshot when two ask at the same moment", async () => {
    const before = await counts();
    const answers = await Promise.all([
      requestBackup(t.db, owner(), noKey),
      requestBackup(t.db, as("admin", "DTN"), noKey),
      requestBackup(t.db, owner(), noKey),
    ]);
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok).map((a) => !a.ok && a.refusal)).toEqual(["busy", "busy"]);
    const after = await counts();
    expect(after.backups).toBe(before.backups + 1);
    expect(after.activity).toBe(before.activity + 1);
  });

  it("is WRITE_BACKUPS where the user stands: a location admin at their location, never a manager or staff", async () => {
    const before = await counts();
    expect(await requestBackup(t.db, as("manager", "WST"), noKey)).toMatchObject({ ok: false, refusal: "forbidden" });
    expect(await requestBackup(t.db, as("staff", "DTN"), noKey)).toMatchObject({ ok: false, refusal: "forbidden" });
    // Adam is admin at Downtown but manager at Westside.
    expect(await requestBackup(t.db, as("admin", "WST"), noKey)).toMatchObject({ ok: false, refusal: "forbidden" });
    expect(await counts()).toEqual(before);
    expect((await requestBackup(t.db, as("admin", "DTN"), noKey)).ok).toBe(true);
  });

  it("writes once per idempotency key and answers a repeat as the first time", async () => {
    const key = { idempotencyKey: crypto.randomUUID() };
    const first = await requestBackup(t.db, owner(), key);
    const before = await counts();
    const again = await requestBackup(t.db, owner(), key);
    expect(again).toEqual(first);
    expect(await counts()).toEqual(before);
  });
});

describe("asking for a restore", () => {
  const confirm = (backupId: string, name = organizationName) => ({
    backupId,
    organizationName: name,
    idempotencyKey: null,
  });

  it("queues a restore of a ready snapshot, confirmed by the name, with its request_restore row", async () => {
    const id = await readySnapshot({ rehearsalStatus: "passed" });
    const before = await counts();
    const asked = await requestRestore(t.db, owner(), confirm(id, `  ${organizationName} `));
    expect(asked).toEqual({ ok: true, restoreId: expect.any(String), backupId: id, status: "queued" });
    if (!asked.ok) return;
    const [row] = await t.db.select().from(schema.backupRestores).where(eq(schema.backupRestores.id, asked.restoreId));
    expect(row).toMatchObject({ backupId: id, status: "queued", requestedBy: users.get("owner")?.id });
    expect(await counts()).toEqual({ ...before, restores: before.restores + 1, activity: before.activity + 1 });
    expect(await t.lastActivity()).toMatchObject({ action: "request_restore", entity: "backup", entityId: id });
  });

  it("refuses a name typed differently (case counts), and anyone but an organization admin", async () => {
    const id = await readySnapshot();
    const before = await counts();
    expect(await requestRestore(t.db, owner(), confirm(id, organizationName.toUpperCase()))).toMatchObject({
      refusal: "name_mismatch",
      message: BACKUP_REFUSALS.name_mismatch,
    });
    expect(await requestRestore(t.db, owner(), confirm(id, "Another Clinic"))).toMatchObject({
      refusal: "name_mismatch",
    });
    expect(await requestRestore(t.db, as("admin", "DTN"), confirm(id))).toMatchObject({
      refusal: "organization_admins_only",
    });
    expect(await requestRestore(t.db, as("manager", "WST"), confirm(id))).toMatchObject({
      refusal: "organization_admins_only",
    });
    expect(await counts()).toEqual(before);
  });

  it("refuses a snapshot that is not ready, was deleted, failed its rehearsal, or is not there", async () => {
    const failedRehearsal = await readySnapshot({
      rehearsalStatus: "failed",
      rehearsal: { message: "stock_levels: 3 levels differ from the sum of their movements" },
    });
    const deleted = await readySnapshot({ status: "deleted" });
    const failed = await readySnapshot({ status: "failed", error: "R2 refused the upload" });
    const writing = await requestBackup(t.db, owner(), noKey);
    if (!writing.ok) throw new Error("not queued");
    const before = await counts();
    expect(await requestRestore(t.db, owner(), confirm(failedRehearsal))).toMatchObject({
      refusal: "rehearsal_failed",
    });
    expect(await requestRestore(t.db, owner(), confirm(deleted))).toMatchObject({ refusal: "deleted" });
    expect(await requestRestore(t.db, owner(), confirm(failed))).toMatchObject({ refusal: "not_ready" });
    expect(await requestRestore(t.db, owner(), confirm(writing.id))).toMatchObject({ refusal: "not_ready" });
    expect(await requestRestore(t.db, owner(), confirm("0190aaaa-0000-7000-8000-000000000000"))).toMatchObject({
      refusal: "not_found",
    });
    expect(await counts()).toEqual(before);
  });

  it("refuses while a snapshot is being written or another restore is under way, and makes one of two at once", async () => {
    const id = await readySnapshot();
    const writing = await requestBackup(t.db, owner(), noKey);
    expect(await requestRestore(t.db, owner(), confirm(id))).toMatchObject({ refusal: "snapshot_busy" });
    if (writing.ok) await setBackup(writing.id, { status: "ready" });

    const before = await counts();
    const answers = await Promise.all([
      requestRestore(t.db, owner(), confirm(id)),
      requestRestore(t.db, owner(), confirm(id)),
    ]);
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.find((a) => !a.ok)).toMatchObject({
      refusal: "restore_busy",
      message: BACKUP_REFUSALS.restore_busy,
    });
    expect(await counts()).toEqual({ ...before, restores: before.restores + 1, activity: before.activity + 1 });
  });

  it("writes once per key, and refuses the key sent for another restore", async () => {
    const id = await readySnapshot();
    const other = await readySnapshot();
    const idempotencyKey = crypto.randomUUID();
    const first = await requestRestore(t.db, owner(), { ...confirm(id), idempotencyKey });
    expect(first.ok).toBe(true);
    const before = await counts();
    expect(await requestRestore(t.db, owner(), { ...confirm(id), idempotencyKey })).toEqual(first);
    expect(await requestRestore(t.db, owner(), { ...confirm(other), idempotencyKey })).toMatchObject({
      refusal: "key_misused",
    });
    expect(await counts()).toEqual(before);
  });
});

describe("the backup list", () => {
  it("lists the organization's snapshots newest first with who made them, sizes, progress and rehearsals", async () => {
    const id = await readySnapshot({
      rehearsalStatus: "failed",
      rehearsedAt: new Date(),
      rehearsal: { message: "checksum of vendors differs from the manifest" },
    });
    const screen = await backupScreen(t.db, owner(), { pageSize: 20 });
    expect(screen.organizationName).toBe(organizationName.trim());
    const first = screen.items[0];
    expect(first).toMatchObject({
      id,
      origin: "user",
      status: "ready",
      requestedBy: "Olivia Owner",
      sizeBytes: 1234,
      progress: { rowsDone: 10, rowsTotal: 10, percent: 100 },
      rehearsal: { status: "failed", message: "checksum of vendors differs from the manifest" },
    });
    const times = screen.items.map((b) => b.requestedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(screen.restores.length).toBeGreaterThan(0);
    expect(screen.restores[0]).toMatchObject({ status: expect.any(String), requestedBy: "Olivia Owner" });

    const detail = await readBackup(t.db, as("manager", "WST"), id);
    expect(detail).toMatchObject({ id, manifest: null, takenAt: null, rehearsal: { status: "failed" } });
    // When its rows were frozen comes from its manifest (an upload's is known once rehearsed).
    await setBackup(id, { manifest: { takenAt: "2026-11-20T03:00:01.000Z", tables: [] } });
    expect(await readBackup(t.db, owner(), id)).toMatchObject({
      takenAt: "2026-11-20T03:00:01.000Z",
      manifest: { takenAt: "2026-11-20T03:00:01.000Z", tables: [] },
    });
  });

  it("pages by keyset through every snapshot once", async () => {
    const all = await readBackups(t.db, owner(), { pageSize: 100 });
    const seen: string[] = [];
    let page = await readBackups(t.db, owner(), { pageSize: 3 });
    while (page) {
      seen.push(...page.items.map((b) => b.id));
      if (!page.next) break;
      page = await readBackups(t.db, owner(), { pageSize: 3, after: page.next });
    }
    expect(seen).toEqual(all?.items.map((b) => b.id));
    expect(all?.total).toBe(seen.length);
    expect(await readBackups(t.db, owner(), { pageSize: 3, after: "forged" })).toBeNull();
  });
});
