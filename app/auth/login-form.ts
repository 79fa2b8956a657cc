// The login form's rules, shared by the form action, the JSON endpoint and the browser.
import { z } from "zod";
import { line, secret } from "~/forms/text";

export const LoginForm = z.object({
  email: line({ error: "Enter your email address." })
    .trim()
    .toLowerCase()
    .min(1, "Enter your email address.")
    .max(254, "That email address is too long.")
    .email("Enter a valid email address, like name@clinic.com."),
  password: secret({ error: "Enter your password." })
    .min(1, "Enter your password.")
    .max(1024, "That password is too long."),
  /** Checked again by safeRedirect; a value with an invisible character is no redirect, not a refused sign-in. */
  redirectTo: line().optional().catch(undefined),
});

export type LoginInput = z.infer<typeof LoginForm>;

// Control characters, whitespace (browsers strip tabs and newlines from URLs, so "/\t/x" becomes
// "//x") and backslashes (read as "/" by browsers).
const UNSAFE = /[\p{Cc}\s\\]/u;

/** `to` percent-decoded until it no longer changes, or null if it never settles or is malformed. */
function fullyDecoded(to: string): string | null {
  let current = to;
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}

/**
 * Where to go after signing in: `to` if it is a path on `origin`, else `fallback`, so a crafted
 * link cannot send a fresh login to another site. Answers only pathname, search and hash, never a
 * scheme or host. The decoded path is checked too, for proxies and servers that decode before
 * routing; the decoded query may hold spaces (a search for "botox 100"), which cannot change the
 * origin once the path is a plain one.
 */
export function safeRedirect(to: string | null | undefined, origin: string, fallback = "/"): string {
  if (!to?.startsWith("/") || to.startsWith("//") || UNSAFE.test(to)) return fallback;
  const decodedPath = fullyDecoded(to.split(/[?#]/, 1)[0] ?? "");
  if (decodedPath === null || decodedPath.startsWith("//") || UNSAFE.test(decodedPath)) return fallback;
  let url: URL;
  try {
    url = new URL(to, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== new URL(origin).origin) return fallback;
  const path = url.pathname + url.search + url.hash;
  return path.startsWith("//") || path.startsWith("/\\") ? fallback : path;
}
