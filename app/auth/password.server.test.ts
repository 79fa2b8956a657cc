import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, PBKDF2_ITERATIONS, verifyPassword } from "./password.server";

describe("password hashing", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const stored = await hashPassword("demo-password");
    expect(await verifyPassword("demo-password", stored)).toBe(true);
    expect(await verifyPassword("demo-passwore", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("stores the algorithm and its parameters, with a fresh salt each time", async () => {
    const a = await hashPassword("same");
    const b = await hashPassword("same");
    expect(a).toMatch(new RegExp(`^pbkdf2-sha256\\$${PBKDF2_ITERATIONS}\\$[A-Za-z0-9+/=]+\\$[A-Za-z0-9+/=]+$`));
    expect(a).not.toBe(b);
  });

  it("asks for a rehash of weaker or unknown hashes only", async () => {
    const stored = await hashPassword("x");
    expect(needsRehash(stored)).toBe(false);
    expect(needsRehash(stored.replace(`$${PBKDF2_ITERATIONS}$`, "$1000$"))).toBe(true);
    expect(needsRehash("md5$abc")).toBe(true);
  });

  it("refuses malformed stored hashes instead of throwing", async () => {
    expect(await verifyPassword("x", "")).toBe(false);
    expect(await verifyPassword("x", "pbkdf2-sha256$nope$AA==$AA==")).toBe(false);
  });
});
