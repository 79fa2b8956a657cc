// Sales files uploaded, previewed, queued and discarded against a real database and a real local R2
// (issue 24 items 1 and 6): a file streams into storage as it arrives; every malformed file (binary,
// empty, wrong headers, too large, 10,000 columns, a 50 MB single line) answers a clear message and
// leaves nothing behind (no R2 object, no job row); the preview reads the first rows as the worker
// will; queueing and discarding are guarded batches with their activity; only those with the
// imports' write permission upload; and the JSON API answers its shapes, 4xx for bad input.
import v8 from "node:v8";
import vm from "node:vm";
import type { Client } from "@libsql/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import writeXlsxFile from "write-excel-file/universal";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import type { Env } from "../../app/env.server";
import { CSV_LIMITS } from "../../app/imports/parse/csv";
import { receiveUpload } from "../../app/imports/upload.server";
import { advanceImports } from "../../app/imports/work.server";
import * as indexRoute from "../../app/routes/_app.sales-import._index";
import * as jobRoute from "../../app/routes/_app.sales-import.$jobId";
import * as itemRoute from "../../app/routes/_app.sales-import.items.$itemId";
import * as listApi from "../../app/routes/api.imports";
import * as oneApi from "../../app/routes/api.imports.$id";
import * as errorsCsv from "../../app/routes/sales-import.$jobId.errors[.csv]";
import { localR2 } from "../support/backups";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import {
  formRequest,
  loadContext,
  outcome,
  pageRequest,
  signedIn,
  TEST_ENV,
  withLocationChoice,
} from "../support/screens";

const ORIGIN = "http://clinic.test";
let t: TestDatabase;
let r2: Awaited<ReturnType<typeof localR2>>;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let env: Env;
const users = new Map<string, SessionUser>();
const cookies = new Map<string, string>();

const SQUARE_HEADER =
  "Date,Time,Time Zone,Category,Item,Qty,Price Point Name,SKU,Modifiers Applied,Gross Sales,Discounts,Net Sales,Tax,Transaction ID,Payment ID,Event Type,Location,Customer Name,GTIN,Itemization Type,Employee";
const squareRow = (n: number, item = "Botox 20u", qty = "1", net = "$240.00") =>
  `2026-03-0${1 + (n % 9)},10:${String(n % 60).padStart(2, "0")}:00,Eastern Time (US & Canada),Injectables,${item},${qty},Regular,,,"$1,240.00",$0.00,${net},$0.00,TX${n},P${n},Payment,Downtown,Jane Patient,,Physical Item,Dr. Lee`;
const squareCsv = (rows: number, extra: string[] = []) =>
  `${[SQUARE_HEADER, ...Array.from({ length: rows }, (_, i) => squareRow(i + 1)), ...extra].join("\r\n")}\r\n`;

const bytes = (text: string) => new TextEncoder().encode(text);

function as(name: string, where: "DTN" | "WST" | "NTH" | typeof ORGANIZATION = "DTN"): ScopedActor {
  const user = users.get(name);
  if (!user) throw new Error(`no user ${name}`);
  return { ...user, locationId: where === ORGANIZATION ? ORGANIZATION : loc[where] };
}

async function cookieOf(name: string, where?: "DTN" | "WST" | "NTH" | typeof ORGANIZATION) {
  return withLocationChoice(
    cookies.get(name) ?? "",
    where === undefined || where === ORGANIZATION ? where : loc[where],
  );
}

/** A multipart request as a browser's form sends it (fields first, then the file). */
function uploadRequest(
  path: string,
  cookie: string,
  fields: Record<string, string>,
  file: { name: string; bytes: Uint8Array } | null,
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append("file", new File([file.bytes as BlobPart], file.name, { type: "text/csv" }));
  return new Request(`${ORIGIN}${path}`, { method: "POST", headers: { Cookie: cookie, ...headers }, body: form });
}

/** A multipart request whose file part is produced by `chunks` as it is read, with how much was pulled. */
function streamedUpload(
  path: string,
  cookie: string,
  fields: Record<string, string>,
  chunks: () => Iterator<Uint8Array>,
) {
  const boundary = `----clinic${Math.random().toString(16).slice(2)}`;
  const pulled = { bytes: 0, done: false };
  const head = [
    ...Object.entries(fields).map(
      ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
    ),
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  ].join("");
  let started = false;
  const iterator = chunks();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(bytes(head));
        return;
      }
      const next = iterator.next();
      if (next.done) {
        pulled.done = true;
        controller.enqueue(bytes(`\r\n--${boundary}--\r\n`));
        controller.close();
        return;
      }
      pulled.bytes += next.value.length;
      controller.enqueue(next.value);
    },
  });
  const request = new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: "half",
  } as RequestInit);
  return { request, pulled };
}

const ctx = () => loadContext(t.db, env);
const client = () => t.db.$client as Client;

async function jobRows() {
  return (await client().execute("SELECT * FROM import_jobs ORDER BY created_at")).rows as unknown as Record<
    string,
    unknown
  >[];
}
async function objects(): Promise<string[]> {
  const listed = await r2.files.list({ prefix: "imports/" });
  return listed.objects.map((o) => o.key);
}
async function uploadPage(
  name: string,
  file: { name: string; bytes: Uint8Array },
  fields: Record<string, string> = {},
) {
  const cookie = await cookieOf(name, "DTN");
  const request = uploadRequest("/sales-import?index", cookie, { kind: "sales", locationId: loc.DTN, ...fields }, file);
  return outcome(() => indexRoute.action({ request, context: ctx(), params: {} }));
}
async function uploaded(file: { name: string; bytes: Uint8Array }, fields: Record<string, string> = {}) {
  const answer = await uploadPage("admin", file, fields);
  expect(answer.status, JSON.stringify(answer.data)).toBe(302);
  return answer.location?.split("/").pop() ?? "";
}
/** Nothing left behind: no job row, no object under imports/. */
async function nothingLeft() {
  expect(await jobRows()).toEqual([]);
  expect(await objects()).toEqual([]);
}

