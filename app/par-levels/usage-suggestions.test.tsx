import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { SuggestLinks, type UsageRow, UsageSuggestions } from "./usage-suggestions";

async function render(element: React.ReactElement): Promise<string> {
  const handler = createStaticHandler([{ path: "/products/par-levels", element }]);
  const context = await handler.query(new Request("http://clinic.test/products/par-levels"));
  if (context instanceof Response) throw new Error("redirected");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToStaticMarkup(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}
const textOf = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

const rows: UsageRow[] = [
  {
    variationId: "v1",
    product: "Pads",
    variation: "Box of 10",
    usedPackages: "30",
    today: { par: 5, reorderPoint: 2, max: 8 },
    proposed: { par: 21, reorderPoint: 21, max: 51 },
  },
  { variationId: "v2", product: "Pads", variation: "Box of 20", usedPackages: "0", today: null, proposed: null },
  {
    variationId: "v3",
    product: "Gauze",
    variation: "Single",
    usedPackages: "2",
    today: { par: 2, reorderPoint: 1, max: 2 },
    proposed: { par: 2, reorderPoint: 1, max: 2 },
  },
];

describe("UsageSuggestions", () => {
  it("offers each changed proposal beside today's with a labelled checkbox, and accepts ticked or all", async () => {
    const html = await render(
      <UsageSuggestions days={30} locationId={null} locationName="Westside" rows={rows} canWrite />,
    );
    const text = textOf(html);
    expect(text).toContain("Suggested from the last 30 days of use at Westside");
    expect(text).toContain("Pads · Box of 10 30 5 / 2 / 8 21 / 21 / 51");
    expect(html).toContain('<input type="hidden" name="intent" value="apply_suggestions"/>');
    expect(html).toContain('<input type="hidden" name="days" value="30"/>');
    expect(html).toContain('<input type="hidden" name="proposal:v1" value="21|21|51"/>');

    expect(html).toMatch(
      /<label for="accept-v1"[^>]*><input id="accept-v1" type="checkbox" name="accept"[^>]* value="v1"/,
    );
    expect(html).toContain("Accept for Pads Box of 10");
    // Unused and unchanged rows are not offered, and the page says so.
    expect(html).not.toContain("proposal:v2");
    expect(html).not.toContain("proposal:v3");
    expect(text).toContain(
      "1 variation on this page not used here in 30 days: no suggestion; 1 already has the suggested levels.",
    );
    expect(html).toMatch(/<button type="submit"[^>]*>Accept ticked<\/button>/);
    expect(html).toMatch(/<button type="submit" name="all" value="1"[^>]*>Accept all 1<\/button>/);
  });

  it("says why a reader who cannot edit gets no checkboxes", async () => {
    const html = await render(
      <UsageSuggestions days={90} locationId="wst" locationName="Westside" rows={rows} canWrite={false} />,
    );
    expect(html).not.toContain('type="checkbox"');
    expect(html).not.toContain("<button");
    expect(textOf(html)).toContain("Only someone who edits products at Westside can accept these.");
  });

  it("links the two windows, marking the one shown", async () => {
    const html = await render(<SuggestLinks days={90} link={(d) => `/products/par-levels?suggest=${d ?? ""}`} />);
    expect(html).toMatch(/<a [^>]*href="\/products\/par-levels\?suggest=30"[^>]*>Last 30 days<\/a>/);
    expect(html).toMatch(
      /<a aria-current="page"[^>]*href="\/products\/par-levels\?suggest=90"|<a [^>]*aria-current="page"[^>]*>Last 90 days/,
    );
    expect(textOf(html)).toContain("Hide suggestions");
  });
});
