// GET /api/auth/me: the signed-in user in the shape the browser keeps (spec section 3), or 401.

import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { currentUserOf } from "~/access/current-user";
import { signedIn } from "~/access/door.server";
import { API_HEADERS } from "~/http/json.server";

export async function loader(args: LoaderFunctionArgs) {
  const user = await signedIn(args);
  return Response.json({ user: currentUserOf(user) }, { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
