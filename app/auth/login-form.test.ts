import { describe, expect, it } from "vitest";
import { REDIRECT_BYPASSES } from "../../tests/support/redirect-bypasses";
import { LoginForm, safeRedirect } from "./login-form";

describe("login form", () => {
  it("normalises the email so sign-in is case-insensitive", () => {
    const parsed = LoginForm.parse({ email: "  Owner@Demo.Clinic ", password: "x" });
    expect(parsed.email).toBe("owner@demo.clinic");
  });

  it("says which field is missing", () => {
    const result = LoginForm.safeParse({ email: "", password: "" });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => i.message);
    expect(messages).toContain("Enter your email address.");
    expect(messages).toContain("Enter your password.");
  });

  it("refuses a malformed email with an example of a good one", () => {
    const result = LoginForm.safeParse({ email: "owner", password: "x" });
    expect(result.error?.issues[0]?.message).toBe("Enter a valid email address, like name@clinic.com.");
  });
});

const ORIGIN = "https://clinic.example";

describe("safeRedirect", () => {
  it("keeps same-site paths with their query and fragment", () => {
    expect(safeRedirect("/products?page=2", ORIGIN)).toBe("/products?page=2");
    expect(safeRedirect("/products/abc#variations", ORIGIN)).toBe("/products/abc#variations");
    expect(safeRedirect("/products?q=botox%20100", ORIGIN)).toBe("/products?q=botox%20100");
    expect(safeRedirect("/", ORIGIN)).toBe("/");
    expect(safeRedirect("/a/../receiving", ORIGIN)).toBe("/receiving");
  });

  it.each(REDIRECT_BYPASSES)("refuses %j", (target) => {
    expect(safeRedirect(target, ORIGIN)).toBe("/");
  });

  it("falls back when there is no target, and to the fallback given", () => {
    expect(safeRedirect(undefined, ORIGIN)).toBe("/");
    expect(safeRedirect(null, ORIGIN, "/dashboard")).toBe("/dashboard");
    expect(safeRedirect("//evil.example", ORIGIN, "/dashboard")).toBe("/dashboard");
  });

  it("answers only a path, never a scheme or host, even for this very origin", () => {
    expect(safeRedirect(`${ORIGIN}/products`, ORIGIN)).toBe("/");
  });
});
