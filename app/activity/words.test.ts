import { describe, expect, it } from "vitest";
import { ACTIVITY_ACTIONS, currentAction, LEGACY_ACTIONS, storedNames } from "./actions";
import { actionChoices, actionLabel, describeActivity } from "./words";

const row = (action: string, summary: Record<string, unknown> | null = null, entityId: string | null = "id-1") => ({
  action,
  entity: "x",
  entityId,
  summary,
  locationId: null,
});

describe("activity words", () => {
  it("gives every action words of its own, never its code", () => {
    const labels = new Set<string>();
    for (const action of ACTIVITY_ACTIONS) {
      const label = actionLabel(action);
      expect(label, action).not.toMatch(/_/);
      expect(label).not.toBe(action);
      labels.add(label);
      const { text } = describeActivity(row(action, {}));
      expect(text, action).not.toContain("_");
      expect(text.length).toBeGreaterThan(3);
    }
    // Two actions with the same words could not be told apart in the filter.
    expect(labels.size).toBe(ACTIVITY_ACTIONS.length);
    expect(
      actionChoices()
        .map((c) => c.value)
        .sort(),
    ).toEqual([...ACTIVITY_ACTIONS].sort());
  });

  it("reads every old name as today's: the same words and the same link", () => {
    const summary = { name: "Allergan", code: "DT", email: "a@b.c", product: "Botox", variation: "100U", lot: "A1" };
    for (const [old, now] of Object.entries(LEGACY_ACTIONS)) {
      expect(currentAction(old)).toBe(now);
      expect(describeActivity(row(old, summary))).toEqual(describeActivity(row(now, summary)));
      expect(storedNames(now)).toEqual([now, old]);
    }
    expect(describeActivity(row("vendor_archive", { name: "Allergan" }))).toEqual({
      text: "Archived vendor Allergan",
      href: "/vendors/id-1",
    });
  });

  it("keeps today's names in verb_object, apart from the spec's two", () => {
    const nouns = ["user", "role", "password", "location", "product", "variation", "barcode", "par", "service"];
    for (const action of ACTIVITY_ACTIONS) {
      if (action === "audit_complete" || action === "transfer_complete") continue;
      expect(
        nouns.some((noun) => action.startsWith(`${noun}_`)),
        action,
      ).toBe(false);
      expect(Object.hasOwn(LEGACY_ACTIONS, action), action).toBe(false);
    }
  });

  it("says what was flagged at the cart and how it was resolved, linking to Flagged Records", () => {
    const summary = { summary: "Draw 10 U from Botox Cosmetic 100 U vial", code: "not_in_use" };
    expect(describeActivity(row("flag_offline_command", summary))).toEqual({
      text: "Flagged a record made offline: Draw 10 U from Botox Cosmetic 100 U vial",
      href: "/flagged",
    });
    expect(describeActivity(row("resolve_offline_flag", { ...summary, note: "Emptied on the ward" }))).toEqual({
      text: "Resolved a flagged record: Draw 10 U from Botox Cosmetic 100 U vial (Emptied on the ward)",
      href: "/flagged",
    });
    expect(describeActivity(row("resolve_offline_flag", {})).text).toBe("Resolved a flagged record");
  });

  it("says what a vial, a product edit and a receipt did, and links to them", () => {
    expect(
      describeActivity({
        action: "start_vial",
        entity: "item",
        entityId: "item-9",
        locationId: "loc",
        summary: { labelCode: "BTX-100U", product: "Botox", variation: "100U", lot: "A123", startedAt: 1 },
      }),
    ).toEqual({ text: "Started vial BTX-100U Botox 100U lot A123", href: "/inventory/item-9" });
    expect(
      describeActivity(
        row("update_product", {
          name: "Botox",
          before: { priceCents: 100, par: 1 },
          after: { priceCents: 200, par: 2 },
        }),
      ),
    ).toEqual({ text: "Changed product Botox: price, par", href: "/products/id-1" });
    expect(
      describeActivity(
        row("receive_vials", {
          items: 10,
          vendor: "Allergan",
          reference: "INV-1",
          received: [{ product: "Botox", variation: "100U", lot: "A1" }],
        }),
      ),
    ).toEqual({
      text: "Received 10 vials of Botox 100U lot A1 from Allergan (INV-1)",
      href: "/receiving/id-1/add-products",
    });
    expect(describeActivity(row("discard_vial", { labelCode: "L1", reason: "beyond_use_deadline" })).text).toBe(
      "Discarded vial L1 (past its beyond-use deadline)",
    );
  });

  it("links a variation's rows to its product, a recall to its lot's report and backups to their screen", () => {
    expect(
      describeActivity(row("barcode_add", { productId: "p1", product: "Botox", variation: "100U", code: "123" })),
    ).toEqual({
      text: "Added barcode 123 to Botox 100U",
      href: "/products/p1",
    });
    expect(
      describeActivity(row("recall_lot", { variationId: "v1", lot: "A 1", product: "Botox", variation: "100U" })),
    ).toEqual({
      text: "Recalled lot A 1 of Botox 100U",
      href: "/recalls/report?variationId=v1&lot=A+1",
    });
    expect(describeActivity(row("grant_role", { email: "a@b.c", location: "DT", after: "MANAGER" })).text).toBe(
      "Gave a@b.c the manager role at DT",
    );
    for (const action of [
      "request_backup",
      "create_backup",
      "request_restore",
      "upload_backup",
      "restore_backup",
      "delete_backup",
      "rehearse_backup",
    ] as const) {
      expect(describeActivity(row(action)).href).toBe("/backup-restore");
    }
  });

  it("tells a sales file queued by a person from the same file imported by the worker", () => {
    expect(describeActivity(row("import_sales", { fileName: "nov.csv", rows: 61, queued: 1 }))).toEqual({
      text: "Queued sales nov.csv for import (61 rows)",
      href: "/sales-import",
    });
    expect(describeActivity(row("import_sales", { fileName: "nov.csv", lines: 48 }))).toEqual({
      text: "Imported sales nov.csv (48 lines)",
      href: "/sales-import",
    });
  });

  it("gives no link where there is nothing to open, and reads an unknown action as words", () => {
    expect(describeActivity(row("sign_in", null, "session-1"))).toEqual({ text: "Signed in", href: null });
    expect(describeActivity(row("sign_in_failed", { email: "x@y.z" }, null))).toEqual({
      text: "Failed sign-in as x@y.z",
      href: null,
    });
    expect(describeActivity(row("count_fridge"))).toEqual({ text: "count fridge", href: null });
  });
});

describe("stock adjustment words", () => {
  it("says the change in the product's unit, at its scale, with the reason", () => {
    expect(
      describeActivity(
        row("stock_adjust", {
          product: "Filler",
          variation: "1 mL",
          quantity: -150,
          unitScale: 100,
          baseUnit: "mL",
          reason: "damaged",
          location: "Downtown",
        }),
      ).text,
    ).toBe("Adjusted stock of Filler 1 mL by -1.5 mL (damaged) at Downtown");
    expect(
      describeActivity(row("adjust_stock", { product: "Gauze", quantity: 20, unitScale: 1, baseUnit: "each" })).text,
    ).toBe("Adjusted stock of Gauze by +20 each");
  });
});
