// Money as point-of-sale exports and spreadsheets write it, read into integer cents exactly (string
// arithmetic, never floating point): `$1,234.50`, `-$3.00`, `$-3.00`, `($33.62)` (accounting's
// negative), `12`, `12.5`, with stray spaces anywhere.

export type MoneyResult = { ok: true; cents: number } | { ok: false; message: string };

/** Larger than any one sales line (ten million dollars): a column mix-up, not a sale. */
export const MAX_MONEY_CENTS = 1_000_000_000;

const AMOUNT = /^(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d*))?$/;

export function parseMoney(text: string): MoneyResult {
  let rest = String(text ?? "").replace(/[\s\u00a0]+/g, "");
  if (rest === "") return { ok: false, message: "The amount is empty." };
  const parenthesised = rest.startsWith("(") && rest.endsWith(")");
  if (parenthesised) rest = rest.slice(1, -1);
  // One sign, before or after the dollar sign (`-$3.00`, `$-3.00`, `-3.00`), or the parentheses.
  let minus = false;
  let signs = 0;
  let dollars = 0;
  while (rest.length > 0 && (rest[0] === "-" || rest[0] === "$" || rest[0] === "+")) {
    if (rest[0] === "$") dollars++;
    else {
      signs++;
      minus = rest[0] === "-";
    }
    rest = rest.slice(1);
  }
  if (signs > 1 || dollars > 1 || (parenthesised && signs > 0)) {
    return { ok: false, message: `"${text.trim()}" is not an amount of money: it has more than one sign.` };
  }
  const negative = parenthesised || minus;
  const match = AMOUNT.exec(rest);
  if (!match || rest === "" || rest === ".") {
    return {
      ok: false,
      message: `"${text.trim()}" is not an amount of money: write it like 1234.50, $1,234.50 or -3.00.`,
    };
  }
  const whole = (match[1] ?? "0").replaceAll(",", "");
  const fraction = match[2] ?? "";
  if (fraction.length > 2) {
    return {
      ok: false,
      message: `"${text.trim()}" has ${fraction.length} decimals: an amount of money has at most two (cents).`,
    };
  }
  if (whole.replace(/^0+/, "").length > 10) {
    return { ok: false, message: `"${text.trim()}" is too large for one sales line.` };
  }
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  if (cents > MAX_MONEY_CENTS) return { ok: false, message: `"${text.trim()}" is too large for one sales line.` };
  return { ok: true, cents: negative && cents !== 0 ? -cents : cents };
}
