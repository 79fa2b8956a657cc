import type { ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { ReceiveAgainstOrder, WhatArrived } from "./arrivals";
import { type Arrivals, shapeArrivals } from "./arrivals.server";

// Remix's Form and Link need its router; as plain elements they render the same HTML here.
vi.mock("@remix-run/react", () => ({
  Form: ({ method, ...props }: ComponentProps<"form">) => <form method={method} {...props} />,
  Link: ({ to, ...props }: ComponentProps<"a"> & { to: string }) => <a href={to} {...props} />,
}));

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
const NOW = new Date("2026-11-27T12:00:00Z");

const shaped: Arrivals = shapeArrivals(
  [
    [
      {
        id: "r-open",
        status: "open",
        createdAt: Date.parse("2026-11-26T15:00:00Z"),
        completedAt: null,
        timezone: "America/New_York",
        reference: "PS-2",
        overReceiptReason: null,
        openedBy: "Sam Staff",
        completedBy: null,
      },
      {
        id: "r-1",
        status: "completed",
        createdAt: Date.parse("2026-11-20T14:00:00Z"),
        completedAt: Date.parse("2026-11-20T15:00:00Z"),
        timezone: "America/New_York",
        reference: "PS-1",
        overReceiptReason: "Vendor sent an extra box",
        openedBy: "Maria Manager",
        completedBy: "Maria Manager",
      },
    ],
    [
      {
        id: "l-1",
        receiptId: "r-1",
        variationId: "v-botox",
        product: "Botox",
        variation: "100 U vial",
        packages: 2,
        unitsPerPackage: 100,
        baseUnit: "U",
        unitScale: 1,
        lot: "C1234",
        serial: null,
        expirationDate: "2027-03-31",
      },
      {
        id: "l-2",
        receiptId: "r-1",
        variationId: "v-pads",
        product: "Alcohol pads",
        variation: "Box of 200",
        packages: 3,
        unitsPerPackage: 200,
        baseUnit: "pad",
        unitScale: 1,
        lot: null,
        serial: null,
        expirationDate: null,
      },
    ],
  ],
  NOW,
);

describe("What arrived", () => {
  it("shapes each completed receipt with its lines and packages, and the open ones apart", () => {
    expect(shaped.open).toMatchObject([
      { receiptId: "r-open", href: "/receiving/r-open/add-products", openedBy: "Sam Staff" },
    ]);
    expect(shaped.completed).toMatchObject([
      {
        receiptId: "r-1",
        receivedBy: "Maria Manager",
        packages: 5,
        overReceiptReason: "Vendor sent an extra box",
        lines: [
          { label: "Botox · 100 U vial", packages: 2, units: "200 U", lot: "C1234", expires: "Mar 31, 2027" },
          { label: "Alcohol pads · Box of 200", packages: 3, lot: null, expires: null },
        ],
      },
    ]);
  });

  it("says when, who, which lots and expiry dates, why more came, and links the open receipt", () => {
    const page = text(renderToStaticMarkup(<WhatArrived arrivals={shaped} />));
    expect(page).toContain("Received Nov 20, 10:00 EST");
    expect(page).toContain("by Maria Manager");
    expect(page).toContain("C1234");
    expect(page).toContain("Mar 31, 2027");
    expect(page).toContain("More than ordered: Vendor sent an extra box");
    expect(page).toContain("being received, not in stock yet");
    expect(renderToStaticMarkup(<WhatArrived arrivals={shaped} />)).toContain('href="/receiving/r-open/add-products"');
    expect(text(renderToStaticMarkup(<WhatArrived arrivals={{ completed: [], open: [] }} />))).toContain(
      "Nothing has arrived against this order yet.",
    );
  });

  it("offers receiving only for an order waiting for a delivery, and says why not otherwise", () => {
    const offered = renderToStaticMarkup(<ReceiveAgainstOrder orderId="po-1" status="submitted" canReceive />);
    expect(offered).toContain('action="/receiving"');
    expect(offered).toContain('name="purchaseOrderId" value="po-1"');
    expect(text(renderToStaticMarkup(<ReceiveAgainstOrder orderId="po-1" status="closed" canReceive />))).toContain(
      "This order is closed",
    );
    expect(
      text(renderToStaticMarkup(<ReceiveAgainstOrder orderId="po-1" status="partially_received" canReceive={false} />)),
    ).toContain("Receiving needs permission");
  });
});
