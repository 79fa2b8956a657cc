import { sql } from "drizzle-orm";
import { check, index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { productVariations } from "../catalog/product-variations";
import { id, instant } from "../columns";
import { organizations } from "../organization/organizations";

/**
 * A lot of a variation recalled by its manufacturer (domain.md "Stock"). While it is not lifted,
 * every vial of that lot, at every location, is quarantined: no start, no draw (the vial verbs'
 * SQL guards read this table). Lifting is recorded on the row, which is otherwise never edited.
 */
export const lotRecalls = sqliteTable(
  "lot_recalls",
  {
    id: id(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    variationId: text("variation_id")
      .notNull()
      .references(() => productVariations.id),
    lot: text("lot").notNull(),
    note: text("note").notNull(),
    /** Who marked it; no foreign key, like activity_log. */
    recalledBy: text("recalled_by"),
    recalledAt: instant("recalled_at")
      .notNull()
      .$defaultFn(() => new Date()),
    liftedBy: text("lifted_by"),
    liftedAt: instant("lifted_at"),
    liftNote: text("lift_note"),
  },
  (t) => [
    check("lot_recalls_note", sql`length(${t.note}) BETWEEN 1 AND 1000`),
    check("lot_recalls_lifted", sql`(${t.liftedAt} IS NULL) = (${t.liftedBy} IS NULL)`),
    // At most one recall of a lot in force; also serves the quarantine check (is this lot recalled?).
    uniqueIndex("lot_recalls_in_force_unique").on(t.variationId, t.lot).where(sql`${t.liftedAt} IS NULL`),
    // Serves the recall list of an organization, newest first.
    index("lot_recalls_org_at_idx").on(t.organizationId, t.recalledAt),
  ],
);
