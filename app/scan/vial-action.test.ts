import { describe, expect, it } from "vitest";
import { REFRESH_AFTER } from "~/browser/query-client";
import { IDEMPOTENCY_KEY_PATTERN } from "~/forms/idempotency-key";
import { newAttemptKey, REFRESH_OF } from "./vial-action";

describe("a vial action from the scan screen", () => {
  it("sends a fresh key the API accepts each time the person presses the button", () => {
    const keys = Array.from({ length: 50 }, newAttemptKey);
    for (const key of keys) expect(key).toMatch(IDEMPOTENCY_KEY_PATTERN);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("refreshes the spec's set of each action (section 7); a draw, which may start the vial, a start's", () => {
    expect(REFRESH_OF).toEqual({
      start: "start_vial",
      draw: "start_vial",
      empty: "empty_vial",
      discard: "discard_vial",
    });
    expect(REFRESH_AFTER[REFRESH_OF.empty].map((key) => key[0])).toEqual([
      "/api/vials",
      "/api/dashboard/stats",
      "/api/dashboard/par-status",
      "/api/dashboard/recent-activity",
    ]);
  });
});
