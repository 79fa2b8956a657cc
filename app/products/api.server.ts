// The catalogue API's gate (spec section 7): READ_PRODUCTS where asked, as every read API checks it.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { requireApiReader } from "~/access/api-reader.server";

export async function requireCatalogReader(args: { request: Request; context: AppLoadContext }) {
  const { actor, searchParams } = await requireApiReader(args, "READ_PRODUCTS");
  return { actor, params: Object.fromEntries(searchParams) };
}
