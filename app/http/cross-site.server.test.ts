import { describe, expect, it } from "vitest";
import { isCrossSiteWrite } from "./cross-site.server";

const post = (headers: Record<string, string>) =>
  new Request("https://clinic.example/login", { method: "POST", headers });

describe("cross-site write guard", () => {
  it("lets reads through whatever their origin", () => {
    expect(
      isCrossSiteWrite(new Request("https://clinic.example/", { headers: { Origin: "https://evil.example" } })),
    ).toBe(false);
  });

  it("accepts a write from our own origin", () => {
    expect(isCrossSiteWrite(post({ Origin: "https://clinic.example" }))).toBe(false);
    expect(isCrossSiteWrite(post({ "Sec-Fetch-Site": "same-origin" }))).toBe(false);
  });

  it("refuses a write from another origin or an opaque one", () => {
    expect(isCrossSiteWrite(post({ Origin: "https://evil.example" }))).toBe(true);
    expect(isCrossSiteWrite(post({ Origin: "http://clinic.example" }))).toBe(true);
    expect(isCrossSiteWrite(post({ Origin: "null" }))).toBe(true);
    expect(isCrossSiteWrite(post({ "Sec-Fetch-Site": "cross-site" }))).toBe(true);
  });

  it("accepts a write from a non-browser client that sends neither header", () => {
    expect(isCrossSiteWrite(post({}))).toBe(false);
  });
});
