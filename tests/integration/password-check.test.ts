// The one throttled password check (app/auth/throttle.server `checkPasswordThrottled`), on its own:
// what each answer leaves in the throttle table. Sign-in, change password and the witness tests
// prove the rules of ADR 0011 through their callers; these prove the function keeps its promises
// to any caller (the read beside the reservation, the failure's batch, the release left to the
// caller, a missing account given back).
import { eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPasswordThrottled, type ThrottleKeys, throttleKeys } from "../../app/auth/throttle.server";
import { schema } from "../../app/db/client.server";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
import { freshDatabase, type TestDatabase } from "../support/database";

let t: TestDatabase;

beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(() => t.close());

const throttleRows = () =>
  t.db.select({ key: schema.signInThrottle.key, failures: schema.signInThrottle.failures }).from(schema.signInThrottle);
const held = () => t.db.select().from(schema.signInThrottle).where(like(schema.signInThrottle.key, "held:%"));

/** A check of `email`'s password as a sign-in makes it, writing a marker row when it is wrong. */
function check(keys: ThrottleKeys, email: string, password: string, options: { nobody?: "wrong" | "gone" } = {}) {
  const slept: number[] = [];
  const answer = checkPasswordThrottled(t.db, keys, {
    password,
    read: () => [t.db.select().from(schema.users).where(eq(schema.users.email, email))] as const,
    hashOf: ([found]) => found[0]?.passwordHash ?? null,
    onWrong: ([found]) => [
      t.db.run(sql`INSERT INTO sign_in_throttle (key, failures, window_started_at)
        VALUES (${`marker:${found[0]?.email ?? email}`}, 0, 0) ON CONFLICT (key) DO NOTHING`),
    ],
    sleep: async (ms) => slept.push(ms),
    ...options,
  });
  return { answer, slept };
}

describe("checkPasswordThrottled", () => {
  it("answers right with what was read, counts nothing, and leaves its place for the caller's release", async () => {
    const keys = throttleKeys("staff@demo.clinic", "198.51.100.1");
    const { answer } = check(keys, "staff@demo.clinic", DEMO_PASSWORD);
    const right = await answer;
    expect(right).toMatchObject({ password: "right", found: [[{ email: "staff@demo.clinic" }]] });
    expect(await held()).toHaveLength(2);
    if (right.password !== "right") return;
    await t.db.batch(right.release);
    expect(await held()).toHaveLength(0);
    expect((await throttleRows()).filter((r) => r.key.includes("198.51.100.1"))).toEqual([]);
  });

  it("counts a wrong password on every key in the batch of the caller's statements, and holds the answer back", async () => {
    const keys = throttleKeys("manager@demo.clinic", "198.51.100.2");
    for (let i = 0; i < 3; i++) {
      const { answer, slept } = check(throttleKeys("manager@demo.clinic", "198.51.100.2"), "manager@demo.clinic", "no");
      expect(await answer).toMatchObject({ password: "wrong" });
      // From the third failure on one account, each wrong answer waits a little longer.
      expect(slept).toEqual(i < 2 ? [] : [500]);
    }
    const rows = await throttleRows();
    expect(rows).toEqual(
      expect.arrayContaining([
        { key: keys.pair, failures: 3 },
        { key: keys.account, failures: 3 },
        { key: keys.client, failures: 3 },
        { key: "marker:manager@demo.clinic", failures: 0 },
      ]),
    );
    expect(await held()).toHaveLength(0);
  });

  it("checks an unknown email against nothing and counts it as wrong; a caller's missing account is given back instead", async () => {
    const unknown = throttleKeys("nobody@demo.clinic", "198.51.100.3");
    expect(await check(unknown, "nobody@demo.clinic", "guess").answer).toMatchObject({
      password: "wrong",
      found: [[]],
    });
    expect(await throttleRows()).toContainEqual({ key: unknown.account, failures: 1 });

    const gone = throttleKeys("gone@demo.clinic", "198.51.100.3");
    expect(await check(gone, "gone@demo.clinic", "guess", { nobody: "gone" }).answer).toMatchObject({
      password: "gone",
      found: [[]],
    });
    expect((await throttleRows()).filter((r) => r.key.includes("gone@demo.clinic"))).toEqual([]);
  });

  it("refuses a locked pair before checking the password, counting nothing, and still answers what was read", async () => {
    const email = "multi@demo.clinic";
    for (let i = 0; i < 5; i++) await check(throttleKeys(email, "198.51.100.4"), email, "no").answer;
    const before = await throttleRows();
    const { answer, slept } = check(throttleKeys(email, "198.51.100.4"), email, DEMO_PASSWORD);
    expect(await answer).toMatchObject({
      password: "locked",
      lockedForMs: expect.any(Number),
      found: [[{ email }]],
    });
    expect(slept).toEqual([]);
    expect(await throttleRows()).toEqual(before);
  });
});