beforeAll(async () => {
  t = await freshDatabase();
  r2 = await localR2();
  env = { ...TEST_ENV, FILES: r2.files } as Env;
  ({ loc } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "manager", "staff"]) {
    const { user, cookie } = await signedIn(t.db, name);
    users.set(name, user);
    cookies.set(name, cookie);
  }
});

afterAll(async () => {
  await r2?.close();
  await t?.close();
});

beforeEach(async () => {
  // Each test starts with no imports (the rows left by a passing test are its own).
  await client().execute("DELETE FROM import_row_errors");
  await client().execute("DELETE FROM import_mappings");
  await client().execute("DELETE FROM import_jobs WHERE status = 'preview' OR status = 'queued'");
  const keys = await objects();
  if (keys.length) await r2.files.delete(keys);
});

describe("a good file", () => {
  it("streams a Square export into R2 and makes a job in preview with its preset, mapping and time zone", async () => {
    const before = await t.activityCount();
    const text = squareCsv(30);
    const id = await uploaded({ name: "square-march.csv", bytes: bytes(text) });
    const [job] = await jobRows();
    expect(job).toMatchObject({
      id,
      kind: "sales",
      status: "preview",
      source: "square",
      format: "csv",
      file_name: "square-march.csv",
      location_id: loc.DTN,
      time_zone: "America/New_York",
      rows_total: 30,
      rows_bytes: bytes(text).length,
      byte_offset: 0,
      original_key: `imports/${id}/original.csv`,
      rows_key: `imports/${id}/original.csv`,
    });
    const mapping = JSON.parse(String(job?.mapping));
    expect(mapping).toMatchObject({ date: "Date", item: "Item", quantity: "Qty", netSales: "Net Sales" });
    // Customer names are never a field: the column is not mapped to anything.
    expect(Object.values(mapping)).not.toContain("Customer Name");
    const stored = await r2.files.get(`imports/${id}/original.csv`);
    expect(await stored?.text()).toBe(text);
    const hash = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes(text))), (b) =>
      b.toString(16).padStart(2, "0"),
    ).join("");
    expect(job?.file_hash).toBe(hash);
    expect(await t.activityCount()).toBe(before + 1);
    expect(await t.lastActivity()).toMatchObject({
      action: "upload_import",
      entity: "import_job",
      entityId: id,
      locationId: loc.DTN,
      summary: { fileName: "square-march.csv", location: "Downtown" },
    });
  });

  it("previews the first 20 rows as the worker reads them, each with its error, and names the preset", async () => {
    const bad =
      "2026-03-05,11:00:00,Eastern Time (US & Canada),Injectables,Filler,1,Regular,,,$0,$0,twelve,$0,TX99,P99,Payment,Downtown,,,Physical Item,Dr. Lee";
    const text = `${[SQUARE_HEADER, bad, ...Array.from({ length: 25 }, (_, i) => squareRow(i + 1))].join("\n")}\n`;
    const id = await uploaded({ name: "with-error.csv", bytes: bytes(text) });
    const cookie = await cookieOf("admin", "DTN");
    t.resetRoundTrips();
    const page = await outcome(() =>
      jobRoute.loader({ request: pageRequest(`/sales-import/${id}`, cookie), context: ctx(), params: { jobId: id } }),
    );
    expect(page.status).toBe(200);
    // The session, then one batch (the file's start is read from R2, not the database).
    expect(t.roundTrips()).toBe(2);
    const { preview } = page.data as Awaited<ReturnType<typeof jobRoute.loader>>;
    expect(preview?.presetName).toMatch(/^Square item sales/);
    expect(preview?.rows).toHaveLength(20);
    expect(preview?.rows[0]).toMatchObject({ kind: "error", row: 2, column: "Net Sales", value: "twelve" });
    expect(preview?.rows[1]).toMatchObject({ kind: "sale", row: 3, item: "Botox 20u", quantity: 1, netCents: 24000 });
    expect(preview?.job.rowsTotal).toBe(26);
    expect(preview?.missing).toEqual([]);
  });

  it("reads an XLSX (a Zenoti report: title rows above the header, a totals row) into the CSV the worker reads", async () => {
    const title = [{ value: "Sales Accrual Report" }];
    const center = [{ value: "Center: Downtown" }];
    const header = [
      "Invoice No",
      "Invoice Closed Date",
      "Item Type",
      "Item Name",
      "Qty",
      "Sale Type",
      "Sales (Exc. Tax)",
      "Status",
    ].map((value) => ({ value }));
    const row = (n: number) => [
      { value: `INV-${n}` },
      { value: "03/05/2026" },
      { value: "Service" },
      { value: "Hydrafacial" },
      { value: 1, type: Number },
      { value: "Sale" },
      { value: 150.5, type: Number },
      { value: "Closed" },
    ];
    const totals = [
      { value: "Total" },
      null,
      null,
      null,
      { value: 3, type: Number },
      null,
      { value: 451.5, type: Number },
      null,
    ];
    const blob = await (
      await writeXlsxFile([title, center, [], header, row(1), row(2), row(3), totals] as never)
    ).toBlob();
    const id = await uploaded({ name: "zenoti.xlsx", bytes: new Uint8Array(await blob.arrayBuffer()) });
    const [job] = await jobRows();
    expect(job).toMatchObject({
      id,
      format: "xlsx",
      source: "zenoti",
      rows_total: 3,
      original_key: `imports/${id}/original.xlsx`,
      rows_key: `imports/${id}/rows.csv`,
    });
    const rows = (await (await r2.files.get(`imports/${id}/rows.csv`))?.text()) ?? "";
    expect(rows.split("\r\n")[0]).toBe(
      "Invoice No,Invoice Closed Date,Item Type,Item Name,Qty,Sale Type,Sales (Exc. Tax),Status",
    );
    expect(rows).not.toMatch(/Total/);
    expect(rows.trim().split("\r\n")).toHaveLength(4);
    expect(job?.rows_bytes).toBe(bytes(rows).length);
  });
});

