// Form pieces of the administration screens (users, locations, change password): labelled inputs
// with their error right under them (aria-describedby), a form-level alert, buttons with a
// visible focus ring. Plain elements, so every form works before JavaScript loads.
import { Form, Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { RoleBadge } from "~/ui/role-badge";

export type FieldErrors = Record<string, string | undefined>;

const INPUT =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base aria-invalid:border-red-500 disabled:bg-slate-100";

export function Field({
  label,
  name,
  type = "text",
  defaultValue,
  autoComplete,
  error,
  hint,
  idPrefix = "",
  required = true,
}: {
  label: string;
  name: string;
  type?: string;
  defaultValue?: string | null;
  autoComplete?: string;
  error?: string;
  hint?: string;
  /** Distinguishes the ids of several forms on one page. */
  idPrefix?: string;
  required?: boolean;
}) {
  const id = `${idPrefix}${name}`;
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium text-sm">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={defaultValue ?? undefined}
        autoComplete={autoComplete}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        className={INPUT}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-slate-500 text-xs">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-red-700 text-sm">
          {error}
        </p>
      )}
    </div>
  );
}

export function SelectField({
  label,
  name,
  options,
  defaultValue,
  error,
  idPrefix = "",
}: {
  label: string;
  name: string;
  options: readonly { value: string; label: string }[];
  defaultValue?: string;
  error?: string;
  idPrefix?: string;
}) {
  const id = `${idPrefix}${name}`;
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
        aria-describedby={error ? `${id}-error` : undefined}
        className={INPUT}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="text-red-700 text-sm">
          {error}
        </p>
      )}
    </div>
  );
}

export function FormAlert({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800 text-sm">
      {message}
    </p>
  );
}

const BUTTON = {
  primary: "bg-sky-700 text-white hover:bg-sky-800",
  secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-100",
  danger: "border border-red-300 bg-white text-red-700 hover:bg-red-50",
};

export function Button({
  children,
  tone = "primary",
  name,
  value,
  disabled,
}: {
  children: ReactNode;
  tone?: keyof typeof BUTTON;
  name?: string;
  value?: string;
  disabled?: boolean;
}) {
  return (
    <button
      type="submit"
      name={name}
      value={value}
      disabled={disabled}
      className={`inline-flex items-center justify-center rounded-md px-3 py-2 font-medium text-sm disabled:opacity-60 ${BUTTON[tone]}`}
    >
      {children}
    </button>
  );
}

/** A link styled as a button, e.g. "New user". */
export const LINK_BUTTON =
  "inline-flex items-center justify-center rounded-md bg-sky-700 px-3 py-2 font-medium text-sm text-white hover:bg-sky-800";

export function Card({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  const headingId = id ?? `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-title`;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={headingId} className="mb-3 font-semibold text-lg">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function StatusBadge({
  active,
  labels = ["Active", "Inactive"],
}: {
  active: boolean;
  labels?: [string, string];
}) {
  return (
    <span
      className={`inline-flex items-center rounded px-1.5 py-0.5 font-medium text-xs ring-1 ring-inset ${
        active ? "bg-emerald-50 text-emerald-800 ring-emerald-600/20" : "bg-slate-100 text-slate-600 ring-slate-500/20"
      }`}
    >
      {active ? labels[0] : labels[1]}
    </span>
  );
}

const ORGANIZATION_ADMIN_LABEL = "ORG ADMIN";

/** Organization admins' badge in user lists (grey, like any role other than the three location roles). */
export function OrganizationAdminBadge() {
  return <RoleBadge role={ORGANIZATION_ADMIN_LABEL} />;
}

/** In place of a screen whose record is not there (or not visible from the location in scope). */
export function NotFoundSection({
  title,
  text,
  back,
}: {
  title: string;
  text: string;
  back: { to: string; label: string };
}) {
  return (
    <section aria-labelledby="not-found-title" className="flex flex-col items-start gap-3">
      <h1 id="not-found-title" className="font-semibold text-2xl">
        {title}
      </h1>
      <p className="text-slate-600">{text}</p>
      <a href={back.to} className={LINK_BUTTON}>
        {back.label}
      </a>
    </section>
  );
}

/**
 * Archive or restore a record that history points at: it is hidden, never deleted. One form with
 * the intent the route's action handles ("archive" / "restore").
 */
export function ArchiveCard({
  active,
  noun,
  busy,
  failure,
  archiveText,
  restoreText,
}: {
  active: boolean;
  /** What is archived, lower-case: "vendor". */
  noun: string;
  busy: boolean;
  failure?: string | null;
  archiveText: ReactNode;
  restoreText: ReactNode;
}) {
  return (
    <Card title={active ? "Archive" : "Restore"}>
      <FormAlert message={failure} />
      <Form method="post" className="flex flex-wrap items-center gap-3">
        <p className="text-slate-600 text-sm">{active ? archiveText : restoreText}</p>
        {active ? (
          <Button tone="danger" name="intent" value="archive" disabled={busy}>
            Archive {noun}
          </Button>
        ) : (
          <Button name="intent" value="restore" disabled={busy}>
            Restore {noun}
          </Button>
        )}
      </Form>
    </Card>
  );
}

/** The page that creates one record: back link, heading, the fields, Create and Cancel. */
export function NewRecordScreen({
  noun,
  back,
  cardTitle,
  formError,
  wide,
  children,
}: {
  /** Lower-case: "vendor" makes "New vendor" and "Create vendor". */
  noun: string;
  back: { to: string; label: string };
  cardTitle: string;
  formError?: string | null;
  wide?: boolean;
  children: ReactNode;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className={`flex ${wide ? "max-w-3xl" : "max-w-2xl"} flex-col gap-4`}>
      <div>
        <Link to={back.to} className="text-sky-800 text-sm hover:underline">
          ← {back.label}
        </Link>
        <h1 className="font-semibold text-2xl">New {noun}</h1>
      </div>
      <Card title={cardTitle}>
        <Form method="post" className="flex flex-col gap-4" noValidate>
          <FormAlert message={formError} />
          {children}
          <div className="flex gap-3">
            <Button disabled={busy}>{busy ? "Creating…" : `Create ${noun}`}</Button>
            <Link
              to={back.to}
              className="rounded-md border border-slate-300 bg-white px-3 py-2 font-medium text-sm hover:bg-slate-100"
            >
              Cancel
            </Link>
          </div>
        </Form>
      </Card>
    </div>
  );
}
