// Every /api/* endpoint given an empty or invalid body answers in the API's one error shape with a
// 4xx, never a 500, whoever asks.
import { beforeAll, describe, expect, it } from "vitest";
import { API_POSTS, type Sessions, signInDemoUsers } from "./permission-routes";
import { app, BASE } from "./support";

let sessions: Sessions = new Map();

beforeAll(async () => {
  ({ sessions } = await signInDemoUsers());
});

describe("every /api/* POST with a body it cannot take", () => {
  // Every endpoint × 3 bodies, for each of four callers: over 100 requests a caller, eight at a time
  // (none of them writes anything). Alone the four take seconds; beside the other test files on a
  // loaded 2-core machine all four in one test once took over three minutes, so each caller is a
  // test of its own.
  const CALLERS = [
    ["signed out", ""],
    ["an organization admin", "owner@demo.clinic"],
    ["a location's staff", "staff@demo.clinic"],
    ["someone with no location", "newhire@demo.clinic"],
  ] as const;
  for (const [who, email] of CALLERS) {
    it(`answers every /api/* POST with an empty or invalid body without a server error, ${who}`, {
      timeout: 180_000,
    }, async () => {
      const cases = API_POSTS.flatMap((path) => ["", "{not json", "{}"].map((body) => ({ path, body })));
      const check = async ({ path, body }: (typeof cases)[number]) => {
        const { cookie } = sessions.get(email) ?? { cookie: "" };
        const response = await app().fetch(`${BASE}${path}`, {
          method: "POST",
          body,
          headers: { Cookie: cookie, Origin: BASE, Host: new URL(BASE).host, "Content-Type": "application/json" },
          redirect: "manual",
        });
        expect({ path, body, status: response.status }).toEqual({
          path,
          body,
          status: path === "/api/auth/login" ? 400 : expect.any(Number),
        });
        expect(response.status, `${email} POST ${path} ${body}`).toBeLessThan(500);
        expect(response.status, `${email} POST ${path}`).not.toBe(200);
        // In the API's one error shape, whoever asks and whatever the route.
        expect(await response.json(), `${email} POST ${path} ${body}`).toMatchObject({
          error: expect.any(String),
          code: expect.any(String),
        });
      };
      for (let at = 0; at < cases.length; at += 8) await Promise.all(cases.slice(at, at + 8).map(check));
    });
  }
});