describe("a malformed file is refused with what is wrong, and leaves nothing behind", () => {
  const refusedWith = async (file: { name: string; bytes: Uint8Array }, message: RegExp) => {
    const before = await t.activityCount();
    const answer = await uploadPage("admin", file);
    expect(answer.status).toBe(400);
    expect((answer.data as { formError: string }).formError).toMatch(message);
    await nothingLeft();
    expect(await t.activityCount()).toBe(before);
  };

  it("an empty file", () => refusedWith({ name: "empty.csv", bytes: new Uint8Array() }, /The file is empty/));

  it("a header and no rows", () =>
    refusedWith({ name: "head.csv", bytes: bytes(`${SQUARE_HEADER}\n`) }, /no rows below it/));

  it("binary: NUL bytes", () => {
    const data = bytes(squareCsv(3));
    data[40] = 0;
    return refusedWith({ name: "nul.csv", bytes: data }, /not a CSV or Excel/);
  });

  it("binary: text that is not UTF-8", () =>
    refusedWith(
      {
        name: "latin1.csv",
        bytes: new Uint8Array([...bytes("Date,Item,Qty,Net Sales\n2026-03-01,Cr"), 0xe8, 0x6d, 0x65, 0x0a]),
      },
      /not UTF-8/,
    ));

  it("binary: a zip that is no spreadsheet", () =>
    refusedWith(
      { name: "fake.xlsx", bytes: new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...bytes("not really a zip at all")]) },
      /not a CSV or Excel/,
    ));

  it("wrong headers: names the columns found and those needed", () =>
    refusedWith(
      { name: "patients.csv", bytes: bytes("Patient,Phone,Email\nA,1,a@x\nB,2,b@x\n") },
      /columns \(Patient, Phone, Email\) include none of those a sales file needs: Date, Item, Quantity, Net Sales/,
    ));

  it("a row with 10,000 columns", () =>
    refusedWith(
      { name: "wide.csv", bytes: bytes(`${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(",")}\n1,2\n`) },
      /10,000 columns; a sales export has at most 200/,
    ));

  it("over the size limit (a lowered limit): says the limit and how to split the export", async () => {
    const request = uploadRequest(
      "/sales-import",
      await cookieOf("admin", "DTN"),
      { locationId: loc.DTN },
      {
        name: "year.csv",
        bytes: bytes(squareCsv(400)),
      },
    );
    const answer = await receiveUpload(t.db, r2.files, as("admin"), request, "sales", {
      limits: { ...CSV_LIMITS, maxBytes: 20 * 1024 },
    });
    expect(answer).toMatchObject({ ok: false, refusal: "too_large" });
    expect(!answer.ok && answer.message).toMatch(/larger than 0 MB|larger than/);
    expect(!answer.ok && answer.message).toMatch(/shorter periods, e\.g\. a month at a time/);
    await nothingLeft();
  });

  it("over the real 90 MB limit: the stream is cut at the limit, never held whole, the R2 upload aborted", async () => {
    const line = bytes(`${squareRow(1)}\n`);
    const chunk = new Uint8Array(256 * 1024 - ((256 * 1024) % line.length));
    for (let at = 0; at + line.length <= chunk.length; at += line.length) chunk.set(line, at);
    // What is held (live after a collection), sampled as the upload pulls the stream (every 16th
    // piece, 4 MiB apart): garbage is not holding, and no timer has to find a gap in the work.
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    const live = () => {
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const base = live();
    let peak = 0;
    let samples = 0;
    const { request, pulled } = streamedUpload(
      "/sales-import",
      await cookieOf("admin", "DTN"),
      { locationId: loc.DTN },
      function* () {
        // Endless: only the limit stops it.
        for (let n = 0; ; n++) {
          if (n % 16 === 0) {
            peak = Math.max(peak, live() - base);
            samples++;
          }
          yield chunk;
        }
      },
    );
    const answer = await receiveUpload(t.db, r2.files, as("admin"), request, "sales");
    expect(answer).toMatchObject({ ok: false, refusal: "too_large" });
    expect(!answer.ok && answer.message).toMatch(/larger than 90 MB/);
    expect(pulled.done).toBe(false);
    expect(pulled.bytes).toBeGreaterThan(CSV_LIMITS.maxBytes);
    // Read no further than the limit and what the stream had queued ahead of it.
    expect(pulled.bytes, "bytes read from the stream").toBeLessThan(CSV_LIMITS.maxBytes + 4 * chunk.length);
    // Held in pieces (a 5 MiB part filling, one on its way to storage, a chunk): about 20 MB live
    // whatever the bytes so far, never the 90 MB (whole, it would be more than the limit itself).
    expect(samples).toBeGreaterThan(20);
    expect(peak, "live bytes at the peak").toBeLessThan(60 * 1024 * 1024);
    await nothingLeft();
  }, 120_000);

  it("a body announced larger than the limit is refused unread", async () => {
    const request = uploadRequest(
      "/sales-import",
      "",
      { locationId: loc.DTN },
      { name: "a.csv", bytes: bytes(squareCsv(2)) },
      {
        "Content-Length": String(200 * 1024 * 1024),
      },
    );
    const answer = await receiveUpload(t.db, r2.files, as("admin"), request, "sales");
    expect(answer).toMatchObject({ ok: false, refusal: "too_large" });
    await nothingLeft();
  });

  it("a 50 MB single line: cut as soon as the line passes 64 KB", async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x61);
    let sent = 0;
    const { request, pulled } = streamedUpload(
      "/sales-import",
      await cookieOf("admin", "DTN"),
      { locationId: loc.DTN },
      function* () {
        yield bytes("Date,Item,Qty,Net Sales\n");
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          yield chunk;
        }
      },
    );
    const answer = await receiveUpload(t.db, r2.files, as("admin"), request, "sales");
    expect(answer).toMatchObject({ ok: false, refusal: "row_too_long" });
    expect(!answer.ok && answer.message).toMatch(/longer than 64 KB: this is not a sales export/);
    expect(pulled.bytes).toBeLessThan(5 * 1024 * 1024);
    await nothingLeft();
  });

  it("a form with no file chosen", async () => {
    const answer = await uploadPage("admin", { name: "", bytes: new Uint8Array() });
    expect(answer.status).toBe(400);
    expect((answer.data as { formError: string }).formError).toMatch(/Choose a CSV or Excel/);
    await nothingLeft();
  });
});

