// Walks every form and API schema's text fields with each kind of character a field must refuse
// (app/forms/text.ts): the class, not one example. A field passes when the value is refused at
// that field, or (a search box) the character is not kept. Only fields that take the same text
// without the character are held to it (a code of two letters refuses "AB\u0000CD" anyway).

import { describe, expect, it } from "vitest";
import type { z } from "zod";
import * as login from "~/auth/login-form";
import * as locations from "~/locations/forms";
import * as parLevels from "~/par-levels/forms";
import * as printers from "~/printers/forms";
import * as products from "~/products/forms";
import * as purchasing from "~/purchasing/forms";
import * as recalls from "~/recalls/forms";
import * as receiving from "~/receiving/forms";
import * as services from "~/services/forms";
import * as adjust from "~/stock/adjust-form";
import * as transfers from "~/transfers/forms";
import * as usage from "~/usage/query";
import * as users from "~/users/forms";
import * as vendors from "~/vendors/forms";
import * as vials from "~/vials/forms";

const MODULES = {
  login,
  locations,
  parLevels,
  printers,
  products,
  recalls,
  receiving,
  services,
  adjust,
  usage,
  users,
  vendors,
  vials,
  transfers,
  purchasing,
};

/** One of each kind: C0 and C1 controls, DEL, zero-width, bidi override and isolate, BOM, tag, separators. */
const UNSEEN = {
  NUL: "\u0000",
  ESC: "\u001b",
  DEL: "\u007f",
  C1: "\u0085",
  "zero-width space": "\u200b",
  "zero-width joiner": "\u200d",
  "right-to-left override": "\u202e",
  "left-to-right isolate": "\u2066",
  "byte order mark": "\ufeff",
  "soft hyphen": "\u00ad",
  "tag character": "\u{e0041}",
  "line separator": "\u2028",
  "private use": "\ue000",
  "lone surrogate": "\ud800",
};

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  in?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object under a schema's transforms and refinements, if it is one. */
function objectOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  const def = defOf(schema);
  if (def.type === "object") return def.shape ?? null;
  if (def.type === "pipe" && def.in) return objectOf(def.in);
  return null;
}

/** Whether a field reads text: a string under its defaults, catches, pipes and unions. */
function takesText(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (def.type === "string") return true;
  if (def.type === "pipe" && def.in) return takesText(def.in);
  if (def.innerType) return takesText(def.innerType);
  if (def.type === "union") return (def.options ?? []).some(takesText);
  return false;
}

/** Text the field would take, by its name (a password is long, an email has an @...). */
function sampleFor(field: string): [string, string] {
  if (/email/i.test(field)) return ["ab", "c@clinic.com"];
  if (/password/i.test(field)) return ["correct-horse", "-battery-staple"];
  if (/idempotencyKey/.test(field)) return ["0192f0c4-8d1e-7", "a2b-9c3d-4e5f6a7b8c9d"];
  if (/timezone/i.test(field)) return ["America/", "New_York"];
  if (/^(units|quantity)$/.test(field)) return ["1", "2"];
  if (/^code$/.test(field)) return ["TOX", "GLAB"];
  return ["AB12", "CD34"];
}

/**
 * Read by something else that refuses them: the scan box (the GS1 parser, whose group separators
 * are control characters), and the list cursors (opaque, decoded by ~/db/keyset.server).
 */
const READ_ELSEWHERE = new Set(["scan", "after", "before"]);

const textFields = Object.entries(MODULES).flatMap(([module, exports]) =>
  Object.entries(exports as Record<string, unknown>).flatMap(([name, value]) => {
    if (typeof value !== "object" || value === null || !("safeParse" in value)) return [];
    const schema = value as z.ZodType;
    const shape = objectOf(schema);
    if (!shape) return [];
    return Object.entries(shape)
      .filter(([field, fieldSchema]) => takesText(fieldSchema) && !READ_ELSEWHERE.has(field))
      .map(([field, fieldSchema]) => ({ id: `${module}.${name}.${field}`, schema: fieldSchema, field }));
  }),
);

describe("every text field refuses control and invisible characters", () => {
  it("finds the schemas' text fields", () => {
    expect(textFields.length).toBeGreaterThan(80);
    expect(textFields.map((f) => f.id)).toEqual(
      expect.arrayContaining([
        "vials.DrawForm.patientRef",
        "receiving.ReceiptLineForm.lot",
        "users.CreateUserForm.firstName",
      ]),
    );
  });

  it.each(textFields)("$id", ({ schema, field }) => {
    const [before, after] = sampleFor(field);
    // A field that refuses even the clean text (a two-letter code, a number) is not free text.
    if (!schema.safeParse(before + after).success) return;
    const kept: string[] = [];
    for (const [kind, char] of Object.entries(UNSEEN)) {
      if (/password/i.test(field) && !/\p{Cc}/u.test(char)) continue; // a password keeps what its owner typed
      const result = schema.safeParse(before + char + after);
      if (result.success && String(JSON.stringify(result.data)).includes(JSON.stringify(char).slice(1, -1)))
        kept.push(kind);
    }
    expect(kept, "characters kept").toEqual([]);
  });
});
