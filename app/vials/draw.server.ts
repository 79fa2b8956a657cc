// Drawing units from a vial for a treatment: a usage entry and its USE movement, in the product's
// unit converted exactly to base units (parseScaled, never floats). Drawing from a sealed vial
// starts it in the same batch, at the time the draw names, with the same deadline rule as a start;
// the answer says so (`started`). A draw's time lies within the vial's life (`drawWindow`). The
// guard in SQL checks the units left (`units_remaining >= units`), so draws that together exceed
// the vial lose the race one by one and can never drive it below zero (./change.server).
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { logActivityWhere } from "~/activity/log.server";
import { parseScaled, type UnitScale } from "~/catalog/format";
import { organizationOf } from "~/db/sql.server";
import { expirationEndOfDay } from "~/stock/expiry";
import type { UsageEntry } from "~/stock/usage-entry";
import { type Vial, vialOf, vialQuery } from "~/stock/vials.server";
import { showInstant } from "~/ui/dates";
import { type Changed, changeVial, itemRow, notRecalled, vialKey, writeReach } from "./change.server";
import { DrawForm, USED_AT_BACK_DAYS, USED_AT_SKEW_MS, VIAL_MESSAGES } from "./forms";
import { refuse } from "./outcome";
import { deadlineWhenStarted, drawRefusal, unitsText } from "./rules";
import { openVial } from "./start.server";
import { vialVerb } from "./verb.server";

const DAY_MS = 24 * 60 * 60 * 1000;
const DECIMALS: Record<UnitScale, number> = { 1: 0, 10: 1, 100: 2, 1000: 3 };

/** A draw's answer beside the vial: its usage entry, and whether it started the vial. */
export interface Drawn {
  usage: UsageEntry;
  started: DrawStarted | null;
}

/**
 * Called with `{ itemId, units, serviceId?, provider?, patientRef?, usedAt?, idempotencyKey? }`:
 * units in the product's unit, as typed ("20", "0.5") or sent (20, 0.5); usedAt now when not given.
 */
