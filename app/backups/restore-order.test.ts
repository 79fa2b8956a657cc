import { describe, expect, it } from "vitest";
import { parentsFirst } from "./restore.server";

describe("the order a restore makes its tables again in", () => {
  it("puts every table after the tables its foreign keys name", () => {
    const order = parentsFirst(
      ["items", "locations", "organizations", "product_variations", "products", "stock_movements"],
      [
        ["items", "product_variations"],
        ["items", "locations"],
        ["locations", "organizations"],
        ["product_variations", "products"],
        ["products", "organizations"],
        ["stock_movements", "items"],
        ["sessions", "users"],
      ],
    );
    expect(order).toHaveLength(6);
    const at = (name: string) => order.indexOf(name);
    expect(at("organizations")).toBeLessThan(at("locations"));
    expect(at("products")).toBeLessThan(at("product_variations"));
    expect(at("product_variations")).toBeLessThan(at("items"));
    expect(at("items")).toBeLessThan(at("stock_movements"));
  });

  it("still places every table when keys run in a circle or a table names itself", () => {
    expect(
      parentsFirst(
        ["a", "b", "c"],
        [
          ["a", "b"],
          ["b", "a"],
          ["c", "c"],
        ],
      ).sort(),
    ).toEqual(["a", "b", "c"]);
  });
});
