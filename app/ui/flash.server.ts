// A toast that survives a redirect: the action sets it, the next page's loader reads and clears
// it. Works before JavaScript loads, like every form here.
import { createCookie } from "@remix-run/cloudflare";
import { z } from "zod";

const Toast = z.object({
  id: z.string().default(() => crypto.randomUUID()),
  title: z.string().max(200),
  description: z.string().max(500).optional(),
  tone: z.enum(["success", "info", "error"]).default("success"),
});
export type FlashToast = z.input<typeof Toast>;

const flashCookie = createCookie("flash", { httpOnly: true, sameSite: "lax", path: "/", maxAge: 60 });

/** The Set-Cookie value that shows `toast` on the next page. */
export function flashToast(toast: FlashToast): Promise<string> {
  return flashCookie.serialize(Toast.parse(toast));
}

/** The pending toast, if any, and the Set-Cookie value that clears it. */
export async function takeFlashToast(request: Request) {
  const raw: unknown = await flashCookie.parse(request.headers.get("Cookie"));
  const parsed = Toast.safeParse(raw);
  if (!parsed.success) return { toast: null, clear: null };
  return { toast: parsed.data, clear: await flashCookie.serialize("", { maxAge: 0 }) };
}