describe("custom files, the preview's mapping, queue and discard", () => {
  const CUSTOM = "Sold On,Product,How Many,Amount,Receipt\n";
  const customCsv = `${CUSTOM}${Array.from({ length: 5 }, (_, i) => `2026-03-0${i + 1},Hydrafacial,1,150.00,R${i}`).join("\n")}\n`;

  it("a file no preset knows gets a guessed mapping; queueing asks for the fields missing; the confirmed mapping is saved and offered next time", async () => {
    const cookie = await cookieOf("admin", "DTN");
    const id = await uploaded({ name: "custom.csv", bytes: bytes(customCsv) });
    const [job] = await jobRows();
    expect(job).toMatchObject({ source: "custom", status: "preview" });
    expect(JSON.parse(String(job?.mapping))).toMatchObject({ item: "Product", netSales: "Amount" });

    const queueEarly = await outcome(() =>
      jobRoute.action({
        request: formRequest(`/sales-import/${id}`, cookie, {
          intent: "queue",
          "field.item": "Product",
          "field.netSales": "Amount",
        }),
        context: ctx(),
        params: { jobId: id },
      }),
    );
    expect(queueEarly.status).toBe(409);
    expect((queueEarly.data as { formError: string }).formError).toMatch(/Say which column holds Date, Quantity/);
    expect((await jobRows())[0]).toMatchObject({ status: "preview" });

    const unknownColumn = await outcome(() =>
      jobRoute.action({
        request: formRequest(`/sales-import/${id}`, cookie, { intent: "queue", "field.date": "Nope" }),
        context: ctx(),
        params: { jobId: id },
      }),
    );
    expect(unknownColumn.status).toBe(409);

    const mapping = {
      "field.date": "Sold On",
      "field.item": "Product",
      "field.quantity": "How Many",
      "field.netSales": "Amount",
      "field.transactionId": "Receipt",
    };
    const before = await t.activityCount();
    const queued = await outcome(() =>
      jobRoute.action({
        request: formRequest(`/sales-import/${id}`, cookie, { intent: "queue", ...mapping }),
        context: ctx(),
        params: { jobId: id },
      }),
    );
    expect(queued.status).toBe(302);
    expect(queued.location).toBe(`/sales-import/${id}`);
    const [after] = await jobRows();
    expect(after).toMatchObject({ status: "queued", source: "custom" });
    expect(Number(after?.queued_at)).toBeGreaterThan(0);
    expect(JSON.parse(String(after?.mapping))).toEqual({
      date: "Sold On",
      item: "Product",
      quantity: "How Many",
      netSales: "Amount",
      transactionId: "Receipt",
    });
    expect(await t.activityCount()).toBe(before + 1);
    expect(await t.lastActivity()).toMatchObject({
      action: "import_sales",
      entity: "import_job",
      entityId: id,
      summary: { fileName: "custom.csv", rows: 5, queued: 1 },
    });
    const saved = (await client().execute("SELECT * FROM import_mappings")).rows;
    expect(saved).toHaveLength(1);

    // Queued once: a second confirmation finds nothing in preview.
    const again = await outcome(() =>
      jobRoute.action({
        request: formRequest(`/sales-import/${id}`, cookie, { intent: "queue", ...mapping }),
        context: ctx(),
        params: { jobId: id },
      }),
    );
    expect(again.status).toBe(409);
    expect(await t.activityCount()).toBe(before + 1);

    // The same columns in another order: the saved mapping is offered.
    const reordered = `Receipt,Amount,How Many,Product,Sold On\nR9,20.00,2,Hydrafacial,2026-03-09\n`;
    const second = await uploaded({ name: "custom-april.csv", bytes: bytes(reordered) });
    const row = (await client().execute({ sql: "SELECT mapping FROM import_jobs WHERE id = ?", args: [second] }))
      .rows[0];
    expect(JSON.parse(String(row?.mapping))).toMatchObject({ date: "Sold On", quantity: "How Many" });
  });

  it("discard asks nothing of storage it cannot give back: the job row and its R2 objects go, with its activity", async () => {
    const id = await uploaded({ name: "oops.csv", bytes: bytes(squareCsv(3)) });
    expect(await objects()).toEqual([`imports/${id}/original.csv`]);
    const before = await t.activityCount();
    const answer = await outcome(() =>
      jobRoute.action({
        request: formRequest(`/sales-import/${id}`, cookies.get("admin") ?? "", { intent: "discard" }),
        context: ctx(),
        params: { jobId: id },
      }),
    );
    expect(answer.status).toBe(302);
    expect(answer.location).toBe("/sales-import");
    await nothingLeft();
    expect(await t.lastActivity()).toMatchObject({
      action: "discard_import",
      entityId: id,
      summary: { fileName: "oops.csv" },
    });
    expect(await t.activityCount()).toBe(before + 1);
  });

  it("a file whose rows name their locations: each value is matched to a location before it is queued", async () => {
    const cookie = await cookieOf("owner", ORGANIZATION);
    const text = `${SQUARE_HEADER}\n${squareRow(1)}\n${squareRow(2).replace(",Downtown,", ",Westside Clinic,")}\n`;
    const request = uploadRequest(
      "/sales-import",
      cookie,
      { kind: "sales", locationId: "" },
      { name: "two.csv", bytes: bytes(text) },
    );
    const answer = await outcome(() => indexRoute.action({ request, context: ctx(), params: {} }));
    expect(answer.status, JSON.stringify(answer.data)).toBe(302);
    const id = answer.location?.split("/").pop() ?? "";
    const page = await outcome(() =>
      jobRoute.loader({ request: pageRequest(`/sales-import/${id}`, cookie), context: ctx(), params: { jobId: id } }),
    );
    const { preview } = page.data as Awaited<ReturnType<typeof jobRoute.loader>>;
    expect(preview?.job.locationId).toBeNull();
    expect(preview?.locationValues).toEqual([
      { value: "Downtown", locationId: loc.DTN },
      { value: "Westside Clinic", locationId: loc.WST },
    ]);
    const mapping = Object.fromEntries(Object.entries(preview?.job.mapping ?? {}).map(([k, v]) => [`field.${k}`, v]));
    const queue = (targets: Record<string, string>) =>
      outcome(() =>
        jobRoute.action({
          request: formRequest(`/sales-import/${id}`, cookie, { intent: "queue", ...mapping, ...targets }),
          context: ctx(),
          params: { jobId: id },
        }),
      );
    expect((await queue({})).status).toBe(409);
    const done = await queue({
      "locationValue.0": "Downtown",
      "locationTarget.0": loc.DTN,
      "locationValue.1": "Westside Clinic",
      "locationTarget.1": loc.WST,
    });
    expect(done.status).toBe(302);
    const row = (
      await client().execute({ sql: "SELECT status, location_map FROM import_jobs WHERE id = ?", args: [id] })
    ).rows[0];
    expect(row?.status).toBe("queued");
    expect(JSON.parse(String(row?.location_map))).toEqual({ Downtown: loc.DTN, "Westside Clinic": loc.WST });
  });
});

