import { describe, expect, it } from "vitest";
import { readAgainOnline } from "~/offline/queued";
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

// The cart's screens and the shell (app/offline/queued.ts): the same rule, and a form answered on the device.
describe("what the cart's screens read again after a form", () => {
  it("reads nothing after an answer given on the device (saved, or asked offline), nor after a refusal", () => {
    expect(readAgainOnline(answered(undefined, { queued: { intent: "draw" } }))).toBe(false);
    expect(
      readAgainOnline(answered(undefined, { intent: "empty", ask: { question: "Empty this vial?" }, offline: true })),
    ).toBe(false);
    expect(readAgainOnline(answered(409, { intent: "draw", formError: "This vial was emptied." }))).toBe(false);
  });

  it("reads again after the server's answer to a form sent", () => {
    expect(readAgainOnline(answered(200, { intent: "empty", ask: { question: "Empty this vial?" } }))).toBe(true);
    expect(readAgainOnline(answered(undefined))).toBe(true);
  });
});
