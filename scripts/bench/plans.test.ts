import { describe, expect, it } from "vitest";
import { classifyPlan, type PlanRow } from "./plans";

/** Plan rows as EXPLAIN QUERY PLAN gives them, each line "id parent detail". */
function plan(...lines: string[]): PlanRow[] {
  return lines.map((line) => {
    const [id, parent, ...detail] = line.split(" ");
    return { id: Number(id), parent: Number(parent), detail: detail.join(" ") };
  });
}

describe("classifyPlan", () => {
  it("passes searches through an index, and scans of small tables and subqueries", () => {
    const sql =
      'select "i"."id" from "items" "i" join "locations" "l" on "l"."id" = "i"."location_id" where "i"."lot" = ? limit 50';
    expect(
      classifyPlan(
        sql,
        plan("4 0 SEARCH i USING INDEX items_lot_idx (lot=?)", "9 0 SEARCH l USING INTEGER PRIMARY KEY (rowid=?)"),
      ),
    ).toEqual({ verdict: "ok", findings: [] });
    expect(classifyPlan("select * from locations", plan("2 0 SCAN locations")).verdict).toBe("ok");
    expect(
      classifyPlan(
        "select count(*) from (select 1 from usage_entries where lot = ? limit 1001)",
        plan(
          "2 0 CO-ROUTINE (subquery-1)",
          "5 2 SEARCH usage_entries USING INDEX usage_lot (lot=?)",
          "15 0 SCAN (subquery-1)",
        ),
      ).verdict,
    ).toBe("ok");
  });

  it("calls a walk in index order that serves ORDER BY … LIMIT an ordered walk", () => {
    const sql = 'select * from "items" where "state" <> ? order by "expiration_date" limit 51';
    expect(classifyPlan(sql, plan("5 0 SCAN items USING INDEX items_expiry"))).toEqual({
      verdict: "ordered walk",
      findings: [{ table: "items", verdict: "ordered walk", detail: "SCAN items USING INDEX items_expiry" }],
    });
  });

  it("fails a full scan of a large table, whatever its alias", () => {
    const found = classifyPlan('select * from "stock_movements" as "m" where "m"."note" like ?', plan("2 0 SCAN m"));
    expect(found).toEqual({
      verdict: "full scan",
      findings: [{ table: "stock_movements", verdict: "full scan", detail: "SCAN m" }],
    });
  });

  it("fails an index walk that no LIMIT stops, or whose rows are sorted again, or that is an inner loop", () => {
    const walk = "SCAN items USING COVERING INDEX items_location";
    expect(classifyPlan("select count(*) from items", plan(`3 0 ${walk}`)).verdict).toBe("full scan");
    expect(
      classifyPlan("select * from items order by lot limit 5", plan(`3 0 ${walk}`, "18 0 USE TEMP B-TREE FOR ORDER BY"))
        .verdict,
    ).toBe("full scan");
    expect(
      classifyPlan(
        "select * from locations l join items on items.location_id = l.id limit 5",
        plan("3 0 SCAN l", `5 0 ${walk}`),
      ).verdict,
    ).toBe("full scan");
    // An automatic index reads the whole table to build itself.
    expect(
      classifyPlan(
        "select * from sessions where user_id = ?",
        plan("3 0 SEARCH sessions USING AUTOMATIC COVERING INDEX (user_id=?)"),
      ).verdict,
    ).toBe("full scan");
  });

  it("reports a scan of a medium table without failing it, and a LIMIT inside a literal is no LIMIT", () => {
    expect(classifyPlan('select * from "products" where name like ?', plan("2 0 SCAN products"))).toEqual({
      verdict: "medium scan",
      findings: [{ table: "products", verdict: "medium scan", detail: "SCAN products" }],
    });
    expect(
      classifyPlan(
        "select * from items where note = 'no limit' order by lot",
        plan("3 0 SCAN items USING INDEX items_lot"),
      ).verdict,
    ).toBe("full scan");
  });
});
