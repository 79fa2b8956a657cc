import { describe, expect, it } from "vitest";
import { madeBySentence, madeByText, restorable, sizeText } from "./words";

describe("sizeText", () => {
  it("reads bytes in powers of 1,000 with about three figures", () => {
    expect(sizeText(null)).toBe("—");
    expect(sizeText(812)).toBe("812 B");
    expect(sizeText(14_230)).toBe("14.2 KB");
    expect(sizeText(3_140_000)).toBe("3.14 MB");
    expect(sizeText(1_250_000_000)).toBe("1.25 GB");
    expect(sizeText(999_999)).toBe("1.00 MB");
  });
});

describe("madeByText", () => {
  it("names the schedule, the user, or the uploader", () => {
    expect(madeByText("schedule", null)).toBe("Nightly schedule");
    expect(madeByText("user", "Olivia Owner")).toBe("Olivia Owner");
    expect(madeByText("upload", "Olivia Owner")).toBe("Uploaded by Olivia Owner");
    expect(madeBySentence("schedule", null)).toBe("Made by the nightly schedule");
    expect(madeBySentence("user", "Olivia Owner")).toBe("Made by Olivia Owner");
    expect(madeBySentence("upload", null)).toBe("Uploaded by a former user");
  });
});

describe("restorable", () => {
  it("takes ready snapshots, uploads not yet rehearsed, never a failed rehearsal", () => {
    expect(restorable({ status: "ready", rehearsal: { status: "passed" } })).toBe(true);
    expect(restorable({ status: "ready", rehearsal: { status: "pending" } })).toBe(true);
    expect(restorable({ status: "ready", rehearsal: { status: "failed" } })).toBe(false);
    expect(restorable({ status: "writing", rehearsal: { status: null } })).toBe(false);
    expect(restorable({ status: "deleted", rehearsal: { status: "passed" } })).toBe(false);
  });
});
