import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Countdown, countdownText } from "./countdown";

const NOW = new Date("2026-11-22T12:00:00Z");
const later = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const H = 60 * 60 * 1000;
const M = 60 * 1000;

// What the server sends is what a user reads before JavaScript loads, and what the browser's first
// render must repeat: the text for the loader's `now`, not the clock at render time.
describe("Countdown", () => {
  it.each([
    [later(2 * 24 * H + 3 * H + 10 * M), "2d 3h left"],
    [later(5 * H + 12 * M + 30_000), "5h 12m left"],
    [later(42 * M + 59_000), "42m left"],
    [later(30_000), "0m left"],
    [NOW.toISOString(), "Expired"],
    [later(-5 * M), "Expired"],
  ])("renders %s as %s on the server", (deadline, text) => {
    const html = renderToString(<Countdown deadline={deadline} now={NOW} />);
    expect(html).toContain(`>${text}</time>`);
    expect(html).toContain('role="timer"');
    expect(html).toContain(`dateTime="${new Date(deadline).toISOString()}"`);
    expect(html.includes("data-expired")).toBe(text === "Expired");
  });

  it("reads a missing or invalid deadline as expired, as the spec reports invalid dates", () => {
    expect(countdownText(null, NOW)).toBe("Expired");
    expect(countdownText("not a date", NOW)).toBe("Expired");
    expect(renderToString(<Countdown deadline={null} now={NOW} />)).toContain(">Expired</time>");
  });

  it("counts from the instant it is given, whatever form it takes (Date, ISO text, epoch ms)", () => {
    const deadline = new Date(NOW.getTime() + 90 * M);
    for (const now of [NOW, NOW.toISOString(), NOW.getTime()]) {
      expect(renderToString(<Countdown deadline={deadline} now={now} />)).toContain(">1h 30m left</time>");
    }
  });
});
