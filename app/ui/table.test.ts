import { describe, expect, it } from "vitest";
import { cardCss } from "./table";

describe("phone cards of the list table", () => {
  const css = cardCss("t1", ["Location", { label: "Product", title: true }, { label: "Status", key: true }, "Lot", ""]);
  const rule = (n: number) => css.match(new RegExp(`td:nth-child\\(${n}\\):not\\(\\[colspan\\]\\)\\{([^}]*)\\}`))?.[1];

  it("applies below the sm breakpoint only, to this table only", () => {
    expect(css.startsWith("@media (width < 40rem){")).toBe(true);
    expect(css.match(/\[data-table="t1"\]/g)).toHaveLength(8); // five cells, three labels
  });

  it("heads the card with the title column, then key columns, then the rest, actions last", () => {
    expect(rule(2)).toBe("order:-2");
    expect(rule(3)).toBe("order:-1;padding-left:8.5rem");
    expect(rule(1)).toBe("order:0;padding-left:8.5rem");
    expect(rule(5)).toBe("order:1");
  });

  it("labels every other cell with its column's header; the title and actions go unlabelled", () => {
    expect(css).toContain('td:nth-child(3):not([colspan])::before{content:"Status"}');
    expect(css).toContain('td:nth-child(1):not([colspan])::before{content:"Location"}');
    expect(css).not.toContain("nth-child(2):not([colspan])::before");
    expect(css).not.toContain("nth-child(5):not([colspan])::before");
  });

  it("quotes labels so none can end the rule or the <style> element", () => {
    const odd = cardCss("t2", ["Name", 'Say "hi" </style>']);
    expect(odd).toContain('content:"Say \\"hi\\" \\3c /style>"');
    expect(odd).not.toContain("</style");
  });
});
