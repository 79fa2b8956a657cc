import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { clearSessionCookie, getSessionUser } from "~/auth/session.server";
import { signOut } from "~/auth/sign-in.server";

// Logging out changes state, so it is a POST only; a GET (a link, an <img>) just goes home.
export const loader = () => redirect("/");

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await getSessionUser(context.env, context.db, request);
  if (user) await signOut(context.db, user);
  return redirect("/login", { headers: { "Set-Cookie": await clearSessionCookie(context.env, request) } });
}
