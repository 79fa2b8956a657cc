// The one rule every text field follows, whatever form or JSON body it comes in: no character that
// would be stored without being seen. A NUL was kept whole, echoed, then read back cut at the NUL
// (so a search never found it); zero-width and bidi-override characters made two values that look
// the same differ, or a value read in another order than it was stored. Every schema builds its
// text fields from the helpers below, then chains its own trim/min/max/regex as before.
// Browser-safe (zod only); the rule itself is ./characters, which a screen may import without zod.
import { TEXT_MESSAGES, UNSEEN_GLOBAL, unseenCharacter } from "./characters";
import { z } from "./zod";

export { TEXT_MESSAGES, unseenCharacter };

const refuseUnseen = (multiline: boolean) => (value: string, ctx: z.RefinementCtx) => {
  const char = unseenCharacter(value, multiline);
  if (char !== null) ctx.addIssue({ code: "custom", message: TEXT_MESSAGES.unseen(char), abort: true });
};

type StringParams = Parameters<typeof z.string>[0];

/**
 * A text field on one line (a name, a code, an id chosen from a list): refused when it holds a
 * control or invisible character, else composed (NFC, so "é" typed two ways is one value). Chain
 * the field's own rules after it: `line({ error }).trim().min(1, ...).max(100, ...)`.
 */
export const line = (params?: StringParams) => z.string(params).superRefine(refuseUnseen(false)).normalize("NFC");

/** A multi-line note: as `line`, but newlines (a textarea's CRLF read as one) and tabs are kept. */
export const lines = (params?: StringParams) =>
  z
    .string(params)
    .overwrite((v) => v.replace(/\r\n?/g, "\n"))
    .superRefine(refuseUnseen(true))
    .normalize("NFC");

/** A one-line field that may be left empty: trimmed, and "" (or only spaces) becomes null. */
export const optionalLine = (max: number, tooLong: string) =>
  line()
    .trim()
    .max(max, tooLong)
    .default("")
    .transform((v) => v || null);

/** A note that may be left empty: as `optionalLine`, keeping its newlines. */
export const optionalLines = (max: number, tooLong: string) =>
  lines()
    .trim()
    .max(max, tooLong)
    .default("")
    .transform((v) => v || null);

/**
 * A password, kept exactly as typed: never trimmed nor normalized (it is compared as typed), and
 * invisible characters are its owner's business since it is never shown; control characters
 * (NUL, escape...) are refused, as no keyboard types them and some stores cut at a NUL.
 */
export const secret = (params?: StringParams) =>
  z.string(params).superRefine((value, ctx) => {
    for (const char of value) {
      if (/\p{Cc}/u.test(char)) {
        ctx.addIssue({ code: "custom", message: TEXT_MESSAGES.unseen(char), abort: true });
        return;
      }
    }
  });

/**
 * A search or filter box (from the address bar): the characters a field refuses are dropped, so
 * the search finds what the person saw, and anything else odd is no filter. A list never fails to
 * load over its search box.
 */
export const searchText = (max: number) => filterText(max, "").catch("");

/**
 * A numbered list's `?page=` (from the address bar): a whole number from 1 to 100,000, anything
 * else the first page. Bounded so its OFFSET stays an integer SQLite takes (1e20 would not).
 */
export const pageNumber = () => z.coerce.number().int().min(1).max(100_000).catch(1);

/**
 * A list filter whose value must be usable (issue 18.10): its invisible characters dropped as a
 * search box's are, but a value too long is refused with `tooLong`, said next to the filter, never
 * quietly read as no filter. Absent is "".
 */
export const filterText = (max: number, tooLong: string) =>
  z
    .string({ error: tooLong })
    .transform((v) => v.replace(UNSEEN_GLOBAL, "").normalize("NFC").trim())
    .pipe(z.string().max(max, tooLong))
    .default("");
