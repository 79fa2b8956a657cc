import type { ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { EMPTY_LINE, type ScanReading } from "./constants";
import { ScanSection, type VariationOption } from "./line-forms";

// Remix's Form and Link need its router; as plain elements they render the same HTML here.
vi.mock("@remix-run/react", () => ({
  Form: ({ method, ...props }: ComponentProps<"form">) => <form method={method} {...props} />,
  Link: ({ to, ...props }: ComponentProps<"a"> & { to: string }) => <a href={to} {...props} />,
}));

const unknown: ScanReading = { kind: "unknown", gtin: "09999999999993", prefill: { ...EMPTY_LINE, lot: "L1" } };
const gauze: VariationOption = {
  id: "v1",
  product: "Gauze",
  variation: "Pack of 10",
  unitsPerPackage: 10,
  unitScale: 1,
  baseUnit: "each",
  tracking: "bulk",
  costCents: null,
};

function section(choices: readonly VariationOption[], allowed = true) {
  return renderToStaticMarkup(
    <ScanSection
      reading={unknown}
      note={null}
      expires={null}
      formError={null}
      attach={{ allowed, choices, error: null }}
      busy={false}
    />,
  );
}

/** The page's words, without its markup. */
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

// An unknown GTIN is said once, in one message that fits what can be done with it (issue 18.12).
describe("ScanSection, an unknown GTIN", () => {
  it("offers to attach it when a variation has no GTIN yet", () => {
    const html = section([gauze]);
    expect(text(html)).toContain(
      "GTIN 09999999999993 is not in the catalogue. Attach it to the variation it belongs to, or choose the product below.",
    );
    expect(html).toContain("Attach GTIN");
    expect(html.match(/is not in the catalogue/g)).toHaveLength(1);
  });

  it("says once, without offering to attach it, when every variation has a GTIN of its own", () => {
    const html = section([]);
    expect(text(html)).not.toContain("Attach it");
    expect(html).not.toContain("Attach GTIN");
    expect(html.match(/is not in the catalogue/g)).toHaveLength(1);
    expect(text(html)).toContain(
      "GTIN 09999999999993 is not in the catalogue, and every active variation already has a GTIN of its own, so there is none to attach it to.",
    );
    expect(html).toMatch(/<a href="\/products"[^>]*>Products<\/a>/);
  });

  it("sends someone who may not change the catalogue to a manager", () => {
    const html = section([], false);
    expect(text(html)).toContain(
      "GTIN 09999999999993 is not in the catalogue. Choose the product below, and ask a manager to add the GTIN to its variation.",
    );
    expect(html).not.toContain("Attach GTIN");
  });
});
