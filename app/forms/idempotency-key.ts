// What forms and refusals say about idempotency keys (no server code, so any module may use them);
// the keys themselves are kept by ./idempotency.server.

/** What a client may send as a key: a UUID or any similar token. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

export const IDEMPOTENCY_MESSAGES = {
  misused: "This form was already sent for something else. Reload the page and try again.",
  invalid: "This form's key is not valid. Reload the page and try again.",
} as const;
