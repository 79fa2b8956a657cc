// The backups API inside workerd: an organization admin lists, makes one now (202, once per
// Idempotency-Key, 409 while one is under way), uploads a snapshot file in pieces into R2 and
// downloads it back, and asks for a restore confirmed by the organization's name; a manager reads
// but every write is 403; staff may not even read. Every answer that refuses is in the one error
// shape. The jobs worker's engine is not run here: the rows are the contract. Every row made here
// is removed at the end (the workers share one database).
import { env } from "cloudflare:workers";
import { inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupKey } from "../../app/backups/keys";
import { BACKUP_REFUSALS } from "../../app/backups/outcome";
import { UPLOAD_PART_BYTES } from "../../app/backups/upload-rules";
import { createDatabase, schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { FORBIDDEN } from "../../app/outcome";
import { app, BASE, signInAs } from "./support";

const bindings = env as unknown as Env;
const db = createDatabase(bindings);
let owner = "";
let admin = "";
let manager = "";
let staff = "";
let organizationName = "";
const made: string[] = [];

function call(
  method: string,
  path: string,
  cookie: string,
  body?: BodyInit | object,
  headers: Record<string, string> = {},
) {
  const raw = body === undefined || typeof body === "string" || body instanceof Uint8Array || body instanceof Blob;
  return app().fetch(`${BASE}${path}`, {
    method,
    body: raw ? (body as BodyInit | undefined) : JSON.stringify(body),
    headers: {
      Cookie: cookie,
      Origin: BASE,
      ...(raw ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    redirect: "manual",
  });
}

async function expectError(response: Response, status: number, code: string) {
  expect({ status: response.status, body: await response.json() }).toEqual({
    status,
    body: { error: expect.any(String), code },
  });
}

/** Where the jobs worker would have left a snapshot. */
async function setStatus(id: string, status: "ready" | "failed") {
  await db
    .update(schema.backups)
    .set({ status })
    .where(inArray(schema.backups.id, [id]));
}

beforeAll(async () => {
  owner = (await signInAs("owner@demo.clinic")).cookie;
  admin = (await signInAs("admin@demo.clinic")).cookie;
  manager = (await signInAs("manager@demo.clinic")).cookie;
  staff = (await signInAs("staff@demo.clinic")).cookie;
  const [org] = await db.select({ name: schema.organizations.name }).from(schema.organizations);
  organizationName = org?.name ?? "";
  // No snapshot left under way by another file.
  await db.run(sql`UPDATE backups SET status = 'failed' WHERE status IN ('queued', 'writing')`);
});

afterAll(async () => {
  if (made.length === 0) return;
  await db.delete(schema.backupRestores).where(inArray(schema.backupRestores.backupId, made));
  await db.delete(schema.backups).where(inArray(schema.backups.id, made));
  for (const id of made) await bindings.FILES.delete(backupKey(id));
});

describe("POST /api/backups", () => {
  it("queues one snapshot (202 {id, status}), answers a repeated key the same, and refuses another while it is under way", async () => {
    const key = crypto.randomUUID();
    const first = await call("POST", "/api/backups", owner, {}, { "Idempotency-Key": key });
    expect(first.status).toBe(202);
    expect(first.headers.get("Cache-Control")).toBe("private, no-store");
    const answer = (await first.json()) as { id: string; status: string };
    expect(answer).toEqual({ id: expect.any(String), status: "queued" });
    made.push(answer.id);

    const again = await call("POST", "/api/backups", owner, {}, { "Idempotency-Key": key });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual(answer);

    const busy = await call("POST", "/api/backups", admin, {});
    expect(await busy.json()).toEqual({ error: BACKUP_REFUSALS.busy, code: "busy" });
    expect(busy.status).toBe(409);

    const one = await call("GET", `/api/backups/${answer.id}`, manager);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({
      id: answer.id,
      origin: "user",
      status: "queued",
      requestedBy: "Olivia Owner",
      progress: { rowsDone: 0, rowsTotal: null, percent: null },
      manifest: null,
      rehearsal: { status: null, message: null },
    });
    await setStatus(answer.id, "failed");
  });

  it("refuses bad input in the one error shape: not JSON, a key in the body, a malformed key", async () => {
    await expectError(
      await call("POST", "/api/backups", owner, "{not json", { "Content-Type": "application/json" }),
      400,
      "invalid_json",
    );
    await expectError(
      await call("POST", "/api/backups", owner, { idempotencyKey: "abcdefgh" }),
      400,
      "idempotency_key_in_body",
    );
    await expectError(
      await call("POST", "/api/backups", owner, {}, { "Idempotency-Key": "no!" }),
      400,
      "invalid_idempotency_key",
    );
  });
});

describe("who may", () => {
  it("lets a manager read the list and one backup, and refuses every write with 403", async () => {
    const list = await call("GET", "/api/backups?pageSize=5", manager);
    expect(list.status).toBe(200);
    const page = (await list.json()) as { items: { id: string }[]; pageSize: number; total: number };
    expect(page).toMatchObject({ pageSize: 5, total: expect.any(Number), totalExact: true });
    const writes: [string, string, object][] = [
      ["POST", "/api/backups", {}],
      ["POST", `/api/backups/${made[0]}/restore`, { organizationName }],
      ["POST", "/api/backups/uploads", {}],
      ["POST", `/api/backups/uploads/${made[0]}/complete`, { uploadId: "x", parts: [{ partNumber: 1, etag: "e" }] }],
    ];
    for (const [method, path, body] of writes) {
      const response = await call(method, path, manager, body);
      expect({ path, status: response.status, body: await response.json() }).toEqual({
        path,
        status: 403,
        body: { error: FORBIDDEN, code: "forbidden" },
      });
    }
    await expectError(
      await call("PUT", `/api/backups/uploads/${made[0]}/parts/1?uploadId=x`, manager, "bytes"),
      403,
      "forbidden",
    );
    expect((await call("GET", `/backup-restore/${made[0]}/download`, manager)).status).toBe(403);
  });

  it("keeps staff out of backups altogether, and a location admin out of restores, uploads and downloads", async () => {
    await expectError(await call("GET", "/api/backups", staff), 403, "forbidden");
    await expectError(await call("GET", `/api/backups/${made[0]}`, staff), 403, "forbidden");
    await expectError(await call("POST", "/api/backups", staff, {}), 403, "forbidden");
    const restore = await call("POST", `/api/backups/${made[0]}/restore`, admin, { organizationName });
    expect(restore.status).toBe(403);
    expect(await restore.json()).toEqual({
      error: BACKUP_REFUSALS.organization_admins_only,
      code: "organization_admins_only",
    });
    await expectError(await call("POST", "/api/backups/uploads", admin, {}), 403, "organization_admins_only");
    expect((await call("GET", `/backup-restore/${made[0]}/download`, admin)).status).toBe(403);
  });

  it("answers 404 in the one error shape for a backup not in the organization", async () => {
    await expectError(await call("GET", "/api/backups/0190aaaa-0000-7000-8000-000000000000", owner), 404, "not_found");
    await expectError(
      await call("POST", "/api/backups/0190aaaa-0000-7000-8000-000000000000/restore", owner, { organizationName }),
      404,
      "not_found",
    );
  });
});

describe("uploading, downloading and restoring a snapshot file", () => {
  // A file of one full piece and a little more: two parts, as a large snapshot is sent.
  const file = new Uint8Array(UPLOAD_PART_BYTES + 1000);
  for (let i = 0; i < file.length; i += 4096) file[i] = (i / 4096) % 251;
  file[file.length - 1] = 42;
  let uploaded = "";

  it("takes the file in pieces into storage and lists it as a ready upload, not yet rehearsed", async () => {
    const start = await call("POST", "/api/backups/uploads", owner, {});
    expect(start.status).toBe(201);
    const started = (await start.json()) as { backupId: string; uploadId: string; partBytes: number };
    expect(started.partBytes).toBe(UPLOAD_PART_BYTES);
    made.push(started.backupId);
    const part = (n: number, bytes: Uint8Array) =>
      call(
        "PUT",
        `/api/backups/uploads/${started.backupId}/parts/${n}?uploadId=${encodeURIComponent(started.uploadId)}`,
        owner,
        bytes,
        {
          "Content-Type": "application/octet-stream",
        },
      );
    // A piece larger than a piece is refused, unread past the limit.
    await expectError(await part(1, new Uint8Array(UPLOAD_PART_BYTES + 1)), 413, "upload_part_size");
    const parts = [];
    for (const [n, bytes] of [
      [1, file.subarray(0, UPLOAD_PART_BYTES)],
      [2, file.subarray(UPLOAD_PART_BYTES)],
    ] as const) {
      const response = await part(n, bytes);
      expect(response.status).toBe(200);
      parts.push((await response.json()) as { partNumber: number; etag: string });
    }
    expect(parts.map((p) => p.partNumber)).toEqual([1, 2]);

    const key = crypto.randomUUID();
    const body = { uploadId: started.uploadId, parts, fileName: "clinic-backup.snapshot", size: file.length };
    const complete = await call("POST", `/api/backups/uploads/${started.backupId}/complete`, owner, body, {
      "Idempotency-Key": key,
    });
    expect(complete.status).toBe(201);
    expect(await complete.json()).toEqual({ id: started.backupId, status: "ready" });
    // A retry after a lost answer is answered the same, though storage no longer knows the upload.
    const retry = await call("POST", `/api/backups/uploads/${started.backupId}/complete`, owner, body, {
      "Idempotency-Key": key,
    });
    expect(retry.status).toBe(201);
    uploaded = started.backupId;

    const one = await call("GET", `/api/backups/${uploaded}`, owner);
    expect(await one.json()).toMatchObject({
      origin: "upload",
      status: "ready",
      sizeBytes: file.length,
      manifest: null,
      rehearsal: { status: "pending" },
    });
    const [activity] = await db.all<{ action: string; summary: string }>(
      sql`SELECT action, summary FROM activity_log WHERE entity_id = ${uploaded} ORDER BY id DESC LIMIT 1`,
    );
    expect(activity?.action).toBe("upload_backup");
    expect(JSON.parse(activity?.summary ?? "{}")).toEqual({
      fileName: "clinic-backup.snapshot",
      sizeBytes: file.length,
    });
  });

  it("streams the file back as an attachment to an organization admin", async () => {
    const response = await call("GET", `/backup-restore/${uploaded}/download`, owner);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="clinic-backup-[\d-]+\.[a-z.]+"$/,
    );
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.length).toBe(file.length);
    expect(bytes.every((b, i) => b === file[i])).toBe(true);
  });

  it("asks for a restore confirmed by the organization's name, and refuses a mistyped name or a second one", async () => {
    const path = `/api/backups/${uploaded}/restore`;
    const empty = await call("POST", path, owner, {});
    expect(empty.status).toBe(422);
    expect(await empty.json()).toEqual({
      error: "Type the organization's name to confirm the restore.",
      code: "invalid_input",
      fields: { organizationName: "Type the organization's name to confirm the restore." },
    });
    await expectError(
      await call("POST", path, owner, { organizationName: organizationName.toLowerCase() }),
      422,
      "name_mismatch",
    );
    const key = crypto.randomUUID();
    const asked = await call(
      "POST",
      path,
      owner,
      { organizationName: ` ${organizationName}` },
      { "Idempotency-Key": key },
    );
    expect(asked.status).toBe(202);
    const answer = await asked.json();
    expect(answer).toEqual({ restoreId: expect.any(String), backupId: uploaded, status: "queued" });
    const again = await call(
      "POST",
      path,
      owner,
      { organizationName: ` ${organizationName}` },
      { "Idempotency-Key": key },
    );
    expect(await again.json()).toEqual(answer);
    await expectError(await call("POST", path, owner, { organizationName }), 409, "restore_busy");
    await db.run(sql`UPDATE backup_restores SET status = 'refused' WHERE backup_id = ${uploaded}`);
    await expectError(await call("GET", path, owner), 405, "method_not_allowed");
  });
});
