// Checking a form in the browser before it is sent, with the same zod schema the server parses it
// with (ADR 0023). On a slow network at the cart or the receiving desk, a wrong value is told under
// its field at once, in the server's own words, instead of after a round trip. Used only where that
// gains something (the draw units, a receipt line). zod weighs about as much as the rest of a page's
// own JavaScript, so the schema is imported after the page is up, never on its first load: until it
// has arrived (or if it never does), the form goes to the server as it always did.
// The server still checks everything: a form sent before JavaScript runs, what only the server knows
// (a product's unit scale, a serial already received), and a forged post.
import { type FormEvent, useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { fieldErrorsOf } from "./field-errors";

/**
 * The problems a person can fix on a form: each field's first message, by field name, when every
 * field named is one they see. Null when the form may go: it passes, or a problem is in a hidden
 * field (an idempotency key, an id), which is the server's to answer the way it always does.
 */
export function problemsBeforeSend(
  schema: z.ZodType,
  sent: Record<string, FormDataEntryValue>,
  shown: ReadonlySet<string>,
): Record<string, string> | null {
  const parsed = schema.safeParse(sent);
  if (parsed.success) return null;
  const problems = fieldErrorsOf(parsed.error);
  return Object.keys(problems).every((name) => shown.has(name)) ? problems : null;
}

/** The names of a form's fields a person sees and can change (not hidden inputs, not buttons). */
function shownFields(form: HTMLFormElement): Set<string> {
  const names = new Set<string>();
  for (const element of Array.from(form.elements)) {
    const { name, type } = element as HTMLInputElement;
    if (name && !["hidden", "submit", "button", "reset"].includes(type)) names.add(name);
  }
  return names;
}

/**
 * A form's check before it is sent: spread `form` on its `<Form>` and show `problems` under the
 * fields in place of the server's (null: show the server's). `load` imports the schema, e.g.
 * `() => import("~/vials/forms").then((m) => m.DrawForm)`, once the page is up (null: the page
 * shows no such form now, so nothing is loaded). A form that passes goes as before; one that does
 * not stays, with the first field in trouble focused.
 */
export function useCheckBeforeSend(load: (() => Promise<z.ZodType>) | null) {
  const schema = useRef<z.ZodType | null>(null);
  const [ready, setReady] = useState(false);
  const [problems, setProblems] = useState<Record<string, string> | null>(null);
  const loader = useRef(load);
  loader.current = load;
  const wanted = load !== null;
  useEffect(() => {
    if (!wanted || schema.current) return;
    let current = true;
    loader
      .current?.()
      .then((loaded) => {
        schema.current = loaded;
        if (current) setReady(true);
      })
      // Offline or a newer deploy: the server checks the form, as before JavaScript.
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [wanted]);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!schema.current) return;
    const form = event.currentTarget;
    const found = problemsBeforeSend(schema.current, Object.fromEntries(new FormData(form)), shownFields(form));
    setProblems(found);
    if (!found) return;
    event.preventDefault();
    const first = Array.from(form.elements).find((element) => (element as HTMLInputElement).name in found);
    (first as HTMLElement | undefined)?.focus();
  }
  /** `data-check`: "ready" once the schema is here (what a browser test waits for). */
  return { problems, form: { onSubmit, "data-check": ready ? "ready" : "loading" } };
}