export const drawUnits = vialVerb(DrawForm, async (db, actor, input, options = {}): Promise<Changed<Drawn>> => {
  const reach = writeReach(actor);
  if (typeof reach !== "function") return reach;
  const now = options.now ?? new Date();
  if (!input.itemId || input.itemId.length > 100) return refuse("not_found");
  const activeService = (id: string | null) =>
    sql`(${id} IS NULL OR EXISTS (SELECT 1 FROM services AS s WHERE s.id = ${id} AND s.active = 1
      AND s.organization_id = ${organizationOf(actor)}))`;
  const [rows, services] = await db.batch([
    vialQuery(db, input.itemId, reach),
    db.all<{ name: string }>(sql`SELECT name FROM services AS s WHERE s.id = ${input.serviceId}
      AND ${activeService(input.serviceId)}`),
  ]);
  const row = rows[0];
  if (!row) return refuse("not_found");
  const vial = vialOf(row, now);
  const units = parseScaled(input.units, vial.unitScale);
  if (units === null || units <= 0) {
    return refuse("invalid", VIAL_MESSAGES.unitsScale(DECIMALS[vial.unitScale], vial.baseUnit));
  }
  if (input.serviceId && !services[0]) return refuse("invalid", VIAL_MESSAGES.service);
  // When it was used: as named, else now (never before the vial's start).
  const usedAt = input.usedAt ?? new Date(Math.max(now.getTime(), vial.startedAt?.getTime() ?? 0));
  const window = drawWindow(vial, now);
  if (input.usedAt && window && !within(usedAt, window)) {
    const shown = (at: Date) => showInstant(at, vial.location.timeZone, now)?.title ?? at.toISOString();
    return refuse("invalid", VIAL_MESSAGES.usedAtWindow(shown(window.from), shown(window.to)));
  }
  // No window (the vial is past it all): only what no draw may ever be dated at is refused here.
  if (input.usedAt && !window && !within(usedAt, outerWindow(now))) return refuse("invalid", VIAL_MESSAGES.usedAt);

  // The key is bound to the draw's fields as parsed; the vial is in its purpose.
  const { itemId: _itemId, ...fields } = input;
  const key = await vialKey(actor, "draw", vial.id, input.idempotencyKey, fields);
  // The rules at the moment of the draw: the vial open (or openable) then, and not recalled now.
  const why = (v: typeof vial) => drawRefusal(v, units, usedAt);
  // With a key, a refusal may be the repeat of a draw that happened: the batch finds its answer.
  const refused = why(vial);
  if (refused && !key) return refused;

  const usage: UsageEntry = {
    id: uuidv7(),
    itemId: vial.id,
    units,
    unitsText: unitsText(vial, units),
    serviceId: input.serviceId,
    serviceName: services[0]?.name ?? null,
    provider: input.provider,
    patientRef: input.patientRef,
    usedAt,
    userId: actor.id,
  };
  const at = usedAt.getTime();
  // A draw from a sealed vial starts it when the units were used: its deadline counts from then.
  const deadline = deadlineWhenStarted(vial, usedAt) ?? usedAt;
  const opened = openVial(deadline, usedAt);
  const started: DrawStarted | null = vial.state === "sealed" ? { startedAt: usedAt, expiresAt: deadline } : null;
  const drawn = await changeVial(
    db,
    actor,
    { vial, reach, key, now, answer: { usage, started } },
    {
      action: "draw_units",
      guard: sql`i.state IN ('sealed', 'in_use') AND i.units_remaining >= ${units} AND ${notRecalled}
        AND CASE i.state WHEN 'in_use' THEN i.started_at <= ${at} AND i.expires_at > ${at}
          ELSE ${deadline.getTime()} > ${at} END
        AND ${activeService(input.serviceId)}`,
      set: sql`units_remaining = units_remaining - ${units}, ${opened.set}`,
      summary: sql`json_object('usageId', ${usage.id}, 'units', ${units}, 'unitsText', ${usage.unitsText},
        'service', ${usage.serviceName}, 'provider', ${usage.provider}, 'patientRef', ${usage.patientRef},
        'usedAt', ${usedAt.getTime()})`,
      // Drawing from a sealed vial starts it: its own start_vial row, as a start writes.
      before: (changed) => [
        logActivityWhere(
          db,
          {
            userId: actor.id,
            locationId: sql`i.location_id`,
            action: "start_vial",
            entity: "item",
            entityId: vial.id,
            summary: sql`json_patch(json_object('labelCode', i.label_code, 'product', p.name, 'variation', v.name,
              'lot', i.lot, 'by', 'draw'), json(${opened.summary}))`,
          },
          sql`${itemRow(vial.id)} AND i.state = 'sealed' AND ${changed}`,
        ),
      ],
      movement: { type: "USE", quantity: -units, reference: { type: "usage", id: usage.id } },
      after: (changed) => [
        db.run(sql`INSERT INTO usage_entries (id, item_id, location_id, variation_id, lot, units, service_id,
            provider, patient_ref, used_at, user_id, created_at)
          SELECT ${usage.id}, i.id, i.location_id, i.variation_id, i.lot, ${units}, ${usage.serviceId},
            ${usage.provider}, ${usage.patientRef}, ${usedAt.getTime()}, ${actor.id}, ${Date.now()}
          FROM items AS i WHERE i.id = ${vial.id} AND ${changed}`),
      ],
    },
    why,
  );
  if (!drawn.ok || !drawn.started) return drawn;
  // Read sealed, but someone else's start came first: this draw did not start it.
  const ours = drawn.vial.startedAt?.getTime() === new Date(drawn.started.startedAt).getTime();
  return ours ? drawn : { ...drawn, started: null };
});

/** What a draw from a sealed vial answers beside the vial: it started it, then, with this deadline. */
export interface DrawStarted {
  startedAt: Date;
  expiresAt: Date;
}

/** The instants a draw may be dated at `now` at all: not in the future (skew allowed), not too long ago. */
function outerWindow(now: Date): { from: Date; to: Date } {
  return {
    from: new Date(now.getTime() - USED_AT_BACK_DAYS * DAY_MS),
    to: new Date(now.getTime() + USED_AT_SKEW_MS),
  };
}

function within(at: Date, window: { from: Date; to: Date }): boolean {
  return at.getTime() >= window.from.getTime() && at.getTime() <= window.to.getTime();
}

/**
 * The instants a draw from `vial` may be dated at `now` (both ends included): an open vial's life
 * from its start to just before its Use-By Deadline; a sealed one's, which the draw starts at the
 * time it names, until its expiration day ends; within `outerWindow`. Null when there is none (the
 * vial is finished, or past its deadline for the whole window): the rules then say why.
 */
export function drawWindow(vial: Pick<Vial, "state" | "startedAt" | "expiresAt" | "expirationDate">, now: Date) {
  const outer = outerWindow(now);
  let start: number | null = null;
  let end: number | null = null;
  if (vial.state === "in_use") {
    start = vial.startedAt?.getTime() ?? null;
    end = vial.expiresAt?.getTime() ?? null;
  } else if (vial.state === "sealed" && vial.expirationDate) {
    start = outer.from.getTime();
    end = expirationEndOfDay(vial.expirationDate).getTime();
  }
  if (start === null || end === null || Number.isNaN(end)) return null;
  const from = Math.max(start, outer.from.getTime());
  const to = Math.min(end - 1, outer.to.getTime());
  return from <= to ? { from: new Date(from), to: new Date(to) } : null;
}
