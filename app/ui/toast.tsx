// Toasts (spec section 2, "Shared UI", and section 9): one at a time, F8 moves focus to them, a
// swipe to the right of 50 px dismisses, 5000 ms by default, at most 420 px wide. A toast set by
// the server (a flash after a redirect) is rendered on the first byte, before JavaScript loads.
// It sits at the bottom unless a field being typed into is in the lower half of the screen: then
// at the top, so it never covers what someone is typing into (on a phone it spans the screen's
// width). A focused button or link does not move it: on a phone a toast at the top covers the
// page's title and menu, so it goes there only to clear a field, and a button pressed after typing
// finds the toast where it was, not jumped under the press; at the top it sits below the phone's
// header, never over it.
import {
  createContext,
  type PointerEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";

export const TOAST_DURATION_MS = 5_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = "F8";
export const TOAST_MAX_WIDTH_PX = 420;

export interface Toast {
  /** Distinct per toast, so the same words shown twice still count as a new toast. */
  id: string;
  title: string;
  description?: string;
  tone?: "success" | "info" | "error";
  action?: { label: string; onClick: () => void };
  durationMs?: number;
}

interface ToastApi {
  show: (toast: Omit<Toast, "id">) => void;
  dismiss: () => void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast must be used within a ToastProvider");
  return api;
}

export function ToastProvider({ flash, children }: { flash: Toast | null; children: ReactNode }) {
  const [toast, setToast] = useState<Toast | null>(flash);
  // A new flash from the server (after a client-side navigation) replaces whatever is showing.
  const [lastFlash, setLastFlash] = useState(flash?.id);
  if (flash && flash.id !== lastFlash) {
    setLastFlash(flash.id);
    setToast(flash);
  }

  const show = useCallback((next: Omit<Toast, "id">) => setToast({ ...next, id: crypto.randomUUID() }), []);
  const dismiss = useCallback(() => setToast(null), []);
  const api = useMemo(() => ({ show, dismiss }), [show, dismiss]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <ToastViewport toast={toast} onDismiss={dismiss} />
    </ToastContext.Provider>
  );
}

export type ToastSide = "top" | "bottom";

/** Where the toast goes: the half of the viewport the focused element is not in. */
export function sideAwayFrom(focused: { top: number; bottom: number } | null, viewportHeight: number): ToastSide {
  if (!focused) return "bottom";
  return (focused.top + focused.bottom) / 2 > viewportHeight / 2 ? "top" : "bottom";
}

/** Input types that take no typing: a press or a pick, with nothing a toast could hide mid-word. */
const NOT_TYPED = new Set(["button", "submit", "reset", "image", "checkbox", "radio", "range", "color", "file"]);

/** Whether an element is one someone types into (a text-like input, textarea, select, contenteditable). */
export function takesTyping(element: { tagName: string; type?: string; isContentEditable?: boolean }): boolean {
  const tag = element.tagName.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT" || element.isContentEditable) return true;
  return tag === "INPUT" && !NOT_TYPED.has((element.type ?? "text").toLowerCase());
}

/**
 * The rect of the field being typed into; "press" when a button or link has focus (being pressed:
 * the toast stays where it is, for moving it could put it under the finger or pointer); null when
 * nothing outside the toast has focus.
 */
function focusedRect(viewport: HTMLElement | null): DOMRect | "press" | null {
  const active = document.activeElement as HTMLElement | null;
  if (!active || active === document.body || viewport?.contains(active)) return null;
  const typed = takesTyping({
    tagName: active.tagName,
    type: (active as HTMLInputElement).type,
    isContentEditable: active.isContentEditable,
  });
  return typed ? active.getBoundingClientRect() : "press";
}

const TONES = {
  success: "border-emerald-300",
  info: "border-sky-300",
  error: "border-red-300",
};

function ToastViewport({ toast, onDismiss }: { toast: Toast | null; onDismiss: () => void }) {
  const viewport = useRef<HTMLOListElement>(null);
  const [paused, setPaused] = useState(false);
  const [offset, setOffset] = useState(0);
  const swipeStart = useRef<number | null>(null);
  const [side, setSide] = useState<ToastSide>("bottom");

  // While a toast shows, keep it in the half of the screen away from the focused field: focus
  // moves, the page scrolls, or a phone's keyboard resizes the viewport.
  useEffect(() => {
    if (!toast) return;
    const place = () => {
      const focused = focusedRect(viewport.current);
      if (focused !== "press") setSide(sideAwayFrom(focused, window.innerHeight));
    };
    place();
    const events = ["focusin", "scroll", "resize"] as const;
    for (const name of events) window.addEventListener(name, place, { passive: true, capture: true });
    return () => {
      for (const name of events) window.removeEventListener(name, place, { capture: true });
    };
  }, [toast]);

  // F8 jumps to the notifications, wherever focus is.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === TOAST_HOTKEY) {
        event.preventDefault();
        viewport.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // Auto-dismiss, paused while the pointer or focus is on the toast.
  useEffect(() => {
    if (!toast || paused) return;
    const timer = setTimeout(onDismiss, toast.durationMs ?? TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast, paused, onDismiss]);

  const onPointerDown = (event: PointerEvent) => {
    swipeStart.current = event.clientX;
  };
  const onPointerMove = (event: PointerEvent) => {
    if (swipeStart.current !== null) setOffset(Math.max(0, event.clientX - swipeStart.current));
  };
  const onPointerUp = () => {
    if (offset >= TOAST_SWIPE_THRESHOLD_PX) onDismiss();
    swipeStart.current = null;
    setOffset(0);
  };

  return (
    <ol
      ref={viewport}
      tabIndex={-1}
      aria-label={`Notifications (${TOAST_HOTKEY})`}
      data-side={side}
      // At the top, below a phone's header (3.5rem tall, see ~/shell/app-shell), so its menu and the title stay in view.
      className={`pointer-events-none fixed right-0 z-50 flex print:hidden w-full flex-col gap-2 p-4 ${side === "top" ? "top-14 md:top-0" : "bottom-0"}`}
      style={{ maxWidth: TOAST_MAX_WIDTH_PX }}
    >
      {toast && (
        <li
          role="status"
          aria-live="polite"
          aria-atomic="true"
          data-testid="toast"
          className={`pointer-events-auto relative flex touch-pan-y select-none items-start gap-3 rounded-lg border-l-4 bg-white p-4 pr-10 shadow-lg ring-1 ring-slate-900/10 ${TONES[toast.tone ?? "success"]}`}
          style={{ transform: offset ? `translateX(${offset}px)` : undefined, opacity: offset ? 1 - offset / 200 : 1 }}
          onPointerEnter={() => setPaused(true)}
          onPointerLeave={() => setPaused(false)}
          onFocus={() => setPaused(true)}
          onBlur={() => setPaused(false)}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
        >
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <p className="font-semibold text-sm">{toast.title}</p>
            {toast.description && <p className="text-slate-600 text-sm">{toast.description}</p>}
          </div>
          {toast.action && (
            <button
              type="button"
              onClick={toast.action.onClick}
              className="shrink-0 rounded-md border border-slate-300 px-2 py-1 font-medium text-sm hover:bg-slate-100"
            >
              {toast.action.label}
            </button>
          )}
          <button
            type="button"
            onClick={onDismiss}
            aria-label="Close notification"
            className="absolute top-2 right-2 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
              <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
            </svg>
          </button>
        </li>
      )}
    </ol>
  );
}
