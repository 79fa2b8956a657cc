// Where a toast goes (issue 18.14): away from a field being typed in, else at the bottom, so on a
// phone it does not sit over the page's title because a button up there or down here had focus.
import { describe, expect, it } from "vitest";
import { sideAwayFrom, takesTyping } from "./toast";

describe("the toast's side", () => {
  it("moves to the top only to clear a field in the lower half", () => {
    expect(sideAwayFrom(null, 844)).toBe("bottom");
    expect(sideAwayFrom({ top: 700, bottom: 740 }, 844)).toBe("top");
    expect(sideAwayFrom({ top: 100, bottom: 140 }, 844)).toBe("bottom");
  });

  it.each([
    [{ tagName: "INPUT", type: "text" }, true],
    [{ tagName: "INPUT", type: "number" }, true],
    [{ tagName: "INPUT", type: "search" }, true],
    [{ tagName: "TEXTAREA" }, true],
    [{ tagName: "SELECT" }, true],
    [{ tagName: "DIV", isContentEditable: true }, true],
    [{ tagName: "BUTTON", type: "submit" }, false],
    [{ tagName: "INPUT", type: "submit" }, false],
    [{ tagName: "INPUT", type: "checkbox" }, false],
    [{ tagName: "A" }, false],
  ])("%o is typed in: %s", (element, typing) => {
    expect(takesTyping(element)).toBe(typing);
  });
});
