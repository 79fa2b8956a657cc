// Reading what a manufacturer's GS1 barcode says (GS1 DataMatrix on vials and syringes, GS1-128 on
// cartons): the product (AI 01 GTIN), lot (10), expiry (17) and serial (21). A keyboard-wedge
// scanner types the element string; people sometimes type the bracketed form printed under it.

import { gtinCheckDigit } from "~/catalog/gtin";
import { codePointOf, unseenCharacter } from "~/forms/characters";

/** Group separator (ASCII 29): FNC1 as scanners transmit it between variable-length fields. */
export const GS = "\u001d";

/** Fixed data lengths by AI (GS1 General Specifications, figure 5.10.1-2); others are variable. */
const FIXED_LENGTH: Record<string, number> = {
  "00": 18,
  "01": 14,
  "02": 14,
  "03": 14,
  "04": 16,
  "11": 6,
  "12": 6,
  "13": 6,
  "15": 6,
  "16": 6,
  "17": 6,
  "18": 6,
  "19": 6,
  "20": 2,
  "31": 6,
  "32": 6,
  "33": 6,
  "34": 6,
  "35": 6,
  "36": 6,
  "41": 13,
};

/** Length of the AI itself, by its first two digits (e.g. 3103 and 241 are longer than 2). */
function aiLength(prefix: string): number {
  const first = prefix[0];
  if (prefix >= "31" && prefix <= "36") return 4;
  if (prefix === "23" || prefix === "24" || prefix === "25" || prefix === "40" || prefix === "41" || prefix === "42")
    return 3;
  if (prefix === "71") return 3;
  if (first === "7") return 4;
  if (prefix === "80" || prefix === "81" || prefix === "82") return 4;
  return 2;
}

const MAX_VARIABLE_LENGTH = 90;

/**
 * GS1 AI encodable character set 82 (GS1 General Specifications, section 7.11, figure 7.11-1):
 * the characters AI (10) lot and AI (21) serial may hold, "X..20" (section 3.2, their format), i.e. at most
 * 20 of: ! " % & ' ( ) * + , - . / 0-9 : ; < = > ? A-Z _ a-z. Exactly this set, not all printable
 * ASCII: a lot or serial typed by hand must be one a manufacturer's barcode can carry, so a later
 * scan finds it (the scan page matches lot and serial as read), and a label can print it in a GS1
 * code. No space, #, $, @, [, \, ], ^, `, {, |, }, ~, and nothing outside ASCII (an emoji lot).
 */
const CSET_82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]*$/;
export const GS1_LOT_MAX = 20;
export const GS1_SERIAL_MAX = 20;
export const GS1_CSET_82_SHOWN = `! " % & ' ( ) * + , - . / : ; < = > ? _`;

export const GS1_TEXT_MESSAGES = {
  lotTooLong: `A lot number has at most ${GS1_LOT_MAX} characters.`,
  lotCharacters: `A lot number holds only what a GS1 barcode can: letters A–Z and a–z, digits and ${GS1_CSET_82_SHOWN}, no spaces.`,
  serialTooLong: `A serial number has at most ${GS1_SERIAL_MAX} characters.`,
  serialCharacters: `A serial number holds only what a GS1 barcode can: letters A–Z and a–z, digits and ${GS1_CSET_82_SHOWN}, no spaces.`,
} as const;

/** Whether `value` is made only of GS1 character set 82 (lot and serial; any length). */
export function isCset82(value: string): boolean {
  return CSET_82.test(value);
}

/** What is wrong with a lot (AI 10) or serial (AI 21) as typed or read, or null when it is one GS1 allows. */
export function lotOrSerialProblem(kind: "lot" | "serial", value: string): string | null {
  const M = GS1_TEXT_MESSAGES;
  if (!isCset82(value)) return kind === "lot" ? M.lotCharacters : M.serialCharacters;
  const max = kind === "lot" ? GS1_LOT_MAX : GS1_SERIAL_MAX;
  if (value.length > max) return kind === "lot" ? M.lotTooLong : M.serialTooLong;
  return null;
}

export interface Gs1Reading {
  /** Every element string found, AI → value. */
  fields: Record<string, string>;
  gtin?: string;
  lot?: string;
  /** AI 17 as an ISO date (YYYY-MM-DD); day 00 means the last day of the month. */
  expirationDate?: string;
  serial?: string;
}

export type Gs1Result =
  | { ok: true; reading: Gs1Reading }
  /** `correctedGtin`: the GTIN with the check digit its other digits call for, when that was the problem. */
  | { ok: false; message: string; correctedGtin?: string };

const SYMBOLOGY_IDENTIFIER = /^\][A-Za-z][0-9A-Za-z]/;

/**
 * Parses a scanned or typed GS1 element string. Accepts the raw form with FNC1 as GS (ASCII 29),
 * the bracketed human-readable form "(01)…(17)…", and a leading symbology identifier such as
 * "]d2" (DataMatrix), "]C1" (GS1-128) or "]Q3" (QR).
 */
