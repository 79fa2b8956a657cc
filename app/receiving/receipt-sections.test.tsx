import type { ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { type ExpectedRow, OrderExpected } from "./receipt-sections";

// Remix's Form and Link need its router; as plain elements they render the same HTML here.
vi.mock("@remix-run/react", () => ({
  Form: ({ method, ...props }: ComponentProps<"form">) => <form method={method} {...props} />,
  Link: ({ to, ...props }: ComponentProps<"a"> & { to: string }) => <a href={to} {...props} />,
}));

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
const rows: ExpectedRow[] = [
  {
    variationId: "v-pads",
    label: "Alcohol prep pads · Box of 200",
    vendorSku: "AP-200",
    ordered: 10,
    received: 4,
    toReceive: 6,
    onReceipt: 0,
    unitCost: "$12.34",
    fillHref: "/receiving/r1/add-products?fill=v-pads",
  },
  {
    variationId: "v-botox",
    label: "Botox Cosmetic · 100 U vial",
    vendorSku: null,
    ordered: 4,
    received: 0,
    toReceive: 0,
    onReceipt: 4,
    unitCost: "$450.00",
    fillHref: "/receiving/r1/add-products?fill=v-botox",
  },
];
const order = (status: string) => ({ id: "po-1", number: "PO-2026-0042", status, vendor: "Allergan" });

describe("what the receipt's order still expects", () => {
  it("links each line still expected to fill Add line, and says when a line is all here", () => {
    const html = renderToStaticMarkup(<OrderExpected order={order("partially_received")} rows={rows} canWrite />);
    expect(html).toContain('href="/receiving/r1/add-products?fill=v-pads"');
    expect(html).not.toContain("fill=v-botox");
    expect(text(html)).toContain("All here");
    expect(text(html)).toContain("Ordered on PO-2026-0042");
    expect(text(html)).toContain("SKU AP-200");
    expect(html).toContain('href="/purchase-orders/po-1"');
  });

  it("offers nothing to receive on an order closed or cancelled meanwhile, and says what to do", () => {
    for (const status of ["closed", "cancelled"]) {
      const html = renderToStaticMarkup(<OrderExpected order={order(status)} rows={rows} canWrite />);
      expect(html).not.toContain("fill=");
      expect(text(html)).toContain(`This order was ${status} while this receipt was open`);
    }
    // A reader without WRITE_INVENTORY sees the lines, not the links.
    expect(
      renderToStaticMarkup(<OrderExpected order={order("submitted")} rows={rows} canWrite={false} />),
    ).not.toContain("fill=");
  });
});
