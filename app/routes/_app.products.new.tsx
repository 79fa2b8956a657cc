// /products/new: add a product to the catalogue (WRITE_PRODUCTS at the location in scope).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FORBIDDEN, requirePermission } from "~/access/guard.server";
import { orOutage } from "~/db/outage.server";
import { createProduct } from "~/products/create.server";
import { ProductForm } from "~/products/forms";
import { productFormChoices } from "~/products/list.server";
import { ProductFields } from "~/products/product-fields";
import { fieldErrorsOf } from "~/ui/field-errors";
import { flashToast } from "~/ui/flash.server";
import { NewRecordScreen } from "~/ui/form";

export const meta: MetaFunction = () => [{ title: "New product · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const { user } = await requirePermission(args, "WRITE_PRODUCTS");
  return orOutage(productFormChoices(args.context.db, user));
}

export async function action(args: ActionFunctionArgs) {
  const viewer = await requirePermission(args, "WRITE_PRODUCTS");
  const parsed = ProductForm.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) return data({ fieldErrors: fieldErrorsOf(parsed.error), formError: null }, { status: 400 });

  const actor = { ...viewer.user, locationId: viewer.scope.locationId };
  const result = await orOutage(createProduct(args.context.db, actor, parsed.data));
  if (!result.ok) {
    if (result.refusal === "forbidden") throw data(FORBIDDEN, { status: 403 });
    const field =
      result.refusal === "sku_taken" ? "sku" : result.refusal === "vendor_unavailable" ? "defaultVendorId" : null;
    return data(
      { fieldErrors: field ? { [field]: result.message } : {}, formError: field ? null : result.message },
      { status: 409 },
    );
  }
  return redirect(`/products/${result.productId}`, {
    headers: {
      "Set-Cookie": await flashToast({
        title: "Product created",
        description: `${parsed.data.name} is in the catalogue. Add its variations and barcodes here.`,
      }),
    },
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
