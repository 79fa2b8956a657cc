import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ITEM_STATES } from "../../db/schema/stock/constants";
import { STATE_NAMES, STATE_OPTIONS, StateBadge } from "./state-badge";

describe("StateBadge", () => {
  it.each([
    ["sealed", "Sealed"],
    ["in_use", "In use"],
    ["empty", "Empty"],
    ["discarded", "Discarded"],
    ["in_transit", "In transit"],
  ] as const)("%s reads %s", (state, name) => {
    const html = renderToStaticMarkup(<StateBadge state={state} />);
    expect(html).toMatch(new RegExp(`^<span data-state="${state}" class="[^"]+">${name}</span>$`));
  });

  it("names every state, and offers them all as filter options in order", () => {
    expect(Object.keys(STATE_NAMES).sort()).toEqual([...ITEM_STATES].sort());
    expect(STATE_OPTIONS.map((o) => o.value)).toEqual([...ITEM_STATES]);
  });
});
