// Lifting a lot recall (organization admins only): recorded on the recall's row (who, when, why),
// which the table's trigger lets change only this way and only once; the lot's vials are free again
// at every location at once. Marking is the safe direction and any WRITE_PRODUCTS holder may do it;
// lifting releases vials at locations the lifter may not even see, so it is the organization's.
import { sql } from "drizzle-orm";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { type Access, isOrganizationAdmin } from "~/access/permissions";
import { changeWithActivity } from "~/activity/change.server";
import type { Database } from "~/db/client.server";
import { organizationOf, raisedBy } from "~/db/sql.server";
import { LiftForm, type LiftInput } from "./forms";
import { type Outcome, refuse } from "./outcome";
import { type Recall, recallOf, recallRows } from "./recall.server";

/** Who may lift a recall: an organization admin (the screen offers the form to them alone). */
export function canLiftRecall(actor: Access): boolean {
  return isOrganizationAdmin(actor);
}

export async function liftRecall(
  db: Database,
  actor: ScopedActor,
  input: LiftInput,
  options: { now?: Date } = {},
): Promise<Outcome<{ recall: Recall }>> {
  if (!canLiftRecall(actor)) return refuse("forbidden");
  const parsed = LiftForm.safeParse(input);
  if (!parsed.success) return refuse("invalid", parsed.error.issues[0]?.message);
  const { recallId, note } = parsed.data;
  const mine = sql`r.id = ${recallId} AND r.organization_id = ${organizationOf(actor)}`;
  const guard = sql`${mine} AND r.lifted_at IS NULL`;
  const now = (options.now ?? new Date()).getTime();
  try {
    const { updated, current } = await changeWithActivity(db, {
      from: sql`lot_recalls AS r JOIN product_variations AS v ON v.id = r.variation_id
        JOIN products AS p ON p.id = v.product_id`,
      guard,
      activity: {
        userId: actor.id,
        locationId: activityLocation(actor),
        action: "lift_recall",
        entity: "lot_recall",
        entityId: recallId,
        summary: sql`json_object('variationId', v.id, 'product', p.name, 'variation', v.name, 'lot', r.lot,
          'note', ${note})`,
      },
      update: db.all<{ id: string }>(sql`UPDATE lot_recalls AS r SET lifted_at = ${now}, lifted_by = ${actor.id},
          lift_note = ${note} WHERE ${guard} RETURNING id`),
      readBack: recallRows(db, mine, 1),
    });
    const row = current[0];
    if (!row) return refuse("not_found");
    if (updated.length !== 1) return refuse("already_lifted");
    return { ok: true, recall: recallOf(row) };
  } catch (error) {
    // The trigger's last word when two lifts race: the other one got there first.
    if (raisedBy(error, /only ever lifted, once/)) return refuse("already_lifted");
    throw error;
  }
}