export function parseGs1(input: string, today = new Date()): Gs1Result {
  let text = input.trim().replace(SYMBOLOGY_IDENTIFIER, "");
  if (text.startsWith(GS)) text = text.slice(1);
  if (text.length === 0) return { ok: false, message: "The scan was empty. Scan the barcode again." };

  const fields = text.startsWith("(") ? readBracketed(text) : readRaw(text);
  if (typeof fields === "string") return { ok: false, message: fields };

  const reading: Gs1Reading = { fields };
  if (fields["01"] !== undefined) reading.gtin = fields["01"];
  if (fields["10"] !== undefined) reading.lot = fields["10"];
  if (fields["21"] !== undefined) reading.serial = fields["21"];
  if (fields["17"] !== undefined) {
    const date = gs1Date(fields["17"], today);
    if (!date) return { ok: false, message: `The expiry date "${fields["17"]}" (AI 17) is not a valid YYMMDD date.` };
    reading.expirationDate = date;
  }
  if (reading.gtin !== undefined && !/^\d{14}$/.test(reading.gtin)) {
    return { ok: false, message: "The product number (AI 01) must be 14 digits." };
  }
  if (reading.gtin !== undefined) {
    // A misread or mistyped digit: caught here, before any lookup or an offer to attach it.
    const expected = gtinCheckDigit(reading.gtin.slice(0, -1));
    if (Number(reading.gtin.slice(-1)) !== expected) {
      const corrected = `${reading.gtin.slice(0, -1)}${expected}`;
      return {
        ok: false,
        message: `The product number (AI 01) ${reading.gtin} has a wrong check digit: with these digits it should end in ${expected}. Scan the barcode again, or type the number printed under it.`,
        correctedGtin: corrected,
      };
    }
  }
  return { ok: true, reading };
}

function readBracketed(text: string): Record<string, string> | string {
  const fields: Record<string, string> = {};
  const pattern = /\((\d{2,4})\)([^(]*)/gy;
  let consumed = 0;
  for (const match of text.matchAll(pattern)) {
    const [whole, ai, value] = match as unknown as [string, string, string];
    const problem = checkField(ai, value);
    if (problem) return problem;
    fields[ai] = value;
    consumed += whole.length;
  }
  if (consumed !== text.length) return "This does not read as a GS1 code: expected (AI)value pairs such as (01)…(17)….";
  return fields;
}

function readRaw(text: string): Record<string, string> | string {
  const fields: Record<string, string> = {};
  let at = 0;
  while (at < text.length) {
    if (text[at] === GS) {
      at++;
      continue;
    }
    const prefix = text.slice(at, at + 2);
    if (!/^\d{2}$/.test(prefix))
      return `This does not read as a GS1 code: no application identifier at "${text.slice(at, at + 10)}".`;
    const ai = text.slice(at, at + aiLength(prefix));
    at += ai.length;
    const fixed = FIXED_LENGTH[prefix];
    let value: string;
    if (fixed !== undefined) {
      value = text.slice(at, at + fixed);
      at += fixed;
    } else {
      const end = text.indexOf(GS, at);
      value = text.slice(at, end === -1 ? text.length : end);
      at += value.length;
    }
    const problem = checkField(ai, value);
    if (problem) return problem;
    fields[ai] = value;
  }
  return fields;
}

function checkField(ai: string, value: string): string | null {
  const fixed = FIXED_LENGTH[ai.slice(0, 2)];
  if (fixed !== undefined && value.length !== fixed) {
    return `The value of AI ${ai} should have ${fixed} characters, not ${value.length}. Scan the code again.`;
  }
  if (value.length === 0) return `AI ${ai} has no value. Scan the code again.`;
  if (value.length > MAX_VARIABLE_LENGTH) return `The value of AI ${ai} is too long.`;
  if (value.includes(GS)) return `AI ${ai} contains a separator in its value.`;
  const unseen = unseenCharacter(value);
  if (unseen !== null)
    return `AI ${ai} contains an invisible or control character (${codePointOf(unseen)}). Scan the code again.`;
  // The lot and serial are kept and printed: they must be what GS1 allows there (see CSET_82).
  if (ai === "10" || ai === "21") {
    const problem = lotOrSerialProblem(ai === "10" ? "lot" : "serial", value);
    if (problem)
      return `${problem} This barcode's ${ai === "10" ? "lot (AI 10)" : "serial (AI 21)"} does not: scan the code again, or type the ${ai === "10" ? "lot" : "serial"} printed on the package.`;
  }
  return null;
}

/**
 * YYMMDD → YYYY-MM-DD. The century follows the GS1 sliding window (General Specifications 7.12):
 * within 49 years ahead or 50 years behind today. Day 00 is the last day of the month.
 */
export function gs1Date(yymmdd: string, today = new Date()): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  let day = Number(yymmdd.slice(4, 6));
  const currentYear = today.getUTCFullYear();
  const current = currentYear % 100;
  let century = currentYear - current;
  const difference = yy - current;
  if (difference >= 51) century -= 100;
  else if (difference <= -50) century += 100;
  const year = century + yy;
  if (month < 1 || month > 12) return null;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day === 0) day = lastDay;
  if (day > lastDay) return null;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
