import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import type { Vial } from "~/stock/vials.server";
import { vialVerb } from "./verb.server";

const db = {} as Database;
const actor = {} as ScopedActor;
const Units = z.object({ units: z.string().trim().min(1, "Enter the units.") });

/** A verb that answers what its body was given. */
function echo() {
  const given: unknown[] = [];
  const verb = vialVerb(Units, async (_db, _actor, input) => {
    given.push(input);
    return { ok: true as const, vial: {} as Vial };
  });
  return { verb, given };
}

describe("a vial verb's one parse", () => {
  it("parses what a program sends with the verb's schema, and hands the body the parsed fields with the address", async () => {
    const { verb, given } = echo();
    await verb(db, actor, { itemId: "item-1", units: " 20 ", idempotencyKey: "key-00001" });
    expect(given).toEqual([{ itemId: "item-1", units: "20", idempotencyKey: "key-00001" }]);
  });

  it("refuses input the schema refuses as invalid with its first message, without calling the body", async () => {
    const { verb, given } = echo();
    expect(await verb(db, actor, { itemId: "item-1", units: " " })).toEqual({
      ok: false,
      refusal: "invalid",
      message: "Enter the units.",
    });
    expect(given).toEqual([]);
  });

  it("gives the glues the schema to parse with, and the body to call on what they parsed, untouched", async () => {
    const { verb, given } = echo();
    expect(verb.schema).toBe(Units);
    await verb.parsed(db, actor, { itemId: "item-1", units: " as parsed " });
    expect(given).toEqual([{ itemId: "item-1", units: " as parsed " }]);
  });
});
