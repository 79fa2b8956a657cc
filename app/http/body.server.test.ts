import { describe, expect, it } from "vitest";
import { z } from "zod";
import { API_BODY_MAX_BYTES, readJsonBody } from "./api.server";
import { isFormMediaType, isJsonMediaType, mediaTypeOf, readBounded } from "./body.server";

/** A body of `total` bytes streamed in 16 KiB chunks, made as it is pulled: `pulled()` says how much was read. */
function streamed(total: number) {
  let sent = 0;
  const chunk = new Uint8Array(16 * 1024).fill(0x20);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const next = chunk.subarray(0, Math.min(chunk.length, total - sent));
      sent += next.length;
      controller.enqueue(next.slice());
    },
  });
  return { body, pulled: () => sent };
}

function jsonPost(body: BodyInit | null, contentType = "application/json", headers: Record<string, string> = {}) {
  return new Request("http://clinic.test/api/x", {
    method: "POST",
    body,
    headers: { "Content-Type": contentType, ...headers },
    // A stream body needs it (Node's fetch): sent chunked, with no Content-Length.
    duplex: "half",
  } as RequestInit);
}

/** What readJsonBody threw: its status and code. */
async function refusal(request: Request) {
  try {
    await readJsonBody(request, z.object({ units: z.number().optional() }));
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { status: thrown.status, code: ((await thrown.json()) as { code: string }).code };
  }
  return null;
}

describe("media types", () => {
  it("parses the type and its parameters", () => {
    expect(mediaTypeOf('Multipart/Form-Data; Boundary="abc"')).toEqual({
      type: "multipart/form-data",
      parameters: { boundary: "abc" },
    });
    expect(mediaTypeOf("nonsense")).toBeNull();
    expect(mediaTypeOf(null)).toBeNull();
  });

  it("takes JSON only as application/json, with a utf-8 charset at most", () => {
    expect(isJsonMediaType("application/json")).toBe(true);
    expect(isJsonMediaType("application/json; charset=utf-8")).toBe(true);
    expect(isJsonMediaType("Application/JSON;charset=UTF-8")).toBe(true);
    expect(isJsonMediaType("text/plain; x=application/json")).toBe(false);
    expect(isJsonMediaType("application/json-patch+json")).toBe(false);
    expect(isJsonMediaType("application/jsonx")).toBe(false);
    expect(isJsonMediaType("application/json; charset=latin1")).toBe(false);
    expect(isJsonMediaType("application/json; x=y")).toBe(false);
    expect(isJsonMediaType(null)).toBe(false);
  });

  it("takes a form as a browser sends one", () => {
    expect(isFormMediaType("application/x-www-form-urlencoded")).toBe(true);
    expect(isFormMediaType("application/x-www-form-urlencoded;charset=UTF-8")).toBe(true);
    expect(isFormMediaType("multipart/form-data; boundary=----x")).toBe(true);
    expect(isFormMediaType("multipart/form-data")).toBe(false);
    expect(isFormMediaType("application/json")).toBe(false);
    expect(isFormMediaType("text/plain; x=application/x-www-form-urlencoded")).toBe(false);
  });
});

describe("readBounded", () => {
  it("reads a body within the limit whole", async () => {
    const bytes = await readBounded(jsonPost("x".repeat(100)), 100);
    expect(bytes?.byteLength).toBe(100);
  });

  it("stops a chunked body one chunk past the limit instead of reading it whole", async () => {
    const { body, pulled } = streamed(50 * 1024 * 1024);
    expect(await readBounded(jsonPost(body), 64 * 1024)).toBeNull();
    expect(pulled()).toBeLessThanOrEqual(64 * 1024 + 2 * 16 * 1024);
  });

  it("refuses a declared Content-Length over the limit unread", async () => {
    const { body, pulled } = streamed(1024 * 1024);
    expect(await readBounded(jsonPost(body, "application/json", { "Content-Length": "1048576" }), 1024)).toBeNull();
    expect(pulled()).toBeLessThanOrEqual(2 * 16 * 1024);
  });
});

describe("readJsonBody", () => {
  it("answers 413 to a chunked 50 MB body having read no more than the limit", async () => {
    const { body, pulled } = streamed(50 * 1024 * 1024);
    expect(await refusal(jsonPost(body))).toEqual({ status: 413, code: "too_large" });
    expect(pulled()).toBeLessThanOrEqual(API_BODY_MAX_BYTES + 2 * 16 * 1024);
  });

  it("answers 415 to a media type that only mentions JSON", async () => {
    expect(await refusal(jsonPost("{}", "text/plain; x=application/json"))).toEqual({
      status: 415,
      code: "unsupported_media_type",
    });
    expect(await refusal(jsonPost("{}", "application/json; charset=utf-8"))).toBeNull();
  });

  it("answers 400 to a body that is not UTF-8", async () => {
    expect(await refusal(jsonPost(new Uint8Array([0x7b, 0xff, 0x7d])))).toEqual({ status: 400, code: "invalid_json" });
  });

  it("refuses an idempotency key in the body rather than ignoring it", async () => {
    expect(await refusal(jsonPost('{"units": 5, "idempotencyKey": "abcdefgh-1"}'))).toEqual({
      status: 400,
      code: "idempotency_key_in_body",
    });
  });
});
