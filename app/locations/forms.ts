// The location form's rules, shared by the route actions and the pages.
import { z } from "zod";
import { line } from "~/forms/text";

/** The IANA name as the runtime spells it (e.g. "america/new_york" → "America/New_York"), or null. */
export function canonicalTimeZone(name: string): string | null {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export const LocationForm = z.object({
  name: line({ error: "Enter the location's name." })
    .trim()
    .min(1, "Enter the location's name.")
    .max(100, "The name is too long (at most 100 characters)."),
  // Printed on labels and typed by staff: short, upper-case letters and digits.
  code: line({ error: "Enter a code, like DTN." })
    .trim()
    .toUpperCase()
    .min(1, "Enter a code, like DTN.")
    .regex(/^[A-Z0-9]{2,8}$/, "Use 2 to 8 letters (A–Z) or digits (0–9), like DTN."),
  address: line()
    .trim()
    .max(300, "The address is too long (at most 300 characters).")
    .default("")
    .transform((a) => a || null),
  timezone: line({ error: "Enter a time zone, like America/New_York." })
    .trim()
    .min(1, "Enter a time zone, like America/New_York.")
    .transform((name, ctx) => {
      const canonical = canonicalTimeZone(name);
      if (!canonical) {
        ctx.addIssue({ code: "custom", message: "Unknown time zone. Use an IANA name, like America/New_York." });
        return z.NEVER;
      }
      return canonical;
    }),
});
export type LocationInput = z.output<typeof LocationForm>;
