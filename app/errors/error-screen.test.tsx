import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { errorFromResponse, NetworkError } from "./classify";
import {
  DatabaseErrorScreen,
  ErrorScreen,
  isReportable,
  reloadTarget,
  SectionErrorFallback,
  TopLevelFallback,
} from "./error-screen";

// Server rendering is what a user sees before JavaScript loads, so these read the HTML.
const noop = () => {};

describe("ErrorScreen", () => {
  it("offers a counted retry for a network error, inside an alert with a heading", () => {
    const html = renderToStaticMarkup(
      <ErrorScreen error={new NetworkError()} errorId="err_1_abcdefgh" retriesUsed={1} onRetry={noop} />,
    );
    expect(html).toContain('role="alert"');
    expect(html).toMatch(/<h1 id="[^"]+"[^>]*>Connection Problem<\/h1>/);
    expect(html).toContain("Unable to connect to the server.");
    expect(html).toContain("Error ID: err_1_abcdefgh");
    expect(html).toMatch(/<button type="submit"[^>]*>Try Again \(2\/3\)<\/button>/);
    expect(html).toMatch(/<button type="submit"[^>]*>Reload Page<\/button>/);
    expect(html).toMatch(/<a href="\/"[^>]*>Go to Dashboard<\/a>/);
  });

  it("disables Try Again once the 3 retries are used, and says what is left to do", () => {
    const html = renderToStaticMarkup(
      <ErrorScreen error={errorFromResponse(503, "DATABASE_ERROR")} errorId="e" retriesUsed={3} onRetry={noop} />,
    );
    expect(html).toContain("Service Unavailable");
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Try Again \(3\/3\)<\/button>/);
    expect(html).toContain("No tries left.");
  });

  it("offers no retry where it cannot help", () => {
    const html = renderToStaticMarkup(
      <ErrorScreen error={errorFromResponse(403, "Not yours")} errorId="e" retriesUsed={0} onRetry={noop} />,
    );
    expect(html).toContain("Access Denied");
    expect(html).not.toContain("Try Again");
    expect(html).toContain("Reload Page");
  });

  it("reloads the current page, query included, before hydration", () => {
    const html = renderToStaticMarkup(
      <ErrorScreen
        error={new NetworkError()}
        errorId="e"
        retriesUsed={0}
        onRetry={noop}
        currentUrl="/products?page=2&q=a%20b"
      />,
    );
    expect(html).toContain('<form method="get" action="/products"');
    expect(html).toContain('<input type="hidden" name="page" value="2"/>');
    expect(html).toContain('<input type="hidden" name="q" value="a b"/>');
  });
});

describe("the other fallbacks", () => {
  it("section: Try Again and Reload Page under a section heading", () => {
    const html = renderToStaticMarkup(<SectionErrorFallback />);
    expect(html).toMatch(/<h2 [^>]*>Something went wrong<\/h2>/);
    expect(html).toContain("This section encountered an error and couldn&#x27;t load properly.");
    expect(html).toContain(">Try Again</button>");
    expect(html).toContain(">Reload Page</button>");
  });

  it("database boundary: the safety notice and Retry Connection", () => {
    const html = renderToStaticMarkup(<DatabaseErrorScreen error={errorFromResponse(503, "Database unavailable")} />);
    expect(html).toContain("Database Connection Issue");
    expect(html).toContain("Data Safety Notice");
    expect(html).toContain("stopped instead of showing you outdated data");
    expect(html).toContain(">Retry Connection</button>");
  });

  it("database boundary: other errors get the plain application error", () => {
    const html = renderToStaticMarkup(<DatabaseErrorScreen error={new TypeError("x is undefined")} />);
    expect(html).toContain("Application Error");
    expect(html).toContain("An unexpected error occurred. Please try refreshing the page.");
    expect(html).not.toContain("Data Safety Notice");
  });

  it("top level: Try Again and Go Home", () => {
    const html = renderToStaticMarkup(<TopLevelFallback currentUrl="/scan" />);
    expect(html).toContain("We&#x27;ve been notified of this issue");
    expect(html).toContain(">Try Again</button>");
    expect(html).toMatch(/<a href="\/"[^>]*>Go Home<\/a>/);
  });
});

describe("reloadTarget", () => {
  it("splits the address into a form action and its query fields", () => {
    expect(reloadTarget("/audit?id=1&id=2")).toEqual({
      action: "/audit",
      fields: [
        ["id", "1"],
        ["id", "2"],
      ],
    });
    expect(reloadTarget("")).toEqual({ action: "", fields: [] });
  });

  it("never leaves the site", () => {
    expect(reloadTarget("https://evil.example/x?y=1").action).toBe("/x");
    expect(reloadTarget("//evil.example/x").action).toBe("/x");
  });
});

describe("what an error screen reports from the browser", () => {
  it.each<[string, unknown, boolean]>([
    ["a network failure", new NetworkError(), true],
    ["a 500", errorFromResponse(500, "boom"), true],
    ["a 503 database outage", errorFromResponse(503, "Database unavailable"), true],
    ["a bug", new TypeError("x is not a function"), true],
    ["a refusal (403)", errorFromResponse(403, "Forbidden"), false],
    ["a refusal (404)", errorFromResponse(404, "Not found"), false],
    ["a 408 the server timed out", errorFromResponse(408, "slow"), false],
    ["nothing", null, false],
    ["undefined", undefined, false],
  ])("%s → %s", (_, error, expected) => {
    expect(isReportable(error)).toBe(expected);
  });
});
