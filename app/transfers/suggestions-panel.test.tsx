import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import type { BalancingSuggestion } from "./balance";
import { DRAFT_FROM_SUGGESTION, SuggestionsPanel, suggestionCarries } from "./suggestions-panel";

const vials: BalancingSuggestion = {
  kind: "below_reorder",
  fromLocationId: "dtn",
  fromLocationName: "Downtown",
  toLocationId: "wst",
  toLocationName: "Westside",
  productName: "Botox Cosmetic",
  variationId: "v1",
  variationName: "100 U vial",
  lines: [{ itemId: "i1" }, { itemId: "i2" }, { itemId: "i3" }, { itemId: "i4" }],
  why: "Westside is at 2, below its reorder point of 5; Downtown has 14, above its max of 10: move 4",
};
const bulk: BalancingSuggestion = {
  ...vials,
  kind: "expiring",
  fromLocationId: "nth",
  fromLocationName: "North",
  variationId: "v2",
  productName: "Alcohol prep pads",
  variationName: "Box of 200",
  lines: [{ variationId: "v2", quantity: 600 }],
  why: "Westside uses 12 vials a month; these 8 expire in 20 days at North, which used 2 in 90 days",
};

/** The panel rendered on the server inside a data router, as the transfers page renders it. */
async function render(props: Parameters<typeof SuggestionsPanel>[0]) {
  const handler = createStaticHandler([{ path: "/transfers", element: <SuggestionsPanel {...props} /> }]);
  const context = await handler.query(new Request("http://clinic.test/transfers"));
  if (context instanceof Response) throw new Error("redirected");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToStaticMarkup(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

describe("SuggestionsPanel", () => {
  it("shows each suggestion's why, its two locations and what it carries, with a plain form to make the draft", async () => {
    const html = await render({ suggestions: [vials, bulk], writableLocationIds: ["dtn"], idempotencyKey: "k" });
    expect(html).toContain(vials.why);
    expect(html).toContain(bulk.why);
    expect(html.replace(/<[^>]+>/g, "")).toContain("Downtown →  to Westside: 4 vials");
    // A post to the page itself, with what the action reads.
    const forms = html.match(/<form method="post"[^>]*>.*?<\/form>/g) ?? [];
    expect(forms).toHaveLength(1);
    const form = forms[0] ?? "";
    expect(form).toContain(`name="intent" value="${DRAFT_FROM_SUGGESTION}"`);
    expect(form).toContain('name="fromLocationId" value="dtn"');
    expect(form).toContain('name="toLocationId" value="wst"');
    expect(form).toContain(`name="lines" value="${JSON.stringify(vials.lines).replace(/"/g, "&quot;")}"`);
    expect(form).toMatch(/<button type="submit"[^>]*>Make a draft<\/button>/);
    // North → Westside: the reader makes transfers at neither, so no button, and the card says why.
    expect(html).toContain("Only someone who makes transfers at North can make this draft.");
  });

  it("points the receiving end to Request stock: a draft is made by the sender", async () => {
    const html = await render({ suggestions: [vials], writableLocationIds: ["wst"] });
    expect(html).not.toContain("<form");
    expect(html).toContain("Downtown sends these: ask them for it with Request stock.");
  });

  it("says so when there is nothing to move", async () => {
    const html = await render({ suggestions: [], writableLocationIds: [] });
    expect(html).toContain("Nothing to move between locations just now.");
    expect(html).not.toContain("<form");
  });

  it("names what a draft carries", () => {
    expect(suggestionCarries(vials)).toBe("4 vials");
    expect(suggestionCarries({ ...vials, lines: [{ itemId: "i1" }] })).toBe("1 vial");
    expect(suggestionCarries(bulk)).toBe("1 bulk quantity");
  });
});
