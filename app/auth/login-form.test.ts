import { describe, expect, it } from "vitest";
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

describe("safeRedirect", () => {
  it("keeps same-site paths and drops everything else", () => {
    expect(safeRedirect("/products?page=2")).toBe("/products?page=2");
    expect(safeRedirect("//evil.example")).toBe("/");
    expect(safeRedirect("https://evil.example")).toBe("/");
    expect(safeRedirect("/\\evil")).toBe("/");
    expect(safeRedirect(undefined)).toBe("/");
  });
});
