import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { AddItemsSuggestions } from "./add-items-suggestions";
import type { ReorderSuggestion, TransferOffer } from "./reorder";
import { ReorderView } from "./reorder-view";
import { packageWord } from "./suggest-rule";

const base: ReorderSuggestion = {
  variationId: "v1",
  productId: "p1",
  productName: "Botox Cosmetic",
  variationName: "100 U vial",
  tracking: "serialized",
  sku: null,
  vendorId: "allergan",
  vendorName: "Allergan",
  unitsPerPackage: 100,
  reorderPoint: 500,
  max: 2400,
  par: 1000,
  onHand: 300,
  onOrder: 0,
  inTransit: 0,
  dailyUsage: 90,
  shelfLifeDays: null,
  packages: 21,
  cappedAt: null,
  onDraft: null,
  why: "on hand 3 + on order 0 < reorder point 5; 3 days of cover at 0.9 a day; order 21 vials to reach max 24",
};
const pads: ReorderSuggestion = {
  ...base,
  variationId: "v2",
  productName: "Prep pads",
  variationName: "Box of 50",
  tracking: "bulk",
  packages: 2,
  why: "pads why",
};
const drafted: ReorderSuggestion = {
  ...base,
  variationId: "v3",
  productName: "Dysport",
  onDraft: { id: "o9", number: "PO-2026-0042" },
  why: "dysport why; on draft PO-2026-0042",
};
const orphan: ReorderSuggestion = {
  ...base,
  variationId: "v4",
  productName: "Gauze",
  vendorId: null,
  vendorName: null,
  why: "gauze why",
};
const offer: TransferOffer = {
  variationId: "v1",
  fromLocationId: "wst",
  fromLocationName: "Westside",
  toLocationId: "dtn",
  carries: "4 vials",
  lines: JSON.stringify([{ itemId: "i1" }]),
  canDraft: true,
};

async function render(element: React.ReactElement): Promise<string> {
  const handler = createStaticHandler([{ path: "/purchase-orders", element }]);
  const context = await handler.query(new Request("http://clinic.test/purchase-orders"));
  if (context instanceof Response) throw new Error("redirected");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToStaticMarkup(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

const decode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
/** The text a reader sees. */
const textOf = (html: string) => decode(html.replace(/<[^>]+>/g, ""));
/** Each form: its opening tag's attributes, what it sends (name, value, in order), its text. */
function formsOf(html: string) {
  return [...html.matchAll(/<form([^>]*)>(.*?)<\/form>/gs)].map(([, attrs = "", body = ""]) => {
    const fields = [...body.matchAll(/<input([^>]*)>/g)].map(([, a = ""]) => [
      /name="([^"]*)"/.exec(a)?.[1] ?? "",
      decode(/value="([^"]*)"/.exec(a)?.[1] ?? ""),
    ]);
    const all = (name: string) => fields.filter(([n]) => n === name).map(([, v]) => v);
    return { attrs, body, all, get: (name: string) => all(name)[0] ?? null, text: textOf(body) };
  });
}
/** The vendor groups: each section's heading and its html. */
function groupsOf(html: string) {
  return [...html.matchAll(/<section aria-labelledby="reorder-[^"]*"[^>]*>(.*?)<\/section>/gs)].map(
    ([, body = ""]) => ({
      heading: textOf(/<h3[^>]*>(.*?)<\/h3>/s.exec(body)?.[1] ?? ""),
      body,
    }),
  );
}

describe("packageWord", () => {
  it("names a package by its variation", () => {
    expect(packageWord("100 U vial", "serialized", 2)).toBe("vials");
    expect(packageWord("Box of 50", "bulk", 2)).toBe("boxes");
    expect(packageWord("Box of 50", "bulk", 1)).toBe("box");
    expect(packageWord("1 mL syringe", "serialized", 3)).toBe("syringes");
    expect(packageWord("Single", "bulk", 2)).toBe("packages");
    expect(packageWord("Single", "serialized", 1)).toBe("vial");
  });
});

