// One shape for every JSON error the API answers: {"error": "<what is wrong and how to fix it>",
// "code": "<stable, machine-readable>"}. A domain refusal's code is its refusal name
// (e.g. "not_enough_units"); other errors take the code of their status.
const CODE_OF_STATUS: Record<number, string> = {
  400: "invalid_request",
  401: "not_signed_in",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "too_large",
  415: "unsupported_media_type",
  422: "unprocessable",
  429: "too_many_requests",
  503: "database_unavailable",
};

export function jsonError(status: number, message: string, headers?: HeadersInit, code?: string): Response {
  return Response.json({ error: message, code: code ?? CODE_OF_STATUS[status] ?? "error" }, { status, headers });
}

/** Answers about one person's data: never kept by shared caches, nor reused by the browser. */
export const API_HEADERS = { "Cache-Control": "private, no-store" };
