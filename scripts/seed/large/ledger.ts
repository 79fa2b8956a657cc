// What the later modules of the large seed (transfers, counts, par levels) share: the stock ledger
// and the activity log as their verbs write them. They run after the stock history is written and
// committed: each movement is appended and its level moved by the same amount (the levels are
// upserted once at the end, as stock.ts stores them), and each activity row has its verb's shape.
import type { Random } from "./random";
import type { Insert, Writer } from "./writer";

export interface Move {
  itemId?: string | null;
  lot?: string | null;
  reason?: string | null;
  note?: string | null;
  reference?: [string, string];
  userId: string | null;
}

export class SeedLedger {
  private readonly insertMovement: Insert;
  private readonly insertActivity: Insert;
  private readonly deltas = new Map<string, { locationId: string; variationId: string; delta: number; at: number }>();
  movements = 0;

  constructor(
    private readonly w: Writer,
    private readonly random: Random,
  ) {
    this.insertMovement = w.insert(
      "stock_movements",
      "id occurred_at location_id variation_id item_id lot quantity type reason note reference_type reference_id user_id",
    );
    this.insertActivity = w.insert("activity_log", "id at user_id location_id action entity entity_id summary");
  }

  /** Appends one movement and moves its level (stored by `flush`). */
  move(at: number, locationId: string, variationId: string, quantity: number, type: string, more: Move) {
    this.insertMovement(
      this.random.uuid(at),
      at,
      locationId,
      variationId,
      more.itemId ?? null,
      more.lot ?? null,
      quantity,
      type,
      more.reason ?? null,
      more.note ?? null,
      more.reference?.[0] ?? null,
      more.reference?.[1] ?? null,
      more.userId,
    );
    this.movements++;
    const key = `${locationId}|${variationId}`;
    const level = this.deltas.get(key);
    if (level) {
      level.delta += quantity;
      level.at = Math.max(level.at, at);
    } else {
      this.deltas.set(key, { locationId, variationId, delta: quantity, at });
    }
  }

  log(
    at: number,
    userId: string | null,
    locationId: string | null,
    action: string,
    entity: string,
    entityId: string,
    summary: object,
  ) {
    this.insertActivity(
      this.random.uuid(at),
      at,
      userId,
      locationId,
      action,
      entity,
      entityId,
      JSON.stringify(summary),
    );
  }

  /** Moves every level touched by the amounts booked (a level not there yet starts at them). */
  flush() {
    // An UPDATE, then an INSERT only where there was no level: an upsert would check the inserted
    // row's CHECK (on hand not negative) on a mere change before it saw the conflict.
    const update = this.w.run(
      "UPDATE stock_levels SET on_hand = on_hand + ?, updated_at = max(updated_at, ?) WHERE location_id = ? AND variation_id = ?",
    );
    const insert =
      this.w.run(`INSERT INTO stock_levels (location_id, variation_id, on_hand, updated_at) SELECT ?, ?, ?, ?
      WHERE NOT EXISTS (SELECT 1 FROM stock_levels WHERE location_id = ? AND variation_id = ?)`);
    for (const level of this.deltas.values()) {
      update(level.delta, level.at, level.locationId, level.variationId);
      insert(level.locationId, level.variationId, level.delta, level.at, level.locationId, level.variationId);
    }
    this.deltas.clear();
  }
}
