import { describe, expect, it } from "vitest";
import { codePointOf } from "./characters";
import { line, lines, optionalLine, optionalLines, searchText, secret, TEXT_MESSAGES, unseenCharacter } from "./text";

const messages = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message);

describe("the text rule", () => {
  it.each([
    ["NUL", "\u0000"],
    ["escape", "\u001b"],
    ["tab on one line", "\t"],
    ["DEL", "\u007f"],
    ["C1 next line", "\u0085"],
    ["zero-width space", "\u200b"],
    ["zero-width non-joiner", "\u200c"],
    ["left-to-right mark", "\u200e"],
    ["right-to-left override", "\u202e"],
    ["first strong isolate", "\u2068"],
    ["byte order mark", "\ufeff"],
    ["soft hyphen", "\u00ad"],
    ["word joiner", "\u2060"],
    ["tag", "\u{e0001}"],
    ["paragraph separator", "\u2029"],
    ["private use", "\u{f0000}"],
    ["lone surrogate", "\udc00"],
  ])("refuses a %s on one line, naming it", (_kind, char) => {
    expect(unseenCharacter(`ab${char}cd`)).toBe(char);
    expect(messages(line().safeParse(`ab${char}cd`))).toEqual([TEXT_MESSAGES.unseen(char)]);
  });

  it("names the character by its code point", () => {
    expect(codePointOf("\u0000")).toBe("U+0000");
    expect(codePointOf("\u{e0041}")).toBe("U+E0041");
    expect(TEXT_MESSAGES.unseen("\u200b")).toContain("(U+200B)");
  });

  it("keeps letters of every script, emoji, accents and ordinary spaces", () => {
    for (const text of ["Dr. Zoë O'Brien", "東京 クリニック", "محمد", "Botox® 100 U 💉", "a\u00a0b"]) {
      expect(line().parse(text)).toBe(text);
    }
    // A joined emoji holds a zero-width joiner, refused like any other: "Bo\u200dtox" must not pass for "Botox".
    expect(line().safeParse("\u{1f469}\u200d\u2695").success).toBe(false);
  });

  it("stores one spelling of an accent (NFC), so a search finds it however it was typed", () => {
    expect(line().parse("Zoe\u0308")).toBe("Zoë");
  });

  it("lets a multi-line note keep its newlines and tabs, a textarea's CRLF read as one", () => {
    expect(lines().parse("line 1\r\nline 2\n\tindented")).toBe("line 1\nline 2\n\tindented");
    expect(messages(lines().safeParse("note\u0000"))).toEqual([TEXT_MESSAGES.unseen("\u0000")]);
    expect(messages(lines().safeParse("note\u202e"))).toEqual([TEXT_MESSAGES.unseen("\u202e")]);
  });

  it("keeps a password exactly as typed, but refuses control characters", () => {
    expect(secret().parse("  spaced out \u200b ")).toBe("  spaced out \u200b ");
    expect(messages(secret().safeParse("pass\u0000word"))).toEqual([TEXT_MESSAGES.unseen("\u0000")]);
    expect(messages(secret().safeParse("pass\tword"))).toEqual([TEXT_MESSAGES.unseen("\t")]);
  });

  it("drops what a search box cannot search for, instead of failing the list", () => {
    expect(searchText(100).parse("Bo\u200btox\u0000 ")).toBe("Botox");
    expect(searchText(5).parse("toolong")).toBe("");
    expect(searchText(100).parse(42)).toBe("");
  });
});

describe("optional fields", () => {
  it("trim, turn empty or only spaces (or a field left out) into null, and keep what is typed", () => {
    const field = optionalLine(10, "Too long.");
    expect(field.parse("  Acme  ")).toBe("Acme");
    expect(field.parse("   ")).toBeNull();
    expect(field.parse(undefined)).toBeNull();
    expect(messages(field.safeParse("x".repeat(11)))).toEqual(["Too long."]);
    expect(messages(field.safeParse("a\u200bb"))).toEqual([TEXT_MESSAGES.unseen("\u200b")]);
  });

  it("keep a note's newlines and refuse a line's", () => {
    expect(optionalLines(20, "Too long.").parse(" one\r\ntwo ")).toBe("one\ntwo");
    expect(optionalLines(20, "Too long.").parse("")).toBeNull();
    expect(optionalLine(20, "Too long.").safeParse("one\ntwo").success).toBe(false);
  });
});
