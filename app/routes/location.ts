// POST /location: switch the location the user works at, or to organization mode (spec section 4).
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import { signedIn } from "~/access/door.server";
import { saveLocationChoice } from "~/access/location-choice.server";
import { isOrganizationAdmin } from "~/access/permissions";
import { FORBIDDEN } from "~/outcome";
import { flashToast } from "~/ui/flash.server";

export const loader = () => redirect("/");

const Switch = z.union([
  z.object({ organization: z.literal("1") }),
  z.object({ locationId: z.string().min(1, "Choose a location.") }),
]);

export async function action(args: ActionFunctionArgs) {
  const user = await signedIn(args);
  const parsed = Switch.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) throw new Response("Choose a location or the organization view.", { status: 400 });

  let choice: { selectedLocationId: string | null; isOrganizationMode: boolean };
  let toast: { title: string; description: string };
  if ("organization" in parsed.data) {
    if (!isOrganizationAdmin(user)) throw new Response(FORBIDDEN, { status: 403 });
    choice = { selectedLocationId: null, isOrganizationMode: true };
    toast = { title: "Organization Mode", description: "Switched to organization-wide view" };
  } else {
    const { locationId } = parsed.data;
    const target = user.locationRoles.find((r) => r.locationId === locationId);
    if (!target) throw new Response(FORBIDDEN, { status: 403 });
    choice = { selectedLocationId: locationId, isOrganizationMode: false };
    toast = { title: "Location Changed", description: `Switched to ${target.location.name}` };
  }

  // Any switch returns to the dashboard (spec section 4).
  const headers = new Headers();
  headers.append("Set-Cookie", await saveLocationChoice(choice));
  headers.append("Set-Cookie", await flashToast(toast));
  return redirect("/", { headers });
}
