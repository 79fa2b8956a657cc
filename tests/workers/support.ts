// What the workerd test files share: the app worker as a fetcher, and signing in as a demo user.
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";

export const BASE = "http://clinic.test";
export const app = () => (exports as unknown as { default: Fetcher }).default;

export interface MyLocation {
  locationId: string;
  role: "ADMIN" | "MANAGER" | "STAFF";
  location: { name: string; code: string };
}

/** Signs in through POST /api/auth/login: the session cookie and the user's locations. */
export async function signInAs(email: string): Promise<{ cookie: string; locations: MyLocation[] }> {
  const response = await app().fetch(`${BASE}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  expect(response.status).toBe(200);
  const cookie = (response.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
  const mine = await app().fetch(`${BASE}/api/locations/my`, { headers: { Cookie: cookie } });
  return { cookie, locations: (await mine.json()) as MyLocation[] };
}

/** A GET as the signed-in `cookie` (redirects are answers to check, not to follow). */
export function get(path: string, cookie = "") {
  return app().fetch(`${BASE}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
}

/** A form post from the app's own pages (same origin), as the browser sends it. */
export function postForm(path: string, cookie: string, fields: Record<string, string>) {
  return app().fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: BASE, Host: "clinic.test", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

/** The product form of a serialized toxin, 24 h beyond use, as /products/new and its edit send it; `extra` on top. */
export function toxinFields(name: string, sku: string, category: string, extra: Record<string, string> = {}) {
  return {
    name,
    sku,
    category,
    manufacturer: "Workerd Labs",
    defaultVendorId: "",
    tracking: "serialized",
    baseUnit: "U",
    unitScale: "1",
    beyondUseHours: "24",
    storage: "refrigerated",
    cost: "400.00",
    price: "",
    ...extra,
  };
}

/** A product with one "100 U vial" variation, made on the product screens as `cookie`: both ids. */
export async function createProduct(
  cookie: string,
  fields: Record<string, string>,
  gtin = "",
): Promise<{ productId: string; variationId: string }> {
  const created = await postForm("/products/new", cookie, fields);
  expect(created.status).toBe(302);
  const productId = (created.headers.get("Location") ?? "").split("/").pop() ?? "";
  const variation = await postForm(`/products/${productId}`, cookie, {
    intent: "variation-create",
    name: "100 U vial",
    sku: "",
    gtin,
    unitScale: "1",
    unitsPerPackage: "100",
    cost: "",
  });
  expect(variation.status).toBe(302);
  return { productId, variationId: (variation.headers.get("Location") ?? "").split("#variation-").pop() ?? "" };
}