describe("who may upload", () => {
  it("staff and managers cannot upload (403), and nothing is stored", async () => {
    for (const [name, where] of [
      ["staff", "DTN"],
      ["manager", "WST"],
    ] as const) {
      const cookie = await cookieOf(name, where);
      const page = await outcome(() =>
        indexRoute.action({
          request: uploadRequest(
            "/sales-import",
            cookie,
            { locationId: loc[where] },
            { name: "a.csv", bytes: bytes(squareCsv(2)) },
          ),
          context: ctx(),
          params: {},
        }),
      );
      expect(page.status).toBe(403);
      const api = await outcome(() =>
        listApi.action({
          request: uploadRequest(
            "/api/imports",
            cookie,
            { kind: "sales", locationId: loc[where] },
            { name: "a.csv", bytes: bytes(squareCsv(2)) },
          ),
          context: ctx(),
          params: {},
        }),
      );
      expect(api.status).toBe(403);
      expect(await api.response?.json()).toMatchObject({ code: "forbidden" });
      // Staff do not see the imports; a manager reads them, and is told why there is no upload form.
      const seen = await outcome(() =>
        indexRoute.loader({ request: pageRequest("/sales-import", cookie), context: ctx(), params: {} }),
      );
      if (name === "staff") expect(seen.status).toBe(403);
      else {
        expect(seen.status).toBe(200);
        expect((seen.data as Awaited<ReturnType<typeof indexRoute.loader>>).upload.reason).toMatch(
          /Uploading sales files takes the Imports write permission/,
        );
      }
    }
    await nothingLeft();
  });

  it("an admin of one location cannot upload into another", async () => {
    const cookie = await cookieOf("admin", "DTN");
    const answer = await outcome(() =>
      indexRoute.action({
        request: uploadRequest(
          "/sales-import",
          cookie,
          { locationId: loc.NTH },
          { name: "a.csv", bytes: bytes(squareCsv(2)) },
        ),
        context: ctx(),
        params: {},
      }),
    );
    expect(answer.status).toBe(400);
    expect((answer.data as { formError: string }).formError).toMatch(/not one you may import into/);
    await nothingLeft();
  });
});

