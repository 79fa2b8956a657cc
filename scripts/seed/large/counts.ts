// The large data set's cycle counts (issue 22), written after the stock history and the transfers
// as the count verbs would have written them (ADR 0031): a count started at a location with its
// scope, lines counted (a vial scanned; a bulk quantity of a level), submitted, then approved (each
// variance booked as a COUNT movement of the session; a vial expected and not counted discarded
// with the reason missing_in_count) or sent back for a recount with a note.
//
// What a count expects is only what is known at its moment from the ledger as written: sealed vials
// nothing has touched since they came in (nor any transfer names), and bulk levels that have not
// moved since before the count. So a counted vial's units are its units, and a level's on-hand at
// the count is its on-hand now (until a count's own variance moves it, which the next count sees).
// Every location has monthly counts approved over the last months; the first locations also have a
// count open (in progress, blind or not), one sent back, and two submitted for review.
import type { Catalog, Location } from "./catalog";
import type { SeedLedger } from "./ledger";
import type { Random } from "./random";
import type { Writer } from "./writer";

/** The activity rows' entity for a count (what the count verbs file their rows under). */
export const ENTITY = "audit_session";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface CountCounts {
  sessions: number;
  lines: number;
  byStatus: Record<string, number>;
  variances: number;
  missing: number;
}

interface ShelfVial {
  id: string;
  locationId: string;
  variationId: string;
  productId: string;
  product: string;
  variation: string;
  category: string;
  lot: string;
  labelCode: string;
  units: number;
  receivedAt: number;
}

interface BulkLevel {
  locationId: string;
  variationId: string;
  productId: string;
  product: string;
  variation: string;
  category: string;
  upp: number;
  onHand: number;
  updatedAt: number;
}

type Status = "in_progress" | "submitted" | "approved" | "rejected";

