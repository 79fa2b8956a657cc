import { afterEach, describe, expect, it, vi } from "vitest";
import { LINE_MESSAGES } from "~/receiving/constants";
import { ReceiptLineForm } from "~/receiving/forms";
import { DrawForm, VIAL_MESSAGES } from "~/vials/forms";
import { problemsBeforeSend } from "./check-before-send";
import { z } from "./zod";

const KEY = "0f8c4a52-6f3e-4c55-9d43-0c1a8a4e6b21";
const draw = (units: string) => ({
  intent: "draw",
  idempotencyKey: KEY,
  units,
  serviceId: "",
  provider: "",
  patientRef: "",
});
const line = (quantity: string) => ({
  intent: "add-line",
  idempotencyKey: KEY,
  variationId: "v1",
  quantity,
  lot: "A1",
  expirationDate: "2028-06-30",
  unitCost: "",
  serial: "",
});
const DRAW_FIELDS = new Set(["units", "serviceId", "provider", "patientRef"]);
const LINE_FIELDS = new Set(["variationId", "quantity", "lot", "expirationDate", "unitCost", "serial"]);

/** `new Function` as zod's compiled parsers call it: counted, and refused as the page's CSP refuses it. */
function refuseFunction() {
  const calls: unknown[][] = [];
  class RefusedFunction {
    constructor(...args: unknown[]) {
      calls.push(args);
      throw new EvalError("Refused to evaluate a string as JavaScript (Content-Security-Policy)");
    }
  }
  vi.stubGlobal("Function", RefusedFunction);
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the browser's zod (~/forms/zod)", () => {
  it("is configured jitless before any schema is built", () => {
    expect(z.config().jitless).toBe(true);
  });

  it("parses the draw and receipt line schemas without ever calling Function", () => {
    const calls = refuseFunction();
    // Twice each: zod 4 would compile an object's parser on a first parse and reuse it after.
    for (let i = 0; i < 2; i++) {
      expect(DrawForm.safeParse(draw("20")).success).toBe(true);
      expect(DrawForm.safeParse(draw("0")).success).toBe(false);
      expect(ReceiptLineForm.safeParse(line("3")).success).toBe(true);
      expect(ReceiptLineForm.safeParse(line("0")).success).toBe(false);
    }
    expect(calls).toEqual([]);
  });

  it("would call Function for a schema built with the JIT on (what the test above would catch)", () => {
    z.config({ jitless: false });
    try {
      const schema = z.object({ units: z.string() });
      const calls = refuseFunction();
      // A refused compile is thrown out of the parse: the page's CSP would have reported it.
      expect(() => schema.safeParse({ units: "20" })).toThrow(EvalError);
      expect(calls.length).toBeGreaterThan(0);
    } finally {
      z.config({ jitless: true });
    }
  });
});

describe("problemsBeforeSend", () => {
  it("tells a wrong draw amount under the units with the server's message", () => {
    expect(problemsBeforeSend(DrawForm, draw("0"), DRAW_FIELDS)).toEqual({ units: VIAL_MESSAGES.units });
    expect(problemsBeforeSend(DrawForm, draw("abc"), DRAW_FIELDS)).toEqual({ units: VIAL_MESSAGES.units });
  });

  it("tells a wrong line quantity, and a serial on more than one package, under their fields", () => {
    expect(problemsBeforeSend(ReceiptLineForm, line("0"), LINE_FIELDS)).toEqual({ quantity: LINE_MESSAGES.quantity });
    expect(problemsBeforeSend(ReceiptLineForm, { ...line("2"), serial: "S1" }, LINE_FIELDS)).toEqual({
      serial: LINE_MESSAGES.serialOne,
    });
  });

  it("lets a form that passes go", () => {
    expect(problemsBeforeSend(DrawForm, draw("0.5"), DRAW_FIELDS)).toBeNull();
    expect(problemsBeforeSend(ReceiptLineForm, line("1000"), LINE_FIELDS)).toBeNull();
  });

  it("lets a problem in a hidden field go to the server, which answers it its own way", () => {
    const badKey = { ...draw("0"), idempotencyKey: "not a key" };
    expect(problemsBeforeSend(DrawForm, badKey, DRAW_FIELDS)).toBeNull();
  });
});
