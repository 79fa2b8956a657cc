import { describe, expect, it } from "vitest";
import { TEXT_MESSAGES } from "~/forms/text";
import { DiscardBody, DiscardForm, DrawForm, EmptyForm, StartForm, VIAL_MESSAGES, witnessOf } from "./forms";

const messages = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message);

describe("vial forms", () => {
  it("keeps units as text, from a form's string or the API's number", () => {
    expect(DrawForm.parse({ units: "20" }).units).toBe("20");
    expect(DrawForm.parse({ units: 0.5 }).units).toBe("0.5");
    expect(DrawForm.parse({ units: " 1.50 ", provider: "", patientRef: "" })).toMatchObject({
      units: "1.50",
      provider: null,
      patientRef: null,
      serviceId: null,
      usedAt: null,
      idempotencyKey: null,
    });
  });

  it.each([[undefined], [""], ["abc"], ["-5"], [-5], ["0"], [0], ["0.00"], [1e21], ["1".repeat(30)], [Number.NaN]])(
    "refuses units %s",
    (value) => {
      expect(messages(DrawForm.safeParse({ units: value }))).toEqual([VIAL_MESSAGES.units]);
    },
  );

  it("refuses long text and an unreadable time", () => {
    const r = DrawForm.safeParse({
      units: "1",
      patientRef: "x".repeat(65),
      provider: "p".repeat(10_000),
      usedAt: "soon",
    });
    expect(new Set(messages(r))).toEqual(
      new Set([VIAL_MESSAGES.provider, VIAL_MESSAGES.patientRef, VIAL_MESSAGES.usedAt]),
    );
    expect(DrawForm.parse({ units: "1", usedAt: "2026-11-22T10:00:00Z" }).usedAt).toEqual(
      new Date("2026-11-22T10:00:00Z"),
    );
  });

  it("reads a start's time like a draw's: ISO text or a Date, empty is now, anything else refused", () => {
    expect(StartForm.parse({ startedAt: "2026-11-22T10:00:00Z" }).startedAt).toEqual(new Date("2026-11-22T10:00:00Z"));
    expect(StartForm.parse({ startedAt: "" }).startedAt).toBeNull();
    expect(StartForm.parse({}).startedAt).toBeNull();
    expect(messages(StartForm.safeParse({ startedAt: "soon" }))).toEqual([VIAL_MESSAGES.startedAt]);
    expect(messages(StartForm.safeParse({ startedAt: 12 }))).toEqual([VIAL_MESSAGES.startedAt]);
  });

  it("takes a patient reference only as a chart number: letters, digits and - _ . / #, at most 64", () => {
    expect(DrawForm.parse({ units: "1", patientRef: " MRN-0042/7.b_#3 " }).patientRef).toBe("MRN-0042/7.b_#3");
    expect(DrawForm.parse({ units: "1", patientRef: "C".repeat(64) }).patientRef).toBe("C".repeat(64));
    expect(messages(DrawForm.safeParse({ units: "1", patientRef: "Jane Doe" }))).toEqual([
      VIAL_MESSAGES.patientRefName,
    ]);
    expect(VIAL_MESSAGES.patientRefName).toContain("Use the chart number, not a name");
    expect(messages(DrawForm.safeParse({ units: "1", patientRef: "C".repeat(65) }))).toEqual([
      VIAL_MESSAGES.patientRef,
    ]);
    for (const ref of ["MRN:42", "Zoë", "42😀", "a,b", "<b>"]) {
      expect(messages(DrawForm.safeParse({ units: "1", patientRef: ref })), ref).toEqual([
        VIAL_MESSAGES.patientRefCharacters,
      ]);
    }
    expect(messages(DrawForm.safeParse({ units: "1", patientRef: "MRN\u000042" }))).toEqual([
      TEXT_MESSAGES.unseen("\u0000"),
    ]);
  });

  it("keeps a discard note's newlines and tabs, and refuses a NUL in it", () => {
    expect(DiscardForm.parse({ reason: "damaged", note: "Dropped.\r\n\tCap cracked." }).note).toBe(
      "Dropped.\n\tCap cracked.",
    );
    expect(messages(DiscardForm.safeParse({ reason: "damaged", note: "Dropped\u0000" }))).toEqual([
      TEXT_MESSAGES.unseen("\u0000"),
    ]);
  });

  it('needs a note for "other", a known reason, and both witness fields or neither', () => {
    expect(messages(DiscardForm.safeParse({ reason: "other", note: " " }))).toEqual([VIAL_MESSAGES.noteRequired]);
    expect(messages(DiscardForm.safeParse({ reason: "" }))).toEqual([VIAL_MESSAGES.reason]);
    expect(messages(DiscardForm.safeParse({ reason: "beyond_use_deadline" }))).toEqual([VIAL_MESSAGES.reason]);
    expect(messages(DiscardForm.safeParse({ reason: "damaged", note: "n".repeat(501) }))).toEqual([VIAL_MESSAGES.note]);
    expect(messages(EmptyForm.safeParse({ witnessEmail: "a@b.c", witnessPassword: "" }))).toEqual([
      VIAL_MESSAGES.witnessPair,
    ]);
    const form = DiscardForm.parse({
      reason: "other",
      note: "dropped",
      witnessEmail: "a@b.c",
      witnessPassword: " pw ",
    });
    expect(witnessOf(form)).toEqual({ email: "a@b.c", password: " pw " });
    expect(witnessOf(EmptyForm.parse({}))).toBeNull();
    expect(DiscardBody.parse({ reason: "expired", witness: { email: "a@b.c", password: "x" } })).toEqual({
      reason: "expired",
      note: null,
      witness: { email: "a@b.c", password: "x" },
    });
    expect(messages(DiscardBody.safeParse({ reason: "other" }))).toEqual([VIAL_MESSAGES.noteRequired]);
  });
});
