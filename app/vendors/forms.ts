// The vendor forms' rules, one zod schema each, shared by the route actions and the tests.
// Server only: the pages import ./constants, never this module.
import { z } from "zod";
import { line, lines, optionalLine, pageNumber, searchText } from "~/forms/text";
import { LEAD_TIME_MAX_DAYS, VENDOR_STATUS_FILTERS } from "./constants";

export const VENDOR_MESSAGES = {
  name: "Enter the vendor's name.",
  nameTooLong: "The name is too long (at most 200 characters).",
  accountNumber: "Use letters, digits, spaces and - . / # only in the account number.",
  accountNumberTooLong: "The account number is too long (at most 50 characters).",
  contactNameTooLong: "The contact name is too long (at most 100 characters).",
  email: "Enter a valid email address, like orders@vendor.com, or leave it empty.",
  emailTooLong: "That email address is too long.",
  phone: "Enter a phone number with digits, spaces, + ( ) . or -, like (555) 123-4567; add an extension as x123.",
  phoneTooLong: "The phone number is too long (at most 40 characters).",
  leadTime: `Enter the lead time as a whole number of days from 0 to ${LEAD_TIME_MAX_DAYS}, or leave it empty.`,
  notesTooLong: "The notes are too long (at most 2000 characters).",
  version: "This form is out of date. Reload the page and try again.",
} as const;

const PHONE = /^\+?[0-9().\-\s]+(?:\s*(?:x|ext\.?)\s*\d{1,6})?$/i;

export const VendorForm = z.object({
  name: line({ error: VENDOR_MESSAGES.name }).trim().min(1, VENDOR_MESSAGES.name).max(200, VENDOR_MESSAGES.nameTooLong),
  accountNumber: optionalLine(50, VENDOR_MESSAGES.accountNumberTooLong).refine(
    (v) => v === null || /^[A-Za-z0-9][A-Za-z0-9 ./#-]*$/.test(v),
    VENDOR_MESSAGES.accountNumber,
  ),
  contactName: optionalLine(100, VENDOR_MESSAGES.contactNameTooLong),
  email: line()
    .trim()
    .toLowerCase()
    .max(254, VENDOR_MESSAGES.emailTooLong)
    .default("")
    .refine((v) => v === "" || z.email().safeParse(v).success, VENDOR_MESSAGES.email)
    .transform((v) => v || null),
  phone: optionalLine(40, VENDOR_MESSAGES.phoneTooLong).refine((v) => {
    if (v === null) return true;
    const digits = v.replace(/\D/g, "").length;
    return PHONE.test(v) && digits >= 7 && digits <= 20;
  }, VENDOR_MESSAGES.phone),
  leadTimeDays: z
    .string()
    .trim()
    .default("")
    .transform((text, ctx) => {
      if (text === "") return null;
      const days = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
      if (!(days >= 0 && days <= LEAD_TIME_MAX_DAYS)) {
        ctx.addIssue({ code: "custom", message: VENDOR_MESSAGES.leadTime });
        return z.NEVER;
      }
      return days;
    }),
  notes: lines()
    .trim()
    .max(2000, VENDOR_MESSAGES.notesTooLong)
    .default("")
    .transform((v) => v || null),
});
export type VendorInput = z.output<typeof VendorForm>;

/** The edit form names the version it started from: a save over someone else's change is refused. */
export const VendorEditForm = VendorForm.extend({
  version: z.coerce
    .number({ error: VENDOR_MESSAGES.version })
    .int(VENDOR_MESSAGES.version)
    .min(1, VENDOR_MESSAGES.version),
});
export type VendorEditInput = z.output<typeof VendorEditForm>;

/** `?q=&status=&page=` of the vendors list, forgiving of anything odd in the address bar. */
export const VendorListQuery = z.object({
  q: searchText(100),
  status: z.enum(VENDOR_STATUS_FILTERS).catch("active"),
  page: pageNumber(),
});
export type VendorListQueryInput = z.output<typeof VendorListQuery>;
