import { describe, expect, it } from "vitest";
import { scrubSecrets } from "./report.server";

describe("scrubSecrets", () => {
  it("removes every secret field the spec names, at any depth", () => {
    const scrubbed = scrubSecrets({
      email: "a@b.c",
      password: "p",
      nested: { currentPassword: "1", newPassword: "2", confirmPassword: "3", keep: 1 },
      list: [{ token: "t", apiKey: "k", secret: "s", name: "n" }],
    });
    expect(scrubbed).toEqual({ email: "a@b.c", nested: { keep: 1 }, list: [{ name: "n" }] });
  });
});