describe("the JSON API", () => {
  const post = async (
    fields: Record<string, string>,
    file: { name: string; bytes: Uint8Array } | null,
    key?: string,
  ) => {
    const cookie = await cookieOf("admin", "DTN");
    const request = uploadRequest("/api/imports", cookie, fields, file, key ? { "Idempotency-Key": key } : {});
    const answer = await outcome(() => listApi.action({ request, context: ctx(), params: {} }));
    return { status: answer.status, body: (await answer.response?.json()) as Record<string, unknown> };
  };

  it("POST a Square file: 201 {id, status: queued}; GET one and the list answer their shapes", async () => {
    const { status, body } = await post(
      { kind: "sales", locationId: loc.DTN },
      { name: "api.csv", bytes: bytes(squareCsv(4)) },
    );
    expect(status).toBe(201);
    expect(body).toEqual({ id: expect.any(String), status: "queued" });
    const id = String(body.id);
    const cookie = await cookieOf("admin", "DTN");
    const one = await outcome(() =>
      oneApi.loader({ request: pageRequest(`/api/imports/${id}`, cookie), context: ctx(), params: { id } }),
    );
    expect(await one.response?.json()).toMatchObject({
      id,
      kind: "sales",
      status: "queued",
      fileName: "api.csv",
      rowsDone: 0,
      rowsTotal: 4,
      counts: { imported: 0, duplicates: 0, skipped: 0, unmapped: 0, errors: 0 },
      errors: [],
    });
    const list = await outcome(() =>
      listApi.loader({
        request: pageRequest(`/api/imports?locationId=${loc.DTN}`, cookie),
        context: ctx(),
        params: {},
      }),
    );
    const page = (await list.response?.json()) as {
      items: { id: string }[];
      page: number;
      pageSize: number;
      total: number;
    };
    expect(page).toMatchObject({ page: 1, pageSize: 25 });
    expect(page.items.map((i) => i.id)).toContain(id);
    expect(page.total).toBeGreaterThanOrEqual(1);
    const missing = await outcome(() =>
      oneApi.loader({ request: pageRequest("/api/imports/nope", cookie), context: ctx(), params: { id: "nope" } }),
    );
    expect(missing.status).toBe(404);
    expect(await missing.response?.json()).toMatchObject({ code: "not_found" });
  });

  it("a file whose columns are not known: 422 naming the fields missing, nothing kept; with `mapping` it is queued", async () => {
    const custom = bytes("Sold On,Product,How Many,Amount\n2026-03-01,Hydrafacial,1,150.00\n");
    const refused = await post({ kind: "sales", locationId: loc.DTN }, { name: "c.csv", bytes: custom });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: "missing_fields" });
    expect(String(refused.body.error)).toMatch(/Date, Item, Quantity, Net Sales/);
    await nothingLeft();
    const mapping = JSON.stringify({ date: "Sold On", item: "Product", quantity: "How Many", netSales: "Amount" });
    const ok = await post({ kind: "sales", locationId: loc.DTN, mapping }, { name: "c.csv", bytes: custom });
    expect(ok.status).toBe(201);
    expect(ok.body.status).toBe("queued");
    const badMapping = await post(
      { kind: "sales", locationId: loc.DTN, mapping: "{not json" },
      { name: "c.csv", bytes: custom },
    );
    expect(badMapping.status).toBe(422);
    expect(badMapping.body).toMatchObject({ code: "bad_mapping" });
  });

  it("4xx for bad input, never 500: not multipart, no location, a malformed file, a wrong kind", async () => {
    const cookie = await cookieOf("admin", "DTN");
    const json = await outcome(() =>
      listApi.action({
        request: new Request(`${ORIGIN}/api/imports`, {
          method: "POST",
          headers: { Cookie: cookie, "Content-Type": "application/json" },
          body: "{}",
        }),
        context: ctx(),
        params: {},
      }),
    );
    expect(json.status).toBe(415);
    expect(await json.response?.json()).toMatchObject({ code: "not_multipart" });
    const noLocation = await post({ kind: "sales" }, { name: "a.csv", bytes: bytes(squareCsv(2)) });
    expect(noLocation).toMatchObject({ status: 422, body: { code: "location_needed" } });
    const empty = await post({ kind: "sales", locationId: loc.DTN }, { name: "a.csv", bytes: new Uint8Array() });
    expect(empty).toMatchObject({ status: 422, body: { code: "empty" } });
    const kind = await post({ kind: "invoices", locationId: loc.DTN }, { name: "a.csv", bytes: bytes(squareCsv(2)) });
    expect(kind.status).toBe(422);
    const noFile = await post({ kind: "sales", locationId: loc.DTN }, null);
    expect(noFile).toMatchObject({ status: 422, body: { code: "no_file" } });
    await nothingLeft();
  });

  it("Idempotency-Key: a retry answers the first upload; the key with another file is refused", async () => {
    const file = { name: "k.csv", bytes: bytes(squareCsv(3)) };
    const first = await post({ kind: "sales", locationId: loc.DTN }, file, "import-key-0001");
    const retry = await post({ kind: "sales", locationId: loc.DTN }, file, "import-key-0001");
    expect(first.status).toBe(201);
    expect(retry).toEqual({ status: 201, body: first.body });
    const rows = (await client().execute("SELECT count(*) AS n FROM import_jobs WHERE file_name = 'k.csv'")).rows[0];
    expect(Number(rows?.n)).toBe(1);
    expect((await objects()).filter((k) => k.startsWith(`imports/${first.body.id}/`))).toHaveLength(1);
    expect(await objects()).toHaveLength(1);
    const other = await post(
      { kind: "sales", locationId: loc.DTN },
      { name: "k.csv", bytes: bytes(squareCsv(4)) },
      "import-key-0001",
    );
    expect(other).toMatchObject({ status: 422, body: { code: "idempotency_key_reused" } });
  });
});