export function writeCounts(w: Writer, random: Random, catalog: Catalog, now: number, ledger: SeedLedger): CountCounts {
  const counts: CountCounts = { sessions: 0, lines: 0, byStatus: {}, variances: 0, missing: 0 };
  const insertSession = w.insert(
    "audit_sessions",
    "id location_id status scope scope_category scope_product_ids blind started_by started_at submitted_by submitted_at reviewed_by reviewed_at review_note updated_at",
  );
  const insertLine = w.insert(
    "audit_lines",
    "id session_id variation_id item_id lot quantity ledger_position found counted_by counted_at",
  );
  const discardItem = w.run(
    `UPDATE items SET state = 'discarded', units_remaining = 0, discard_reason = 'missing_in_count', ended_at = ?,
      updated_at = ? WHERE id = ?`,
  );
  // The ledger's position while these counts were counted: every movement written so far.
  const position = Number(
    (w.db.prepare("SELECT coalesce(max(rowid), 0) AS p FROM stock_movements").get() as { p: number }).p,
  );

  const vials = w.db
    .prepare(
      `SELECT i.id, i.location_id AS locationId, i.variation_id AS variationId, p.id AS productId, p.name AS product,
        v.name AS variation, p.category, i.lot, i.label_code AS labelCode, i.units_remaining AS units,
        i.received_at AS receivedAt
      FROM items AS i JOIN product_variations AS v ON v.id = i.variation_id JOIN products AS p ON p.id = v.product_id
      WHERE i.state = 'sealed' AND i.updated_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM transfer_lines AS tl WHERE tl.item_id = i.id)
      ORDER BY i.received_at, i.id`,
    )
    .all() as ShelfVial[];
  const bulk = w.db
    .prepare(
      `SELECT s.location_id AS locationId, s.variation_id AS variationId, p.id AS productId, p.name AS product,
        v.name AS variation, p.category, v.units_per_package AS upp, s.on_hand AS onHand, s.updated_at AS updatedAt
      FROM stock_levels AS s JOIN product_variations AS v ON v.id = s.variation_id JOIN products AS p ON p.id = v.product_id
      WHERE p.tracking = 'bulk' AND s.on_hand > 0
      ORDER BY s.location_id, s.variation_id`,
    )
    .all() as BulkLevel[];
  const gone = new Set<string>();
  const categories = [...new Set([...vials.map((v) => v.category), ...bulk.map((b) => b.category)])].sort();

  function session(
    location: Location,
    plan: {
      status: Status;
      at: number;
      scope: "all" | "category" | "products";
      category?: string;
      productIds?: string[];
      blind: boolean;
      /** Share of what is expected that was counted (an open count is partway through). */
      share?: number;
    },
  ) {
    const id = random.uuid(plan.at);
    const starter = random.pick(location.users);
    const inScope = (v: { category: string; productId: string }) =>
      plan.scope === "all" ||
      (plan.scope === "category" && v.category === plan.category) ||
      (plan.scope === "products" && (plan.productIds ?? []).includes(v.productId));
    const expectedVials = vials.filter(
      (v) => v.locationId === location.id && !gone.has(v.id) && v.receivedAt < plan.at && inScope(v),
    );
    const expectedBulk = bulk.filter((b) => b.locationId === location.id && b.updatedAt < plan.at && inScope(b));
    const code = location.code;
    ledger.log(plan.at, starter, location.id, "start_count", ENTITY, id, {
      location: code,
      blind: plan.blind,
      scope: plan.scope,
      ...(plan.category ? { category: plan.category } : {}),
    });
    const share = plan.share ?? 1;
    const reviewed = plan.status === "approved" || plan.status === "rejected";
    // Vials: each counted but a missing one now and then (never in an open count's half).
    const missing: ShelfVial[] = [];
    let t = plan.at + MINUTE;
    // Lines about half a minute apart, an open count's all before now.
    const until = plan.status === "in_progress" ? now - MINUTE : plan.at + 20 * HOUR;
    const lineCount = Math.max(1, Math.ceil((expectedVials.length + expectedBulk.length) * share));
    const gap = Math.max(2, Math.min(50_000, Math.floor((until - t) / (lineCount + 1))));
    const counters = [starter, random.pick(location.users)];
    // Written after the session's row (their foreign key), in the order they were counted.
    const lines: (() => void)[] = [];
    const line = (
      variationId: string,
      itemId: string | null,
      lot: string | null,
      quantity: number,
      summary: object,
    ) => {
      t += Math.max(1, Math.floor(gap * (0.2 + 0.8 * random.float())));
      const by = random.pick(counters);
      const at = t;
      lines.push(() => insertLine(random.uuid(at), id, variationId, itemId, lot, quantity, position, 0, by, at));
      ledger.log(t, by, location.id, "count_stock", ENTITY, id, { location: code, ...summary, quantity });
      counts.lines++;
    };
    for (const vial of expectedVials) {
      if (random.float() >= share) continue;
      if (reviewed && random.chance(0.01) && missing.length < 2) {
        missing.push(vial);
        continue;
      }
      line(vial.variationId, vial.id, vial.lot, vial.units, {
        item: vial.labelCode,
        product: vial.product,
        variation: vial.variation,
      });
    }
    // Bulk: counted as on hand, or a little off (a variance the approval books).
    const variances: { level: BulkLevel; counted: number }[] = [];
    for (const level of expectedBulk) {
      if (random.float() >= share) continue;
      const off = random.chance(0.25)
        ? -random.int(1, Math.max(1, Math.min(level.onHand, Math.floor(level.upp / 4))))
        : 0;
      const counted = Math.max(0, level.onHand + off);
      if (counted !== level.onHand) variances.push({ level, counted });
      line(level.variationId, null, null, counted, { product: level.product, variation: level.variation });
    }
    const submittedAt = plan.status === "in_progress" ? null : t + 30 * MINUTE;
    const submitter = submittedAt ? starter : null;
    if (submittedAt) {
      ledger.log(submittedAt, submitter, location.id, "submit_count", ENTITY, id, {
        location: code,
        lines: expectedVials.length - missing.length + expectedBulk.length,
        missing: missing.length,
        variances: variances.length,
      });
    }
    const reviewedAt = reviewed ? (submittedAt as number) + 4 * HOUR + Math.floor(random.float() * DAY) : null;
    const reviewer = reviewed ? catalog.owner : null;
    const note = plan.status === "rejected" ? "The back shelf was not counted: count it again" : null;
    if (plan.status === "approved" && reviewedAt) {
      for (const vial of missing) {
        ledger.move(reviewedAt, location.id, vial.variationId, -vial.units, "DISCARD", {
          itemId: vial.id,
          lot: vial.lot,
          reason: "missing_in_count",
          reference: ["audit", id],
          userId: reviewer,
        });
        discardItem(reviewedAt, reviewedAt, vial.id);
        gone.add(vial.id);
        counts.missing++;
      }
      for (const { level, counted } of variances) {
        ledger.move(reviewedAt, location.id, level.variationId, counted - level.onHand, "COUNT", {
          reference: ["audit", id],
          userId: reviewer,
        });
        level.onHand = counted;
        level.updatedAt = reviewedAt;
        counts.variances++;
      }
      ledger.log(reviewedAt, reviewer, location.id, "audit_complete", ENTITY, id, {
        location: code,
        missing: missing.length,
        variances: variances.length,
      });
    } else if (plan.status === "rejected" && reviewedAt) {
      ledger.log(reviewedAt, reviewer, location.id, "reject_count", ENTITY, id, { location: code, note });
    }
    insertSession(
      id,
      location.id,
      plan.status,
      plan.scope,
      plan.scope === "category" ? (plan.category ?? null) : null,
      plan.scope === "products" ? JSON.stringify(plan.productIds ?? []) : null,
      plan.blind ? 1 : 0,
      starter,
      plan.at,
      submitter,
      submittedAt,
      reviewer,
      reviewedAt,
      note,
      reviewedAt ?? submittedAt ?? t,
    );
    for (const write of lines) write();
    counts.sessions++;
    counts.byStatus[plan.status] = (counts.byStatus[plan.status] ?? 0) + 1;
  }

  // Monthly counts approved at every location, oldest first (a missing vial is gone for the next).
  for (const daysAgo of [100, 70, 40, 12]) {
    catalog.locations.forEach((location, n) => {
      session(location, {
        status: "approved",
        at: now - daysAgo * DAY + n * HOUR,
        scope: "category",
        category: categories[(n + daysAgo) % Math.max(1, categories.length)] ?? "Supplies",
        blind: random.chance(0.5),
      });
    });
  }
  // Open, sent back and submitted counts at the first locations (one open count a location).
  catalog.locations.forEach((location, n) => {
    if (n === 0)
      session(location, { status: "in_progress", at: now - 3 * HOUR, scope: "all", blind: true, share: 0.5 });
    if (n === 1) {
      session(location, {
        status: "in_progress",
        at: now - 2 * HOUR,
        scope: "category",
        category: categories[0] ?? "Supplies",
        blind: false,
        share: 0.6,
      });
    }
    if (n === 2) {
      const here = vials.filter((v) => v.locationId === location.id && !gone.has(v.id));
      const productIds = [...new Set(here.slice(0, 40).map((v) => v.productId))].slice(0, 5);
      if (productIds.length)
        session(location, { status: "rejected", at: now - 5 * DAY, scope: "products", productIds, blind: false });
    }
    if (n === 3 || n === 4) {
      session(location, {
        status: "submitted",
        at: now - 2 * DAY + n * HOUR,
        scope: "category",
        category: categories[n % Math.max(1, categories.length)] ?? "Supplies",
        blind: n === 4,
      });
    }
  });
  return counts;
}
