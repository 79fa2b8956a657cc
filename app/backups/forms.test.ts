import { describe, expect, it } from "vitest";
import { CompleteUploadBody, RESTORE_MESSAGES, RestoreForm } from "./forms";
import { progressText } from "./progress";
import { partCount, UPLOAD_PART_BYTES } from "./upload-rules";

describe("RestoreForm", () => {
  it("keeps the name as typed but trimmed (the verb compares it case-sensitively), and asks for one", () => {
    expect(RestoreForm.parse({ backupId: "b1", organizationName: "  Demo Clinics ", idempotencyKey: "" })).toEqual({
      backupId: "b1",
      organizationName: "Demo Clinics",
      idempotencyKey: null,
    });
    const empty = RestoreForm.safeParse({ backupId: "b1", organizationName: "   " });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]?.message).toBe(RESTORE_MESSAGES.organizationName);
    expect(RestoreForm.safeParse({ backupId: "b1", organizationName: "Demo\u0000" }).success).toBe(false);
    expect(RestoreForm.safeParse({ backupId: "b1", organizationName: "Demo", idempotencyKey: "no!" }).success).toBe(
      false,
    );
  });
});

describe("CompleteUploadBody", () => {
  it("takes the pieces as storage answered them, and refuses none or a malformed one", () => {
    const body = { uploadId: "u", parts: [{ partNumber: 1, etag: "e1" }], fileName: "", size: 10 };
    expect(CompleteUploadBody.parse(body)).toEqual({ ...body, fileName: null });
    expect(CompleteUploadBody.safeParse({ ...body, parts: [] }).success).toBe(false);
    expect(CompleteUploadBody.safeParse({ ...body, parts: [{ partNumber: 0, etag: "e" }] }).success).toBe(false);
    expect(CompleteUploadBody.safeParse({ ...body, size: -1 }).success).toBe(false);
  });
});

describe("partCount", () => {
  it("sends a file in pieces of UPLOAD_PART_BYTES, the last one shorter", () => {
    expect(partCount(1)).toBe(1);
    expect(partCount(UPLOAD_PART_BYTES)).toBe(1);
    expect(partCount(UPLOAD_PART_BYTES + 1)).toBe(2);
    expect(partCount(10 * UPLOAD_PART_BYTES)).toBe(10);
  });
});

describe("progressText", () => {
  it("says what the jobs worker is doing, in rows", () => {
    const progress = (rowsDone: number, rowsTotal: number | null, percent: number | null) => ({
      rowsDone,
      rowsTotal,
      percent,
    });
    expect(progressText({ status: "queued", progress: progress(0, null, null) })).toBe(
      "Waiting for the jobs worker to start it",
    );
    expect(progressText({ status: "writing", progress: progress(1200, null, null) })).toBe(
      "Writing: 1,200 rows so far",
    );
    expect(progressText({ status: "writing", progress: progress(1200, 4800, 25) })).toBe(
      "Writing: 25% (1,200 of 4,800 rows)",
    );
  });
});