describe("through the jobs worker", () => {
  it("a file uploaded and queued here is imported by the worker, and the list shows it done with its counts", async () => {
    const cookie = await cookieOf("admin", "DTN");
    const text = `${[SQUARE_HEADER, ...Array.from({ length: 40 }, (_, i) => squareRow(i + 1)), squareRow(3)].join("\n")}\n`;
    const request = uploadRequest(
      "/api/imports",
      cookie,
      { kind: "sales", locationId: loc.DTN },
      { name: "worked.csv", bytes: bytes(text) },
    );
    const posted = await outcome(() => listApi.action({ request, context: ctx(), params: {} }));
    expect(posted.status).toBe(201);
    const { id } = ((await posted.response?.json()) ?? {}) as { id: string };
    for (let run = 0; run < 20 && (await advanceImports(t.db, r2.files, new Date(), { chunkBytes: 2048 })); run++);
    const one = await outcome(() =>
      oneApi.loader({ request: pageRequest(`/api/imports/${id}`, cookie), context: ctx(), params: { id } }),
    );
    // Row 42 repeats row 4 exactly: identical rows of one file are two sales, never collapsed.
    expect(await one.response?.json()).toMatchObject({
      status: "completed",
      rowsDone: 41,
      rowsTotal: 41,
      counts: { imported: 41, duplicates: 0, errors: 0 },
    });
    // The same file again changes nothing: every row a duplicate.
    const again = uploadRequest(
      "/api/imports",
      cookie,
      { kind: "sales", locationId: loc.DTN },
      { name: "worked.csv", bytes: bytes(text) },
    );
    const second = (await (
      await outcome(() => listApi.action({ request: again, context: ctx(), params: {} }))
    ).response?.json()) as { id: string };
    for (let run = 0; run < 20 && (await advanceImports(t.db, r2.files, new Date(), { chunkBytes: 2048 })); run++);
    const twice = await outcome(() =>
      oneApi.loader({
        request: pageRequest(`/api/imports/${second.id}`, cookie),
        context: ctx(),
        params: { id: second.id },
      }),
    );
    expect(await twice.response?.json()).toMatchObject({
      status: "completed",
      counts: { imported: 0, duplicates: 41 },
    });
    const page = await outcome(() =>
      indexRoute.loader({ request: pageRequest("/sales-import", cookie), context: ctx(), params: {} }),
    );
    const listed = (page.data as Awaited<ReturnType<typeof indexRoute.loader>>).imports.items.find((i) => i.id === id);
    expect(listed).toMatchObject({ status: "completed", rowsDone: 41, rowsTotal: 41 });
    // The item no catalogue entry names is listed once, with its lines.
    const unknown = (page.data as Awaited<ReturnType<typeof indexRoute.loader>>).unknown.items;
    expect(unknown.filter((i) => i.name === "Botox 20u")).toMatchObject([{ lines: 41 }]);
  });
});

describe("the JSON API: recipes", () => {
  const post = async (fields: Record<string, string>, text: string) => {
    const cookie = await cookieOf("admin", "DTN");
    const request = uploadRequest("/api/imports", cookie, fields, { name: "recipes.csv", bytes: bytes(text) });
    const answer = await outcome(() => listApi.action({ request, context: ctx(), params: {} }));
    return { status: answer.status, body: (await answer.response?.json()) as Record<string, unknown> };
  };

  it("kind=recipes applies the file at once, all or nothing: 201 completed, or 422 with its rows in error", async () => {
    const good = await post({ kind: "recipes" }, "Service Code,SKU,Quantity per service\nCONSULT,SUP-PREP-200,1\n");
    expect(good.status, JSON.stringify(good.body)).toBe(201);
    expect(good.body).toEqual({ id: expect.any(String), status: "completed" });
    const row = (
      await client().execute({
        sql: "SELECT kind, status, location_id FROM import_jobs WHERE id = ?",
        args: [String(good.body.id)],
      })
    ).rows[0];
    expect(row).toMatchObject({ kind: "recipes", status: "completed", location_id: null });
    const bad = await post({ kind: "recipes" }, "Service Code,SKU,Quantity per service\nCONSULT,NOPE-SKU,1\n");
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({
      code: "has_errors",
      errors: [{ rowNumber: 2, column: "SKU", value: "NOPE-SKU" }],
    });
    const before = await jobRows();
    const wrong = await post({ kind: "recipes" }, "Patient,Phone\nA,1\n");
    expect(wrong.status).toBe(422);
    expect(String(wrong.body.error)).toMatch(/no column for the service/);
    expect(await jobRows()).toEqual(before);
  });
});

