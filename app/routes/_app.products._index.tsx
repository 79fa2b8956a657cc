// /products: the catalogue, 25 a page. Search by name, SKU or manufacturer, or scan/type a
// variation's GTIN or barcode; filter by category, default vendor, tracking and status (GET form).

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { can } from "~/access/permissions";
import { orOutage } from "~/http/outage.server";
import { PRODUCTS_PAGE_SIZE, TRACKING_SHORT } from "~/products/constants";
import { ControlledBadge } from "~/products/controlled-badge";
import { ProductListQuery } from "~/products/forms";
import { listProducts } from "~/products/list.server";
import { area } from "~/shell/areas";
import { LINK_BUTTON, StatusBadge } from "~/ui/form";
import { CategoryFilter, FilterSelect, SearchBox, SearchForm } from "~/ui/search-form";
import { CELL, DataRow, DataTable, NameCell, Pagination } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Products · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/products").permission);
  const query = {
    ...ProductListQuery.parse(Object.fromEntries(new URL(args.request.url).searchParams)),
    pageSize: PRODUCTS_PAGE_SIZE,
  };
  const list = await orOutage(listProducts(args.context.db, actor, query));
  return {
    ...list,
    query: {
      q: query.q,
      category: query.category,
      vendor: query.vendor,
      tracking: query.tracking,
      status: query.status,
    },
    canWrite: can(actor, "WRITE_PRODUCTS", actor.locationId),
  };
}

const _LABEL = "font-medium text-sm";

export default function ProductsScreen() {
  const { products, total, page, pageCount, categories, vendors, query, canWrite } = useLoaderData<typeof loader>();
  const filtered = Boolean(query.q || query.category || query.vendor || query.tracking || query.status !== "active");
  const pageLink = (n: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query))
      if (value && !(key === "status" && value === "active")) params.set(key, value);
    params.set("page", String(n));
    return `/products?${params}`;
  };
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-semibold text-2xl">Products</h1>
          <p className="text-slate-600 text-sm">What the clinic stocks, with its variations and barcodes.</p>
        </div>
        <div className="flex gap-2">
          <Link
            to="/products/par-levels"
            className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-sm hover:bg-slate-100"
          >
            Par levels
          </Link>
          {canWrite && (
            <Link to="/products/new" className={LINK_BUTTON}>
              New product
            </Link>
          )}
        </div>
      </div>

      <SearchForm action="/products" filtered={filtered}>
        <SearchBox value={query.q} placeholder="Name, SKU, manufacturer, GTIN or barcode" />
        <CategoryFilter value={query.category} categories={categories} />
        <FilterSelect
          name="vendor"
          label="Default vendor"
          value={query.vendor}
          options={[
            { value: "", label: "Any vendor" },
            { value: "none", label: "No default vendor" },
            ...vendors.map((v) => ({ value: v.id, label: v.name })),
          ]}
        />
        <FilterSelect
          name="tracking"
          label="Tracking"
          value={query.tracking}
          narrow
          options={[
            { value: "", label: "Any" },
            { value: "serialized", label: "Serialized" },
            { value: "bulk", label: "Bulk" },
          ]}
        />
        <FilterSelect
          name="status"
          label="Status"
          value={query.status}
          narrow
          options={[
            { value: "active", label: "Active" },
            { value: "archived", label: "Archived" },
            { value: "all", label: "All" },
          ]}
        />
      </SearchForm>

      <DataTable
        caption="Products"
        columns={[
          "Name",
          "Category",
          "Tracking",
          "Base unit",
          "Variations",
          "Default vendor",
          { label: "Status", key: true },
        ]}
        rowCount={products.length}
        empty={
          filtered
            ? "No product matches this search and these filters. Clear them to see every product."
            : canWrite
              ? "No products yet. Add the first one with New product."
              : "No products yet."
        }
      >
        {products.map((p) => (
          <DataRow key={p.id}>
            <NameCell to={`/products/${p.id}`} name={p.name}>
              {p.controlled && (
                <>
                  {" "}
                  <ControlledBadge />
                </>
              )}
              {(p.sku || p.manufacturer) && (
                <div className="text-slate-500 text-xs">{[p.sku, p.manufacturer].filter(Boolean).join(" · ")}</div>
              )}
            </NameCell>
            <td className={`${CELL} text-slate-700`}>{p.category}</td>
            <td className={`${CELL} text-slate-700`}>{TRACKING_SHORT[p.tracking]}</td>
            <td className={`${CELL} text-slate-700`}>
              {p.baseUnit}
              {p.unitScale !== 1 && <span className="text-slate-500"> (1/{p.unitScale})</span>}
            </td>
            <td className={`${CELL} text-slate-700`}>{p.variationCount}</td>
            <td className={`${CELL} text-slate-700`}>{p.defaultVendorName ?? "—"}</td>
            <td className={CELL}>
              <StatusBadge active={p.active} labels={["Active", "Archived"]} />
            </td>
          </DataRow>
        ))}
      </DataTable>

      <Pagination page={page} pageCount={pageCount} total={total} noun="products" pageLink={pageLink} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
