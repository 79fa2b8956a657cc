// The one glue between a JSON write route (POST /api/...) and a domain verb, as outcome.server.ts
// is for forms (architecture.md "JSON API conventions"): the body read as JSON within a size limit
// and parsed by the verb's own zod schema, the Idempotency-Key header, and the verb's Outcome
// answered as JSON, or as the one error shape {error, code} with the refusal's name as its code.
// Every problem with the request is a 4xx that says what to fix; none reaches the 500 handler.
import type { z } from "zod";
import { IDEMPOTENCY_KEY_PATTERN } from "~/forms/idempotency-key";
import { FORBIDDEN, type Outcome } from "~/outcome";
import { isJsonMediaType, readBounded } from "./body.server";
import { API_HEADERS, jsonError } from "./json.server";

/** Bodies above this are refused (413), read no further than one chunk past it: no write of this API needs more. */
export const API_BODY_MAX_BYTES = 64 * 1024;

export const IDEMPOTENCY_HEADER = "Idempotency-Key";

export const API_MESSAGES = {
  method: "Use POST for this endpoint.",
  readOnly: "This endpoint only reads: use GET.",
  contentType: "Send the body as JSON with Content-Type: application/json (a charset, if any, utf-8).",
  tooLarge: `The body is too large: send at most ${API_BODY_MAX_BYTES / 1024} KiB of JSON.`,
  notJson: 'The body is not valid JSON in UTF-8. Send a JSON object, e.g. {"units": 20}.',
  notObject: 'Send the body as a JSON object, e.g. {"units": 20}.',
  keyInBody: `Send the idempotency key in the ${IDEMPOTENCY_HEADER} header, not in the body: a key in the body is not used.`,
  keyReused: `This ${IDEMPOTENCY_HEADER} was already used for a different request. Send a fresh key for a new write, and the same key only to retry the same request.`,
  key: `The ${IDEMPOTENCY_HEADER} header must be 8 to 100 letters, digits, '-' or '_' (a UUID works). Send a fresh one per write and the same one when retrying it.`,
} as const;

/**
 * The request's JSON body as an object, or a thrown JSON error: 405 not a POST, 415 not exactly
 * application/json, 413 over API_BODY_MAX_BYTES (counted as it streams), 400 not a JSON object
 * in UTF-8. An empty body is {}.
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  if (request.method !== "POST") throw jsonError(405, API_MESSAGES.method, { ...API_HEADERS, Allow: "POST" });
  if (!isJsonMediaType(request.headers.get("Content-Type"))) {
    throw jsonError(415, API_MESSAGES.contentType, API_HEADERS);
  }
  const bytes = await readBounded(request, API_BODY_MAX_BYTES);
  if (bytes === null) throw jsonError(413, API_MESSAGES.tooLarge, API_HEADERS);
  let body: unknown;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    body = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw jsonError(400, API_MESSAGES.notJson, API_HEADERS, "invalid_json");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw jsonError(400, API_MESSAGES.notObject, API_HEADERS, "invalid_json");
  }
  return body as Record<string, unknown>;
}

/**
 * A write's JSON body parsed by `schema`, or a thrown JSON error: those of readJsonObject, 400 when
 * the body carries an `idempotencyKey` (the key travels in the header; one in the body is refused
 * rather than silently ignored), 422 with the schema's messages (and `fields`, each field's first
 * message) when it does not parse.
 */
export async function readJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const body = await readJsonObject(request);
  if (Object.hasOwn(body, "idempotencyKey")) {
    throw jsonError(400, API_MESSAGES.keyInBody, API_HEADERS, "idempotency_key_in_body");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalidInput(parsed.error);
  return parsed.data;
}

/** 422 with each field's first message under `fields` and all of them, in order, as `error`. */
export function invalidInput(error: z.ZodError): Response {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[issue.path.map(String).join(".") || "body"] ??= issue.message;
  const message = [...new Set(Object.values(fields))].join(" ");
  return Response.json({ error: message, code: "invalid_input", fields }, { status: 422, headers: API_HEADERS });
}

/** The request's Idempotency-Key header (null when absent), or a thrown 400 when it is malformed. */
export function idempotencyKeyOf(request: Request): string | null {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null || key === "") return null;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key))
    throw jsonError(400, API_MESSAGES.key, API_HEADERS, "invalid_idempotency_key");
  return key;
}

export interface AnswerOptions<R extends string> {
  /** The status of each refusal; "forbidden" is 403, "not_found" 404, "invalid" 422, any other 409. */
  statuses?: Partial<Record<R, number>>;
  /** The status of a success: 200, 201 for a verb that creates a resource, 202 for work a job finishes later. */
  status?: 200 | 201 | 202;
}

/**
 * A verb's Outcome as JSON: the answer without `ok`, or {error, code: refusal} with its status. A
 * key sent again with another request (`key_misused`) is 422 `idempotency_key_reused`, as Stripe
 * answers it, whatever the verb.
 */
export function answerOutcome<T extends object, R extends string>(
  outcome: Outcome<T, R>,
  options: AnswerOptions<R> = {},
): Response {
  if (!outcome.ok) {
    const { refusal, message } = outcome;
    if (refusal === "key_misused") {
      return jsonError(422, API_MESSAGES.keyReused, API_HEADERS, "idempotency_key_reused");
    }
    const status =
      options.statuses?.[refusal] ??
      (refusal === "forbidden" ? 403 : refusal === "not_found" ? 404 : refusal === "invalid" ? 422 : 409);
    return jsonError(status, refusal === "forbidden" ? FORBIDDEN : message, API_HEADERS, refusal);
  }
  const { ok: _ok, ...answer } = outcome;
  return Response.json(answer, { status: options.status ?? 200, headers: API_HEADERS });
}

/** A GET of a write path: 405 in the one error shape, naming the method to use. */
export function postOnly(): Response {
  return jsonError(405, API_MESSAGES.method, { ...API_HEADERS, Allow: "POST" });
}

/**
 * A write to a read path: 405 in the one error shape, naming the method to use (the framework's
 * own answer is plain text). Read routes export it as their `action`.
 */
export function getOnly(): Response {
  return jsonError(405, API_MESSAGES.readOnly, { ...API_HEADERS, Allow: "GET" });
}
