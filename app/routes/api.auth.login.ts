// POST /api/auth/login (spec section 7): JSON {email, password} → {user}, with the session cookie.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { LoginForm } from "~/auth/login-form";
import { commitSessionCookie } from "~/auth/session.server";
import { signIn } from "~/auth/sign-in.server";
import { readJsonObject } from "~/http/api.server";
import { jsonError } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Use POST to sign in.");
  // JSON exactly, within the API's size limit, counted as it streams (415, 413, 400 otherwise).
  const body = await readJsonObject(request);
  const parsed = LoginForm.safeParse(body);
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? "Enter your email and password.");

  const result = await orOutage(
    signIn(context.db, {
      ...parsed.data,
      userAgent: request.headers.get("User-Agent"),
      clientIp: request.headers.get("CF-Connecting-IP"),
    }),
  );
  if (!result.ok) {
    const code = { 401: "invalid_credentials", 403: "account_deactivated", 429: "too_many_attempts" }[result.status];
    return jsonError(result.status, result.message, undefined, code);
  }
  return Response.json(
    { user: result.user, mustChangePassword: result.mustChangePassword },
    { headers: { "Set-Cookie": await commitSessionCookie(context.env, request, result.token) } },
  );
}
