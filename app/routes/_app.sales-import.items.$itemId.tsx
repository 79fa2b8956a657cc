// /sales-import/items/{id}: what one sold item the files named is to the clinic (READ_IMPORTS sees it,
// WRITE_IMPORTS maps it): a service (its recipe says what each sale consumes), a bulk-tracked
// retail product (each sale takes stock), or not stock. The choices are searched, never listed
// whole: a chain's catalogue is thousands of variations. Mapping applies to every line already
// imported, and the page goes back to /sales-import.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { canHere } from "~/access/scope.server";
import { refreshingClientAction } from "~/browser/refresh-after-action";
import { searchText } from "~/forms/text";
import { orOutage } from "~/http/outage.server";
import { done } from "~/http/outcome.server";
import { MapItemForm } from "~/imports/forms";
import { MAPPING_CHOICES, mappingChoicesQueries, mapSaleItem } from "~/imports/map-item.server";
import { area } from "~/shell/areas";
import { Button, Card, ChoiceGroup, Facts, FormAlert } from "~/ui/form";
import { SearchBox, SearchForm } from "~/ui/search-form";

export const meta: MetaFunction = () => [{ title: "Map a sold item · Clinic Inventory" }];

function itemIdOf(params: { itemId?: string }): number {
  const id = Number(params.itemId);
  if (!Number.isSafeInteger(id) || id < 1) throw data("That sold item does not exist.", { status: 404 });
  return id;
}

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/sales-import/items/{id}").permission);
  const id = itemIdOf(args.params);
  const q = searchText(100).parse(new URL(args.request.url).searchParams.get("q") ?? undefined);
  const { db } = args.context;
  const [items, services, variations] = await orOutage(db.batch(mappingChoicesQueries(db, actor, id, q)));
  const item = items[0];
  if (!item) throw data("That sold item does not exist.", { status: 404 });
  return {
    item: { ...item, id: Number(item.id), lines: Number(item.lines), units: Number(item.units) },
    q,
    services,
    variations,
    canMap: canHere(actor, "WRITE_IMPORTS"),
    shown: MAPPING_CHOICES,
  };
}

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_IMPORTS");
  const saleItemId = itemIdOf(args.params);
  const parsed = MapItemForm.safeParse({ ...Object.fromEntries(await args.request.formData()), saleItemId });
  if (!parsed.success) {
    return data({ formError: parsed.error.issues[0]?.message ?? "Check the mapping." }, { status: 400 });
  }
  const outcome = await orOutage(mapSaleItem(args.context.db, actor, parsed.data));
  if (!outcome.ok) {
    if (outcome.refusal === "forbidden") throw data(outcome.message, { status: 403 });
    if (outcome.refusal === "not_found") throw data(outcome.message, { status: 404 });
    return data({ formError: outcome.message }, { status: 409 });
  }
  return done("/sales-import", "Item mapped", "Its lines already imported follow the new mapping.");
}

// Mapping an item changes what the sales mean (retail lines come off the shelf): the import's refresh set.
export const clientAction = refreshingClientAction({ map_item: "import_sales" });

const KIND_WORDS: Record<string, string> = {
  unmapped: "Not yet mapped: its lines are imported and counted as unmapped.",
  service: "Mapped to a service.",
  retail: "Mapped to a retail product.",
  ignored: "Marked not stock.",
};

export default function MapSoldItem() {
  const { item, q, services, variations, canMap, shown } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const path = `/sales-import/items/${item.id}`;
  const options = [
    ...services.map((s) => ({ value: `service:${s.id}`, label: `Service: ${s.name}` })),
    ...variations.map((v) => ({ value: `retail:${v.id}`, label: `Retail: ${v.name}${v.sku ? ` (${v.sku})` : ""}` })),
    { value: "ignored", label: "Not stock (e.g. a fee)" },
  ];
  return (
    <div className="flex flex-col gap-4">
      <p>
        <Link to="/sales-import" className="text-sky-800 text-sm hover:underline">
          ← Sales Import
        </Link>
      </p>
      <h1 className="font-semibold text-2xl">Map {item.name}</h1>
      <Facts
        items={[
          ["Now", KIND_WORDS[item.kind] ?? item.kind],
          ["Lines imported", item.lines.toLocaleString("en-US")],
          ["Sold (net)", item.units.toLocaleString("en-US")],
          ...(item.sku ? [["SKU", item.sku] as [string, string]] : []),
          ...(item.gtin ? [["GTIN", item.gtin] as [string, string]] : []),
        ]}
      />
      <Card title="Find what it is">
        <SearchForm action={path} filtered={q !== ""}>
          <SearchBox value={q} placeholder="Service name or code, product name, SKU or GTIN" />
        </SearchForm>
        <p className="mt-2 text-slate-600 text-sm">
          {q
            ? `The first ${shown} services and retail products matching “${q}”.`
            : `The first ${shown} services by name. Search to find a retail product (tracked in bulk: vials are drawn at the cart, not sold).`}
        </p>
      </Card>
      <Card title="Map it">
        {canMap ? (
          <Form method="post" className="flex flex-col gap-3">
            <ChoiceGroup
              id="target"
              legend={`What ${item.name} is`}
              name="target"
              type="radio"
              options={options}
              checked={() => false}
              error={failure?.formError}
            />
            <FormAlert message={failure?.formError} />
            <div>
              <Button name="intent" value="map_item">
                Map
              </Button>
            </div>
          </Form>
        ) : (
          <p className="text-slate-600 text-sm">Mapping items takes the Imports write permission at this location.</p>
        )}
      </Card>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
