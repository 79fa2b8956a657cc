import { describe, expect, it } from "vitest";
import { readAgain, revalidateAfterConflict } from "./revalidate";

// What Remix hands a route's shouldRevalidate after a form under single fetch: always true by default.
const answered = (actionStatus: number | undefined, actionResult?: unknown) =>
  ({
    currentUrl: new URL("http://clinic.test/audit?q=gauze"),
    nextUrl: new URL("http://clinic.test/audit?q=gauze"),
    currentParams: {},
    nextParams: {},
    formMethod: "POST",
    actionStatus,
    actionResult,
    defaultShouldRevalidate: true,
  }) as Parameters<typeof readAgain>[0];

describe("what a page reads again after a form", () => {
  it("reads again after a success, or a question asked by the server", () => {
    expect(readAgain(answered(200, { intent: "submit", ask: "Submit this count?" }))).toBe(true);
    expect(readAgain(answered(undefined))).toBe(true);
  });

  it("reads nothing after a refusal, whatever default Remix passes", () => {
    for (const status of [400, 403, 409, 422, 500, 503]) {
      expect(readAgain(answered(status, { fieldErrors: { quantity: "Enter the quantity counted" } }))).toBe(false);
    }
  });

  it("reads a record changed meanwhile again, and nothing after its other refusals", () => {
    expect(revalidateAfterConflict(answered(409, { conflict: true, values: null }))).toBe(true);
    expect(revalidateAfterConflict(answered(409, { conflict: false, values: { name: "Acme" } }))).toBe(false);
    expect(revalidateAfterConflict(answered(200))).toBe(true);
  });
});
