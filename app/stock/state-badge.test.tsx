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

  it.each([
    ["sealed", "Sealed · expired"],
    ["in_use", "In use · expired"],
    ["in_transit", "In transit · expired"],
  ] as const)("an expired %s vial reads %s, so a list says it is unusable", (state, words) => {
    const html = renderToStaticMarkup(<StateBadge state={state} expired />);
    expect(html).toContain('data-expired=""');
    expect(html.replace(/<[^>]+>/g, "")).toBe(words);
  });

  it("says nothing of expiry for a vial that is finished or not expired", () => {
    expect(renderToStaticMarkup(<StateBadge state="empty" expired />).replace(/<[^>]+>/g, "")).toBe("Empty");
    expect(renderToStaticMarkup(<StateBadge state="discarded" expired />).replace(/<[^>]+>/g, "")).toBe("Discarded");
    expect(renderToStaticMarkup(<StateBadge state="sealed" expired={false} />).replace(/<[^>]+>/g, "")).toBe("Sealed");
  });
});
