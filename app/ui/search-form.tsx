// The search-and-filter bar above a list, and the location picker of organization mode: GET forms
// (they work before JavaScript loads, and the URL keeps the choice): search box, filter selects, Search, Clear.
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { VISIBLE_INPUT_PATTERN, VISIBLE_INPUT_TITLE } from "~/forms/characters";
import { Button, Field, SelectField } from "./form";

export function SearchForm({
  action,
  filtered,
  children,
}: {
  action: string;
  /** Whether any filter is set: shows Clear, back to `action`. */
  filtered: boolean;
  children: ReactNode;
}) {
  return (
    <Form method="get" action={action} role="search" className="flex flex-wrap items-end gap-3">
      {children}
      <div className="flex gap-2">
        <Button tone="secondary">Search</Button>
        {filtered && (
          <Link
            to={action}
            className="inline-flex items-center rounded-md px-3 py-2 font-medium text-sky-800 text-sm hover:underline"
          >
            Clear
          </Link>
        )}
      </div>
    </Form>
  );
}

export function SearchBox({ value, placeholder, error }: { value: string; placeholder: string; error?: string }) {
  return (
    <div className="min-w-64 flex-[2]">
      <Field
        label="Search"
        name="q"
        type="search"
        required={false}
        defaultValue={value}
        placeholder={placeholder}
        pattern={VISIBLE_INPUT_PATTERN}
        title={VISIBLE_INPUT_TITLE}
        error={error}
      />
    </div>
  );
}

export function FilterSelect({
  name,
  label,
  value,
  options,
  narrow = false,
  error,
}: {
  name: string;
  label: string;
  value: string;
  /** What is wrong with the value asked for (a filter that cannot be used is said, not dropped). */
  error?: string;
  /** In order; the one meaning "no filter" has the value "" (or the default the loader applies). */
  options: readonly { value: string; label: string }[];
  narrow?: boolean;
}) {
  return (
    <div className={`${narrow ? "min-w-32" : "min-w-40"} flex-1`}>
      <SelectField label={label} name={name} defaultValue={value} options={options} error={error} />
    </div>
  );
}

/** Organization mode on a location-bound screen: which location to show (a GET form, so the URL keeps it). */
export function LocationPicker({
  action,
  locations,
  selected,
  submitLabel,
}: {
  action: string;
  locations: readonly { id: string; name: string; code: string }[];
  selected: string | undefined;
  submitLabel: string;
}) {
  return (
    <Form method="get" action={action} className="flex flex-wrap items-end gap-2">
      <SelectField
        label="Location"
        name="location"
        defaultValue={selected ?? ""}
        choices={
          <>
            <option value="" disabled>
              Choose a location…
            </option>
            {locations.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name} ({l.code})
              </option>
            ))}
          </>
        }
      />
      <Button tone="secondary">{submitLabel}</Button>
    </Form>
  );
}

/** The catalogue's category filter: every category in use, or all of them. */
export function CategoryFilter({
  value,
  categories,
  error,
}: {
  value: string;
  categories: readonly string[];
  error?: string;
}) {
  return (
    <FilterSelect
      name="category"
      label="Category"
      value={value}
      error={error}
      options={[{ value: "", label: "All categories" }, ...categories.map((c) => ({ value: c, label: c }))]}
    />
  );
}

/**
 * The product filter of a long list: a search by name, SKU or code, because a select of every
 * product weighs hundreds of KiB once a chain has thousands. A product already chosen by id (a
 * link from its page) shows by name, with "All products" to drop it.
 */
export function ProductFilter({
  search,
  chosen,
  allLabel = "All products",
  error,
}: {
  /** The `product` text searched for. */
  search: string;
  /** The product (or variation) the `productId` / `variationId` named, with its field name. */
  chosen: { name: "productId" | "variationId"; id: string; label: string } | null;
  allLabel?: string;
  /** What is wrong with the search asked for. */
  error?: string;
}) {
  return (
    <>
      {chosen && (
        <FilterSelect
          name={chosen.name}
          label="Product"
          value={chosen.id}
          options={[
            { value: chosen.id, label: chosen.label },
            { value: "", label: allLabel },
          ]}
        />
      )}
      <div className="min-w-40 flex-1">
        <Field
          label={chosen ? "Or search products" : "Product"}
          name="product"
          type="search"
          required={false}
          defaultValue={search}
          placeholder="Name, SKU or barcode"
          autoComplete="off"
          error={error}
        />
      </div>
    </>
  );
}

/** A log's From and To dates: whole days, which the loader reads in the location's time zone. */
export function DateRangeFields({
  from,
  to,
  errors,
}: {
  from: string | undefined;
  to: string | undefined;
  errors: { from?: string; to?: string };
}) {
  return (
    <>
      <div className="min-w-36 flex-1">
        <Field label="From" name="from" type="date" required={false} defaultValue={from} error={errors.from} />
      </div>
      <div className="min-w-36 flex-1">
        <Field label="To" name="to" type="date" required={false} defaultValue={to} error={errors.to} />
      </div>
    </>
  );
}
