// What the route × role test files share (tests/workers/permissions*.test.ts, api-bodies.test.ts):
// the demo users' sessions, and the POSTs every screen and API takes. They are several files, not
// one, because each file gets a workerd of its own: under vitest-pool-workers every request in one
// instance costs a little more than the one before (cloudflare/workers-sdk#15446), and one file of
// them all took five minutes on a loaded 2-core machine.
import { expect } from "vitest";
import { saveLocationChoice } from "../../app/access/location-choice.server";
import type { Permission } from "../../app/access/permissions";
import { DEMO_USERS } from "../../scripts/seed/demo";
import { app, BASE, type MyLocation, signInAs } from "./support";

export type Sessions = Map<string, { cookie: string; locations: MyLocation[] }>;

/** Every demo user signed in: their cookie and locations by email; the organization's three locations. */
export async function signInDemoUsers(): Promise<{ sessions: Sessions; allLocations: MyLocation[] }> {
  const sessions: Sessions = new Map();
  for (const user of DEMO_USERS) sessions.set(user.email, await signInAs(user.email));
  const allLocations = sessions.get("owner@demo.clinic")?.locations ?? [];
  expect(allLocations.map((l) => l.location.code).sort()).toEqual(["DTN", "NTH", "WST"]);
  return { sessions, allLocations };
}

export type LocationChoice = { selectedLocationId: string | null; isOrganizationMode: boolean };

/** The cookies of a session, and of a location choice when one is made. */
async function cookiesOf(cookie: string, choice?: LocationChoice) {
  const cookies = [cookie];
  if (choice) cookies.push((await saveLocationChoice(choice)).split(";")[0] ?? "");
  return cookies.join("; ");
}

export async function get(path: string, cookie: string, choice?: LocationChoice) {
  return app().fetch(`${BASE}${path}`, { headers: { Cookie: await cookiesOf(cookie, choice) }, redirect: "manual" });
}

/**
 * Every screen action, posted as a browser form from the app's own origin (app/http/cross-site.server)
 * with the intent that reaches its permission check and nothing else filled in: refused with 403
 * without the permission, and never a 403 (nor a 500: bad input is a 400/404/422 or a redirect) with it.
 * `at: "record"`: the permission is needed at the record's own location (a location screen);
 * `at: "organization"`: only organization admins may (opening a location).
 */
export const SCREEN_POSTS: readonly {
  path: string;
  permission: Permission;
  form?: Record<string, string>;
  at?: "record" | "organization";
}[] = [
  { path: "/inventory/sample-id", permission: "WRITE_INVENTORY", form: { intent: "start" } },
  { path: "/locations/new", permission: "WRITE_LOCATIONS", at: "organization" },
  { path: "/locations/sample-id", permission: "WRITE_LOCATIONS", form: { intent: "update" }, at: "record" },
  { path: "/printer-settings", permission: "WRITE_SETTINGS", form: { intent: "archive" } },
  { path: "/printer-settings/new", permission: "WRITE_SETTINGS" },
  { path: "/printer-settings/sample-id", permission: "WRITE_SETTINGS", form: { intent: "update" } },
  { path: "/products/new", permission: "WRITE_PRODUCTS" },
  { path: "/products/sample-id", permission: "WRITE_PRODUCTS", form: { intent: "update" } },
  { path: "/products/par-levels", permission: "WRITE_PRODUCTS" },
  { path: "/receiving", permission: "WRITE_INVENTORY" },
  { path: "/recalls", permission: "WRITE_PRODUCTS", form: { intent: "mark" } },
  { path: "/receiving/sample-id/add-products", permission: "WRITE_INVENTORY", form: { intent: "cancel" } },
  { path: "/services/new", permission: "WRITE_PRODUCTS" },
  { path: "/stock-levels", permission: "WRITE_INVENTORY", form: { intent: "adjust" } },
  { path: "/services/sample-id", permission: "WRITE_PRODUCTS", form: { intent: "update" } },
  { path: "/users", permission: "WRITE_USERS", form: { intent: "grant-role" } },
  { path: "/users/new", permission: "WRITE_USERS" },
  { path: "/users/sample-id", permission: "WRITE_USERS", form: { intent: "update-names" } },
  { path: "/vendors/new", permission: "WRITE_VENDORS" },
  { path: "/vendors/sample-id", permission: "WRITE_VENDORS", form: { intent: "update" } },
  { path: "/backup-restore", permission: "WRITE_BACKUPS", form: { intent: "restore" } },
  { path: "/transfers", permission: "WRITE_TRANSFERS", form: { intent: "new" } },
  { path: "/transfers", permission: "WRITE_TRANSFERS", form: { intent: "draft_from_suggestion" } },
  { path: "/transfers/sample-id", permission: "WRITE_TRANSFERS", form: { intent: "send" } },
  {
    path: "/transfers/sample-id",
    permission: "WRITE_INVENTORY",
    form: { intent: "receive-scan", labelCode: "V000000000" },
  },
  { path: "/purchase-orders", permission: "WRITE_PURCHASING", form: { intent: "create" } },
  { path: "/purchase-orders/sample-id", permission: "WRITE_PURCHASING", form: { intent: "submit" } },
  { path: "/purchase-orders/sample-id/add-items", permission: "WRITE_PURCHASING", form: { intent: "addLines" } },
];

/** The JSON writes of a vial (WRITE_INVENTORY at the location in scope); "sample-id" is no vial. */
export const API_VIAL_WRITES = ["start", "draw", "empty", "discard"].map((verb) => `/api/vials/sample-id/${verb}`);

/** The /api/* endpoints: sign-in and the writes take a POST; the rest answer it without a server error. */
export const API_POSTS = [
  ...API_VIAL_WRITES,
  "/api/auth/login",
  "/api/auth/me",
  "/api/locations/my",
  "/api/products",
  "/api/product-variations",
  "/api/barcodes/sample-code",
  "/api/stock-levels",
  "/api/stock-adjustments",
  "/api/vials",
  "/api/usage",
  "/api/recalls",
  "/api/recalls/sample-lot",
  "/api/transfers",
  "/api/transfers/sample-id",
  "/api/transfers/sample-id/send",
  "/api/transfers/sample-id/receive",
  "/api/transfers/sample-id/cancel",
  "/api/purchase-orders",
  "/api/purchase-orders/sample-id",
  "/api/purchase-orders/sample-id/lines",
  "/api/purchase-orders/sample-id/submit",
  "/api/purchase-orders/sample-id/revise",
  "/api/purchase-orders/sample-id/cancel",
  "/api/purchase-orders/sample-id/close",
  "/api/reorder-suggestions",
  "/api/imports",
  "/api/imports/sample-id",
  "/api/offline-replays",
  // POST /api/backups and /api/backups/uploads take {}: they make a snapshot or an upload (tests/workers/backups-api.test.ts).
  "/api/backups/sample-id",
  "/api/backups/sample-id/restore",
  "/api/backups/uploads/sample-id/complete",
  "/api/no-such-endpoint",
];

export async function post(path: string, cookie: string, form: Record<string, string>, choice?: LocationChoice) {
  return app().fetch(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(form),
    headers: {
      Cookie: await cookiesOf(cookie, choice),
      // As a browser sends them: the app's own origin, and the host it was asked for.
      Origin: BASE,
      Host: new URL(BASE).host,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    redirect: "manual",
  });
}
