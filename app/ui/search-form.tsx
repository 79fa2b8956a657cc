// The search-and-filter bar above a list: a GET form (works before JavaScript loads, and the URL
// keeps the filters), a search box, filter selects, Search and, once filtered, Clear.
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { INPUT } from "~/products/fields";
import { Button } from "./form";

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

export function SearchBox({ value, placeholder }: { value: string; placeholder: string }) {
  return (
    <div className="flex min-w-64 flex-[2] flex-col gap-1">
      <label htmlFor="q" className="font-medium text-sm">
        Search
      </label>
      <input id="q" name="q" type="search" defaultValue={value} placeholder={placeholder} className={INPUT} />
    </div>
  );
}

export function FilterSelect({
  name,
  label,
  value,
  options,
  narrow = false,
}: {
  name: string;
  label: string;
  value: string;
  /** In order; the one meaning "no filter" has the value "" (or the default the loader applies). */
  options: readonly { value: string; label: string }[];
  narrow?: boolean;
}) {
  return (
    <div className={`flex ${narrow ? "min-w-32" : "min-w-40"} flex-1 flex-col gap-1`}>
      <label htmlFor={name} className="font-medium text-sm">
        {label}
      </label>
      <select id={name} name={name} defaultValue={value} className={INPUT}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
