// GET /api/locations/my (spec section 7): the user's locations with their role there:
// [{locationId, role, location: {name, code}}]. Organization admins administer every location.

import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { signedIn } from "~/access/door.server";
import { API_HEADERS } from "~/http/json.server";

export async function loader(args: LoaderFunctionArgs) {
  const user = await signedIn(args);
  return Response.json(user.locationRoles, { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
