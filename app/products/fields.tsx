// Inputs of the catalogue forms: the shared field look (label, hint, error under it, wired with
// aria-describedby) plus what those forms need beyond app/ui/form.tsx: datalists, input modes,
// selects with hints, several messages under one field.
import type { ReactNode } from "react";

export const INPUT =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base aria-invalid:border-red-500 disabled:bg-slate-100";

function describedBy(id: string, hint?: ReactNode, errors?: readonly string[]) {
  return [hint ? `${id}-hint` : null, errors?.length ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

export function Messages({ id, errors }: { id: string; errors?: readonly string[] }) {
  if (!errors?.length) return null;
  return (
    <div id={`${id}-error`} className="flex flex-col gap-0.5 text-red-700 text-sm">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

function Hint({ id, hint }: { id: string; hint?: ReactNode }) {
  if (!hint) return null;
  return (
    <p id={`${id}-hint`} className="text-slate-500 text-xs">
      {hint}
    </p>
  );
}

export function TextField({
  id,
  label,
  name,
  defaultValue,
  error,
  hint,
  list,
  inputMode,
  placeholder,
  required = false,
  whenOptional = "optional",
}: {
  id: string;
  label: string;
  name: string;
  /** What the label says of a field that is not required (e.g. "needed for vials"). */
  whenOptional?: string;
  defaultValue?: string | number | null;
  error?: string;
  hint?: ReactNode;
  list?: string;
  inputMode?: "text" | "decimal" | "numeric";
  placeholder?: string;
  required?: boolean;
}) {
  const errors = error ? [error] : undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium text-sm">
        {label}
        {!required && <span className="font-normal text-slate-500"> ({whenOptional})</span>}
      </label>
      <input
        id={id}
        name={name}
        type="text"
        defaultValue={defaultValue ?? undefined}
        list={list}
        inputMode={inputMode}
        placeholder={placeholder}
        autoComplete="off"
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, errors)}
        className={INPUT}
      />
      <Hint id={id} hint={hint} />
      <Messages id={id} errors={errors} />
    </div>
  );
}

export function ChoiceField({
  id,
  label,
  name,
  options,
  defaultValue,
  error,
  hint,
}: {
  id: string;
  label: string;
  name: string;
  options: readonly { value: string; label: string }[];
  defaultValue?: string;
  error?: string;
  hint?: ReactNode;
}) {
  const errors = error ? [error] : undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium text-sm">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, errors)}
        className={INPUT}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Hint id={id} hint={hint} />
      <Messages id={id} errors={errors} />
    </div>
  );
}

/** A read-only field list: label, value. */
export function Facts({ items }: { items: readonly [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
      {items.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-slate-600">{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