describe("ReorderView", () => {
  it("groups by vendor, one draft-order form each with the pairs, and leaves drafts and vendorless rows out", async () => {
    const html = await render(
      <ReorderView
        locationId="dtn"
        locationName="Downtown"
        suggestions={[base, pads, drafted, orphan]}
        offers={[offer]}
        canOrder
      />,
    );
    const groups = groupsOf(html);
    expect(groups.map((g) => g.heading)).toEqual(["Allergan", "No default vendor"]);
    const [allergan, none] = groups;
    const order = formsOf(allergan?.body ?? "").find((f) => f.attrs.includes('action="/purchase-orders"'));
    expect(order?.get("intent")).toBe("create");
    expect(order?.get("locationId")).toBe("dtn");
    expect(order?.get("vendorId")).toBe("allergan");
    expect(order?.all("variationId")).toEqual(["v1", "v2"]);
    expect(order?.all("packages")).toEqual(["21", "2"]);
    expect(order?.text).toBe("Draft an order of 2 lines");
    // The drafted one says so, with a link to the draft; it is not in the form.
    expect(allergan?.body).toContain('href="/purchase-orders/o9"');
    expect(textOf(allergan?.body ?? "")).toContain("On draft PO-2026-0042");
    expect(textOf(allergan?.body ?? "")).toContain("dysport why; on draft PO-2026-0042");
    // Each row says why.
    expect(textOf(allergan?.body ?? "")).toContain(base.why);
    // No vendor: no form, and why.
    expect(none?.body).not.toContain("<form");
    expect(textOf(none?.body ?? "")).toContain("These products have no default vendor");
    // The transfer offered instead: a form to the transfers page.
    const transfer = formsOf(html).find((f) => f.attrs.includes('action="/transfers"'));
    expect(transfer?.text).toContain("Westside has 4 vials to spare: transfer instead");
    expect([
      transfer?.get("intent"),
      transfer?.get("fromLocationId"),
      transfer?.get("toLocationId"),
      transfer?.get("lines"),
    ]).toEqual(["draft_from_suggestion", "wst", "dtn", offer.lines]);
  });

  it("says why a reader who cannot order gets no form, and points to Request stock for a transfer they cannot draft", async () => {
    const html = await render(
      <ReorderView
        locationId="dtn"
        locationName="Downtown"
        suggestions={[base]}
        offers={[{ ...offer, canDraft: false }]}
        canOrder={false}
      />,
    );
    expect(html).not.toContain("<form");
    expect(textOf(html)).toContain("Only an admin of this location can draft orders.");
    expect(html).toMatch(/<a [^>]*href="\/transfers"[^>]*>ask Westside with Request stock<\/a>/);
  });

  it("links to every vendor when it shows the first, and back to the first when it shows all", async () => {
    const links = { all: "/purchase-orders?vendors=all", first: "/purchase-orders", allShown: false };
    const first = await render(
      <ReorderView
        locationId="dtn"
        locationName="Downtown"
        suggestions={[base, pads]}
        vendors={59}
        vendorLinks={links}
        canOrder
      />,
    );
    expect(textOf(first)).toContain("The vendors with the most suggestions come first.");
    expect(first).toMatch(/<a [^>]*href="\/purchase-orders\?vendors=all"[^>]*>Show all 59 vendors<\/a>/);
    expect(textOf(first)).toContain("1 of 59 vendors shown.");
    const all = await render(
      <ReorderView
        locationId="dtn"
        locationName="Downtown"
        suggestions={[base, pads]}
        vendors={59}
        vendorLinks={{ ...links, allShown: true }}
        canOrder
      />,
    );
    expect(all).not.toContain("Show all");
    expect(all).toMatch(/<a [^>]*href="\/purchase-orders"[^>]*>Show only the 10 vendors with the most<\/a>/);
    // Every vendor shown already: no link either way.
    const few = await render(
      <ReorderView
        locationId="dtn"
        locationName="Downtown"
        suggestions={[base]}
        vendors={1}
        vendorLinks={links}
        canOrder
      />,
    );
    expect(few).not.toContain('data-testid="reorder-vendors"');
    expect(textOf(few)).not.toContain("come first");
  });

  it("says when nothing is due", async () => {
    const html = await render(<ReorderView locationId="dtn" locationName="Downtown" suggestions={[]} canOrder />);
    expect(textOf(html)).toContain("Nothing is at or under its reorder point here.");
  });
});

describe("AddItemsSuggestions", () => {
  it("adds all as pairs, or one at a time with its packages editable", async () => {
    const html = await render(
      <AddItemsSuggestions vendorName="Allergan" suggestions={[base, pads, drafted]} orderId="o9" canEdit />,
    );
    const forms = formsOf(html);
    expect(forms).toHaveLength(3);
    const [all, , one] = forms;
    expect(all?.get("intent")).toBe("addLines");
    expect(all?.all("variationId")).toEqual(["v1", "v2"]);
    expect(all?.all("packages")).toEqual(["21", "2"]);
    expect(all?.text).toBe("Add all 2 suggestions");
    expect([one?.get("intent"), one?.get("variationId"), one?.get("packages")]).toEqual(["addLines", "v2", "2"]);
    expect(one?.body).toMatch(
      /<label for="add-packages-v2"[^>]*><span>Boxes<\/span><input id="add-packages-v2" name="packages" type="number"/,
    );
    // On this order already: shown with why, not offered.
    expect(textOf(html)).toContain("dysport why; on draft PO-2026-0042 (this order)");
  });
});
