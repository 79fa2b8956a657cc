import { describe, expect, it } from "vitest";
import type { ErrorClass } from "./classify";
import {
  DATABASE_BOUNDARY_OTHER_ERROR,
  DATABASE_ERROR,
  ERROR_SCREENS,
  errorIdLine,
  GLOBAL_RETRY_DELAY_MS,
  GLOBAL_RETRY_LIMIT,
  SECTION_ERROR,
  TOP_LEVEL_ERROR,
  tryAgainButton,
} from "./screens";

describe("error screen texts (spec section 8)", () => {
  it.each<[ErrorClass, string, string]>([
    [
      "network",
      "Connection Problem",
      "Unable to connect to the server. Please check your internet connection and try again.",
    ],
    [
      "database",
      "Service Unavailable",
      "Our service is temporarily unavailable. We are working to restore it as quickly as possible.",
    ],
    [
      "validation",
      "Data Validation Error",
      "There was a problem with the data provided. Please refresh and try again.",
    ],
    [
      "permission",
      "Access Denied",
      "You do not have permission to access this resource. Please contact your administrator.",
    ],
    ["unknown", "Application Error", "An unexpected error occurred. We have been notified and are working to fix it."],
  ])("%s: %s", (errorClass, title, message) => {
    expect(ERROR_SCREENS[errorClass]).toEqual({ title, message });
  });

  it("has the section, database and top-level texts", () => {
    expect(SECTION_ERROR).toEqual({
      title: "Something went wrong",
      message: "This section encountered an error and couldn't load properly.",
    });
    expect(DATABASE_ERROR).toEqual({
      title: "Database Connection Issue",
      message:
        "Unable to connect to the database. This ensures you don't see outdated or incorrect information. Please check your connection and try again.",
    });
    expect(DATABASE_BOUNDARY_OTHER_ERROR).toEqual({
      title: "Application Error",
      message: "An unexpected error occurred. Please try refreshing the page.",
    });
    expect(TOP_LEVEL_ERROR).toEqual({
      title: "Something went wrong",
      message:
        "We've been notified of this issue and will look into it. Please try refreshing the page or contact support if the problem persists.",
    });
  });

  it("shows the error id", () => {
    expect(errorIdLine("err_1_abcdefgh")).toBe("Error ID: err_1_abcdefgh");
  });
});

describe("the global Try Again button", () => {
  it("allows 3 retries, 1 second apart", () => {
    expect(GLOBAL_RETRY_LIMIT).toBe(3);
    expect(GLOBAL_RETRY_DELAY_MS).toBe(1000);
  });

  it.each([
    [0, "Try Again (1/3)", false],
    [1, "Try Again (2/3)", false],
    [2, "Try Again (3/3)", false],
    [3, "Try Again (3/3)", true],
    [7, "Try Again (3/3)", true],
  ])("after %i retries reads %s (disabled: %s)", (retriesUsed, label, disabled) => {
    expect(tryAgainButton("network", retriesUsed)).toEqual({ label, disabled });
    expect(tryAgainButton("database", retriesUsed)).toEqual({ label, disabled });
  });

  it.each<ErrorClass>(["validation", "permission", "unknown"])("is not offered for %s errors", (errorClass) => {
    expect(tryAgainButton(errorClass, 0)).toBeNull();
  });
});
