// /products/new: add a product to the catalogue (WRITE_PRODUCTS at the location in scope).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { orOutage } from "~/http/outage.server";
import { done, invalid, refused } from "~/http/outcome.server";
import { createProduct } from "~/products/create.server";
import { ProductForm } from "~/products/forms";
import { productFormChoices } from "~/products/list.server";
import { ProductFields } from "~/products/product-fields";
import { NewRecordScreen } from "~/ui/form";

export const meta: MetaFunction = () => [{ title: "New product · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, "WRITE_PRODUCTS");
  return orOutage(productFormChoices(args.context.db, actor));
}

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_PRODUCTS");
  const parsed = ProductForm.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) return invalid(parsed.error);

  const result = await orOutage(createProduct(args.context.db, actor, parsed.data));
  if (!result.ok) {
    return refused(result, {}, { fields: { sku_taken: "sku", vendor_unavailable: "defaultVendorId" } });
  }
  return done(`/products/${result.productId}`, {
    title: "Product created",
    description: `${parsed.data.name} is in the catalogue. Add its variations and barcodes here.`,
  });
}

export default function NewProductScreen() {
  const { categories, vendors } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <NewRecordScreen
      noun="product"
      back={{ to: "/products", label: "Products" }}
      cardTitle="Product"
      formError={result?.formError}
      wide
    >
      <ProductFields errors={result?.fieldErrors ?? {}} categories={categories} vendors={vendors} />
    </NewRecordScreen>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
