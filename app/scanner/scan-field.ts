// A field a scanner types into keeps each scan whole. A keyboard-wedge burst typed into it
// replaces what it held (the last code, half a code typed by hand) instead of running on after it,
// and focusing it selects its code, so the next scan or key replaces it while a second tap or an
// arrow key still lets a person correct it. With `everywhere` (receiving: one place a scan
// belongs), a burst typed anywhere else on the page lands in the field too, and a field it began
// in gets its own text back. With `takesFocus` (a desk scanning package after package) the field
// is focused when it is drawn, but never from under a person already typing in another field: a
// page that finishes loading while a quantity is typed must not move the keys into the scan box.
// Without JavaScript the field is a plain input.
import { type FocusEvent, type MouseEvent, useEffect, useRef } from "react";
import { createBurstWatch } from "./wedge";

type Editable = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** What a field held when a burst began in it, to put back when the burst goes elsewhere. */
interface Before {
  field: Editable;
  value: string;
  selection: [number, number] | null;
}

function editable(target: EventTarget | null): Editable | null {
  const element = target as Element | null;
  return element && ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName) ? (element as Editable) : null;
}

function before(target: EventTarget | null): Before | null {
  const field = editable(target);
  if (!field) return null;
  // Dates, numbers and selects have no text selection to keep.
  const start = "selectionStart" in field ? field.selectionStart : null;
  const end = "selectionEnd" in field ? field.selectionEnd : null;
  return { field, value: field.value, selection: start === null || end === null ? null : [start, end] };
}

function restore({ field, value, selection }: Before) {
  field.value = value;
  if (selection && !(field instanceof HTMLSelectElement)) field.setSelectionRange(...selection);
}

/** The key as the watch reads it: a shortcut (Ctrl+V and the like) types no character. */
const keyOf = (event: KeyboardEvent) => ((event.ctrlKey || event.metaKey) && !event.altKey ? "Shortcut" : event.key);

/** Props for the scan field's input: its ref, and the handlers that select its code on focus. */
export function useScanField({
  everywhere = false,
  takesFocus = false,
}: {
  everywhere?: boolean;
  takesFocus?: boolean;
} = {}) {
  const ref = useRef<HTMLInputElement>(null);

  // Not React's autoFocus, which focuses whatever has the keyboard.
  useEffect(() => {
    const field = ref.current;
    if (!takesFocus || !field) return;
    const typing = editable(document.activeElement);
    if (!typing || typing === field || typing.type === "hidden") field.focus();
  }, [takesFocus]);
  // A click's mouseup would undo the selection its focus made; a click in a focused field places the caret.
  const focusedBefore = useRef(false);

  // A listener on the document is a subscription to something outside React: an effect's job.
  useEffect(() => {
    const watch = createBurstWatch();
    let start: Before | null = null;
    const onKey = (event: KeyboardEvent) => {
      const field = ref.current;
      if (!field) return;
      const step = watch.key(keyOf(event), event.timeStamp);
      if (step.fresh) start = before(event.target);
      if (!step.burst) return;
      if (event.target !== field) {
        if (!everywhere) return;
        if (start && start.field !== field) restore(start);
      }
      // The burst's characters so far, this key's included, are the field's whole value; the rest
      // of the burst, and its Enter, go to the field, which has the focus now.
      event.preventDefault();
      field.value = step.burst;
      field.focus();
      field.setSelectionRange(field.value.length, field.value.length);
    };
    // Capture: seen before the key reaches the element it was typed in.
    document.addEventListener("keydown", onKey, true);
    return () => document.removeEventListener("keydown", onKey, true);
  }, [everywhere]);

  return {
    ref,
    onFocus: (event: FocusEvent<HTMLInputElement>) => event.currentTarget.select(),
    onMouseDown: (event: MouseEvent<HTMLInputElement>) => {
      focusedBefore.current = document.activeElement === event.currentTarget;
    },
    onMouseUp: (event: MouseEvent<HTMLInputElement>) => {
      if (!focusedBefore.current) event.preventDefault();
      focusedBefore.current = true;
    },
  };
}