describe("the screens", () => {
  it("/sales-import lists the imports newest first with their progress, and offers the upload where the reader may", async () => {
    const id = await uploaded({ name: "listed.csv", bytes: bytes(squareCsv(2)) });
    const cookie = await cookieOf("admin", "DTN");
    t.resetRoundTrips();
    const page = await outcome(() =>
      indexRoute.loader({ request: pageRequest("/sales-import", cookie), context: ctx(), params: {} }),
    );
    expect(page.status).toBe(200);
    // The session, then one batch for the page (architecture.md's budget).
    expect(t.roundTrips()).toBe(2);
    const data = page.data as Awaited<ReturnType<typeof indexRoute.loader>>;
    expect(data.imports.items[0]).toMatchObject({
      id,
      status: "preview",
      fileName: "listed.csv",
      createdByName: "Adam Admin",
    });
    expect(data.upload).toMatchObject({
      reason: null,
      fixedLocation: loc.DTN,
      locations: [{ id: loc.DTN, name: "Downtown" }],
    });
    // Another location's admin does not see it.
    const north = await cookieOf("owner", "NTH");
    const other = await outcome(() =>
      indexRoute.loader({ request: pageRequest("/sales-import", north), context: ctx(), params: {} }),
    );
    const seen = (other.data as Awaited<ReturnType<typeof indexRoute.loader>>).imports.items.map((i) => i.id);
    expect(seen).not.toContain(id);
  });

  it("an unknown item's page finds services and retail products by search and maps it; staff may not", async () => {
    const cookie = await cookieOf("admin", "DTN");
    const text = `${[SQUARE_HEADER, squareRow(1, "Mapping page serum"), squareRow(2, "Mapping page serum")].join("\n")}\n`;
    const request = uploadRequest(
      "/api/imports",
      cookie,
      { kind: "sales", locationId: loc.DTN },
      { name: "unknown.csv", bytes: bytes(text) },
    );
    expect((await outcome(() => listApi.action({ request, context: ctx(), params: {} }))).status).toBe(201);
    for (let run = 0; run < 10 && (await advanceImports(t.db, r2.files, new Date())); run++);
    const listed = await outcome(() =>
      indexRoute.loader({ request: pageRequest("/sales-import", cookie), context: ctx(), params: {} }),
    );
    const unknown = (listed.data as Awaited<ReturnType<typeof indexRoute.loader>>).unknown.items;
    const item = unknown.find((i) => i.name === "Mapping page serum");
    expect(item).toMatchObject({ lines: 2, units: 2 });
    const itemId = String(item?.id);

    const read = async (q: string) => {
      t.resetRoundTrips();
      const answer = await outcome(() =>
        itemRoute.loader({
          request: pageRequest(`/sales-import/items/${itemId}?q=${encodeURIComponent(q)}`, cookie),
          context: ctx(),
          params: { itemId },
        }),
      );
      expect(t.roundTrips()).toBe(2);
      return answer.data as Awaited<ReturnType<typeof itemRoute.loader>>;
    };
    // No search: services by name, no retail products (found by searching, never listed whole).
    const plain = await read("");
    expect(plain.item).toMatchObject({ name: "Mapping page serum", kind: "unmapped", lines: 2 });
    expect(plain.services.map((s) => s.name)).toContain("Consultation");
    expect(plain.variations).toEqual([]);
    // A retail SKU typed whole finds its bulk variation; a vial-tracked product's never shows.
    expect((await read("SKC-CEF-30")).variations.map((v) => v.name)).toEqual(["C E Ferulic · 30 mL"]);
    expect((await read("Botox")).variations).toEqual([]);
    expect((await read("glabellar")).services.map((s) => s.name)).toEqual(
      expect.arrayContaining(["Glabellar lines – toxin", "Glabellar lines – Dysport"]),
    );

    // Staff may not map (403); an item that is none is 404; the admin maps it, and it leaves the list.
    const staff = await cookieOf("staff", "DTN");
    const refused = await outcome(() =>
      itemRoute.action({
        request: formRequest(`/sales-import/items/${itemId}`, staff, { target: "ignored" }),
        context: ctx(),
        params: { itemId },
      }),
    );
    expect(refused.status).toBe(403);
    const none = await outcome(() =>
      itemRoute.loader({
        request: pageRequest("/sales-import/items/999999", cookie),
        context: ctx(),
        params: { itemId: "999999" },
      }),
    );
    expect(none.status).toBe(404);
    const mapped = await outcome(() =>
      itemRoute.action({
        request: formRequest(`/sales-import/items/${itemId}`, cookie, { target: "ignored" }),
        context: ctx(),
        params: { itemId },
      }),
    );
    expect(mapped.status).toBe(302);
    expect((await read("")).item.kind).toBe("ignored");
  });

  it("errors.csv streams an import's rows in error; an import elsewhere is 404", async () => {
    const { body } = await (async () => {
      const cookie = await cookieOf("admin", "DTN");
      const request = uploadRequest(
        "/api/imports",
        cookie,
        { kind: "sales", locationId: loc.DTN },
        { name: "e.csv", bytes: bytes(squareCsv(3)) },
      );
      const answer = await outcome(() => listApi.action({ request, context: ctx(), params: {} }));
      return { body: (await answer.response?.json()) as { id: string } };
    })();
    await client().execute({
      sql: `INSERT INTO import_row_errors (job_id, row_number, "column", value, message) VALUES (?, 3, 'Net Sales', 'twelve', 'Not an amount'), (?, 2, 'Date', '13/13/2026', 'Not a date')`,
      args: [body.id, body.id],
    });
    const cookie = await cookieOf("admin", "DTN");
    const csv = await outcome(() =>
      errorsCsv.loader({
        request: pageRequest(`/sales-import/${body.id}/errors.csv`, cookie),
        context: ctx(),
        params: { jobId: body.id },
      }),
    );
    expect(csv.status).toBe(200);
    expect(csv.response?.headers.get("Content-Disposition")).toMatch(/attachment; filename="e-rows-in-error\.csv"/);
    const text = (await csv.response?.text()) ?? "";
    expect(text.replace(/^\uFEFF/, "").split("\r\n")).toEqual([
      "Row,Column,Value,Message",
      "2,Date,13/13/2026,Not a date",
      "3,Net Sales,twelve,Not an amount",
      "",
    ]);
    const north = await cookieOf("owner", "NTH");
    const elsewhere = await outcome(() =>
      errorsCsv.loader({
        request: pageRequest(`/sales-import/${body.id}/errors.csv`, north),
        context: ctx(),
        params: { jobId: body.id },
      }),
    );
    expect(elsewhere.status).toBe(404);
  });
});
