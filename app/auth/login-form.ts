// The login form's rules, shared by the form action, the JSON endpoint and the browser.
import { z } from "zod";

export const LoginForm = z.object({
  email: z
    .string({ error: "Enter your email address." })
    .trim()
    .toLowerCase()
    .min(1, "Enter your email address.")
    .max(254, "That email address is too long.")
    .email("Enter a valid email address, like name@clinic.com."),
  password: z
    .string({ error: "Enter your password." })
    .min(1, "Enter your password.")
    .max(1024, "That password is too long."),
  redirectTo: z.string().optional(),
});

export type LoginInput = z.infer<typeof LoginForm>;

/** Only same-site paths, so a crafted link cannot send a fresh login to another site. */
export function safeRedirect(to: string | null | undefined, fallback = "/"): string {
  if (!to?.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}
