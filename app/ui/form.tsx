// The one field family of every form (Epic Stack's app/components/forms.tsx is the model): a
// visible label tied to its control, the hint and the errors under it and named by
// aria-describedby (hint first, then errors), aria-invalid on a refused value. Plain elements, so
// every form is server-rendered and works before JavaScript loads. On a phone each control is full
// width, 16px text (iOS zooms into anything smaller) and at least 40px tall for a thumb; the focus
// ring is the global :focus-visible outline of app/tailwind.css.
import { Form, Link, useNavigation } from "@remix-run/react";
import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { RoleBadge } from "~/ui/role-badge";

export type FieldErrors = Record<string, string | undefined>;

const CONTROL =
  "min-h-10 rounded-md border border-slate-300 bg-white px-3 py-2 text-base aria-invalid:border-red-500 disabled:bg-slate-100";
/** The look of a full-width control outside this family (search boxes, filters). */
export const INPUT = `w-full ${CONTROL}`;

type Errors = string | readonly string[] | null | undefined;
const listOf = (errors: Errors): readonly string[] => (typeof errors === "string" ? [errors] : (errors ?? []));

/** The messages under a field (or a group), one line each; `id` is what aria-describedby names. */
export function ErrorList({ id, errors }: { id: string; errors?: Errors }) {
  const list = listOf(errors);
  if (!list.length) return null;
  return (
    <div id={id} className="flex flex-col gap-0.5 text-red-700 text-sm">
      {list.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

function Hint({ id, hint }: { id: string; hint?: ReactNode }) {
  if (!hint) return null;
  return (
    <p id={id} className="text-slate-500 text-xs">
      {hint}
    </p>
  );
}

/** aria-invalid and aria-describedby of a control: its hint, its errors, and any it names itself. */
function wiring(
  id: string,
  hint: ReactNode,
  errors: readonly string[],
  own?: { invalid?: unknown; describedBy?: string },
) {
  const describedBy = [hint ? `${id}-hint` : null, errors.length ? `${id}-error` : null, own?.describedBy]
    .filter(Boolean)
    .join(" ");
  return {
    id,
    "aria-invalid": errors.length || own?.invalid ? true : undefined,
    "aria-describedby": describedBy || undefined,
  } as const;
}

interface FieldBase {
  label: ReactNode;
  name: string;
  /** Default: idPrefix + name. */
  id?: string;
  /** Distinguishes the ids of several forms on one page. */
  idPrefix?: string;
  hint?: ReactNode;
  error?: Errors;
  /** Said after the label, e.g. "optional" or "needed for vials". */
  note?: string;
  /** The label is read out but not shown (a cell of an editable table). */
  labelHidden?: boolean;
  /** Classes of the control beside the look; default full width. */
  controlClassName?: string;
  /** Shown under the errors (e.g. a suggested value). */
  children?: ReactNode;
}

/** Label, control, hint, errors: the frame every field shares. */
function Frame({
  id,
  label,
  note,
  hint,
  errors,
  labelHidden,
  extra,
  control,
}: {
  id: string;
  label: ReactNode;
  note?: string;
  hint?: ReactNode;
  errors: readonly string[];
  labelHidden?: boolean;
  extra?: ReactNode;
  control: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className={labelHidden ? "sr-only" : "font-medium text-sm"}>
        {label}
        {note && <span className="font-normal text-slate-500"> ({note})</span>}
      </label>
      {control}
      <Hint id={`${id}-hint`} hint={hint} />
      <ErrorList id={`${id}-error`} errors={errors} />
      {extra}
    </div>
  );
}

/** Splits a field's own props from what goes onto its control. */
function parts<P extends FieldBase & { "aria-describedby"?: string; "aria-invalid"?: unknown }>(props: P) {
  const {
    label,
    name,
    id: ownId,
    idPrefix = "",
    hint,
    error,
    note,
    labelHidden,
    controlClassName = "w-full",
    children,
    "aria-describedby": describedBy,
    "aria-invalid": invalid,
    ...control
  } = props;
  const id = ownId ?? `${idPrefix}${name}`;
  const errors = listOf(error);
  return {
    frame: { id, label, note, hint, errors, labelHidden, extra: children },
    control: {
      ...control,
      ...wiring(id, hint, errors, { invalid, describedBy }),
      name,
      className: `${CONTROL} ${controlClassName}`,
    },
  };
}

type Value = string | number | null | undefined;
type Native<A> = Omit<A, keyof FieldBase | "defaultValue" | "className"> & { defaultValue?: Value };
const shown = (v: Value) => (v === null ? undefined : v);

export type FieldProps = FieldBase &
  Native<InputHTMLAttributes<HTMLInputElement>> & { inputRef?: Ref<HTMLInputElement> };

/** A text-like input; required unless `required={false}`. */
export function Field({ required = true, type = "text", inputRef, defaultValue, ...props }: FieldProps) {
  const { frame, control } = parts(props);
  return (
    <Frame
      {...frame}
      control={<input {...control} ref={inputRef} type={type} required={required} defaultValue={shown(defaultValue)} />}
    />
  );
}

/** A file to upload (a CSV or spreadsheet), in the same frame as every field: label, hint, errors. */
export function FileField(props: Omit<FieldProps, "type" | "defaultValue" | "controlClassName">) {
  return (
    <Field
      {...props}
      type="file"
      controlClassName="w-full file:mr-3 file:min-h-9 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 file:font-medium"
    />
  );
}

export type Option = { value: string; label: string };
export type SelectFieldProps = FieldBase &
  Native<SelectHTMLAttributes<HTMLSelectElement>> & {
    options?: readonly Option[];
    /** Options of their own (optgroups), after `options`. */
    choices?: ReactNode;
  };

export function SelectField({ options = [], choices, defaultValue, ...props }: SelectFieldProps) {
  const { frame, control } = parts(props);
  return (
    <Frame
      {...frame}
      control={
        <select {...control} defaultValue={shown(defaultValue)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
          {choices}
        </select>
      }
    />
  );
}

export function TextareaField({
  defaultValue,
  ...props
}: FieldBase & Native<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  const { frame, control } = parts(props);
  return <Frame {...frame} control={<textarea {...control} defaultValue={shown(defaultValue)} />} />;
}

/** A box to tick, its text as its label (40px tall to tap), errors under it. */
export function CheckboxField({
  label,
  name,
  id,
  error,
  hint,
  ...input
}: { label: ReactNode; name: string; id: string; error?: Errors; hint?: ReactNode } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "type" | "id" | "name"
>) {
  const errors = listOf(error);
  return (
    <div className="flex flex-col gap-1">
      <label className="flex min-h-10 items-center gap-2 text-sm">
        <input {...input} {...wiring(id, hint, errors)} name={name} type="checkbox" className="size-4 shrink-0" />
        {label}
      </label>
      <Hint id={`${id}-hint`} hint={hint} />
      <ErrorList id={`${id}-error`} errors={errors} />
    </div>
  );
}

/** Radio buttons or boxes to tick under one legend, the group's hint and errors named by the fieldset. */
export function ChoiceGroup({
  id,
  legend,
  name,
  type,
  options,
  checked,
  hint,
  error,
}: {
  /** Names the group's hint and errors. */
  id: string;
  legend: string;
  name: string;
  type: "radio" | "checkbox";
  options: readonly Option[];
  checked: (value: string) => boolean;
  hint?: ReactNode;
  error?: Errors;
}) {
  const errors = listOf(error);
  const { "aria-describedby": describedBy } = wiring(id, hint, errors);
  return (
    <fieldset className="flex flex-col gap-1" aria-describedby={describedBy}>
      <legend className="font-medium text-sm">{legend}</legend>
      <div className="flex flex-wrap gap-x-6">
        {options.map((o) => (
          <label key={o.value} className="inline-flex min-h-10 items-center gap-2 text-sm">
            <input type={type} name={name} value={o.value} defaultChecked={checked(o.value)} className="size-4" />
            {o.label}
          </label>
        ))}
      </div>
      <Hint id={`${id}-hint`} hint={hint} />
      <ErrorList id={`${id}-error`} errors={errors} />
    </fieldset>
  );
}

/** One field of a FieldGrid: a Field, or a SelectField when it has options. */
export type FieldSpec =
  | Omit<FieldProps, "idPrefix" | "defaultValue" | "error">
  | (Omit<SelectFieldProps, "idPrefix" | "defaultValue" | "error"> & { options: readonly Option[] });

/** What a FieldGrid shows in its fields: stored or typed values, errors, the form's id prefix. */
export interface GridData {
  values?: Record<string, Value>;
  errors: FieldErrors;
  /** What each field says under it, by name (a spec's own hint wins). */
  hints?: Record<string, ReactNode>;
  idPrefix?: string;
}

/**
 * A row of fields described as data: each shows `values[name]` (what was stored, or typed into a
 * refused form), `hints[name]` and `errors[name]`. `className` sets the columns from `sm` up; a phone stacks them.
 */
export function FieldGrid({
  className,
  fields,
  values,
  errors,
  hints,
  idPrefix,
  children,
}: GridData & {
  className: string;
  fields: readonly FieldSpec[];
  /** Datalists the fields name. */
  children?: ReactNode;
}) {
  return (
    <div className={`grid gap-4 ${className}`}>
      {fields.map((f) => {
        const shared = { idPrefix, defaultValue: values?.[f.name], error: errors[f.name], hint: hints?.[f.name] };
        return "options" in f ? (
          <SelectField key={f.name} {...shared} {...f} />
        ) : (
          <Field key={f.name} {...shared} {...f} />
        );
      })}
      {children}
    </div>
  );
}

/** A record's name (typed by hand) beside one shorter field: how the catalogue and settings forms open. */
export function NameRow({ beside, ...grid }: GridData & { beside: FieldSpec }) {
  return (
    <FieldGrid
      {...grid}
      className="sm:grid-cols-[2fr_1fr]"
      fields={[{ label: "Name", name: "name", autoComplete: "off" }, beside]}
    />
  );
}

/** Suggestions for a text field's `list`. */
export function Suggestions({ id, values }: { id: string; values: readonly string[] }) {
  return (
    <datalist id={id}>
      {values.map((v) => (
        <option key={v} value={v} />
      ))}
    </datalist>
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
  formMethod,
}: {
  children: ReactNode;
  tone?: keyof typeof BUTTON;
  name?: string;
  value?: string;
  disabled?: boolean;
  /** "get" for a button that sends its form to the page's loader (a search inside a form), unchecked. */
  formMethod?: "get";
}) {
  return (
    <button
      type="submit"
      name={name}
      value={value}
      disabled={disabled}
      formMethod={formMethod}
      formNoValidate={formMethod === "get" || undefined}
      className={`inline-flex min-h-10 items-center justify-center rounded-md px-3 py-2 font-medium text-sm disabled:opacity-60 ${BUTTON[tone]}`}
    >
      {children}
    </button>
  );
}

/** A link styled as a button, e.g. "New user". */
export const LINK_BUTTON =
  "inline-flex min-h-10 items-center justify-center rounded-md bg-sky-700 px-3 py-2 font-medium text-sm text-white hover:bg-sky-800";

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
