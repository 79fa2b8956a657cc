import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { BreakerStatus } from "~/browser/breaker-status";
import { BANNER_TEXT, ConnectivityBannerView } from "./banner";

const closed: BreakerStatus = { state: "closed", operation: null, nextAttemptAt: null };
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe("the connectivity banner", () => {
  it("shows nothing while online with every breaker closed", () => {
    expect(renderToStaticMarkup(<ConnectivityBannerView state="online" breaker={closed} />)).toBe("");
  });

  it("says offline what still works and what waits", () => {
    const html = text(renderToStaticMarkup(<ConnectivityBannerView state="offline" breaker={closed} />));
    expect(html).toBe(`${BANNER_TEXT.offlineTitle} ${BANNER_TEXT.offline}`);
    expect(html).toContain("Starts, draws, empties, discards and counts are saved here");
    expect(html).toContain("Receiving, transfers, imports and admin screens wait");
  });

  it("says when an open breaker lets the server be asked again, as H:mm in the browser's zone", () => {
    const at = new Date(2026, 10, 27, 9, 5, 0).getTime();
    const open: BreakerStatus = { state: "open", operation: "GET /health", nextAttemptAt: at };
    const html = text(renderToStaticMarkup(<ConnectivityBannerView state="offline" breaker={open} />));
    expect(html).toContain("The server is not answering; retrying at 9:05.");
    // Even online (the queue's own calls can trip a breaker while /health answers), it shows.
    expect(text(renderToStaticMarkup(<ConnectivityBannerView state="online" breaker={open} />))).toBe(
      "The server is not answering; retrying at 9:05.",
    );
  });

  it("says the server is being tried again while half-open, and that the screen is refreshed once back", () => {
    const trying: BreakerStatus = { state: "half-open", operation: "GET /health", nextAttemptAt: 1 };
    expect(text(renderToStaticMarkup(<ConnectivityBannerView state="offline" breaker={trying} />))).toContain(
      BANNER_TEXT.halfOpen,
    );
    expect(text(renderToStaticMarkup(<ConnectivityBannerView state="restored" breaker={closed} />))).toBe(
      BANNER_TEXT.restored,
    );
  });
});
