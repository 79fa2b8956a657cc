// Working out a batch of retail bookings (bookings.server.ts): each line in order against its
// pair's running level. Whatever the sales and refunds, no level goes below zero, a sale takes
// what is there and the rest is short, a refund returns all of its units, and each pair's level
// moves by the sum of its bookings.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Unbooked, workOutBookings } from "./bookings.server";

const pairs = [
  ["DTN", "serum"],
  ["DTN", "balm"],
  ["WST", "serum"],
] as const;

const line = fc.record({
  pair: fc.integer({ min: 0, max: pairs.length - 1 }),
  quantity: fc.integer({ min: -3, max: 6 }).filter((q) => q !== 0),
  unitsPerPackage: fc.integer({ min: 1, max: 4 }),
});

describe("workOutBookings", () => {
  it("never takes a level below zero, and moves each level by exactly its bookings", () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 40 }),
        fc.array(fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }), { minLength: 3, maxLength: 3 }),
        (drawn, start) => {
          // A pair's lines share its package size, as one variation's do.
          const size = new Map<number, number>();
          const lines: Unbooked[] = drawn.map((l, i) => {
            const [locationId, variationId] = pairs[l.pair] as readonly [string, string];
            if (!size.has(l.pair)) size.set(l.pair, l.unitsPerPackage);
            return {
              id: i + 1,
              jobId: "job",
              locationId,
              variationId,
              soldAt: 0,
              quantity: l.quantity,
              unitsPerPackage: size.get(l.pair) as number,
              onHand: start[l.pair] ?? null,
            };
          });
          const { bookings, pairs: levels } = workOutBookings(lines);
          expect(bookings.map((b) => b.lineId)).toEqual(lines.map((l) => l.id));
          const running = new Map(levels.map((p) => [`${p.locationId} ${p.variationId}`, p.before ?? 0]));
          bookings.forEach((b, i) => {
            const l = lines[i] as Unbooked;
            const units = Math.abs(l.quantity) * l.unitsPerPackage;
            const key = `${l.locationId} ${l.variationId}`;
            const level = running.get(key) ?? 0;
            if (l.quantity < 0) expect([b.booked, b.short]).toEqual([units, 0]);
            else expect([b.booked, b.short]).toEqual([-Math.min(units, level), units - Math.min(units, level)]);
            running.set(key, level + b.booked);
            expect(running.get(key)).toBeGreaterThanOrEqual(0);
          });
          for (const p of levels) expect(p.level).toBe(running.get(`${p.locationId} ${p.variationId}`));
          expect(new Set(bookings.map((b) => b.movementId)).size).toBe(bookings.length);
        },
      ),
    );
  });
});
