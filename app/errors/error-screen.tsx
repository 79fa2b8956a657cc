// The error screens of spec section 8. Pages are server-rendered, so every action works before
// JavaScript loads: reloads are GET forms to the current address, navigation is a plain link.
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { reportBrowserError } from "~/observability/browser";
import { classifyError, statusOf } from "./classify";
import {
  BUTTONS,
  DATA_SAFETY_NOTICE,
  DATABASE_BOUNDARY_OTHER_ERROR,
  DATABASE_ERROR,
  ERROR_SCREENS,
  errorIdLine,
  GLOBAL_RETRY_DELAY_MS,
  NO_TRIES_LEFT,
  type ScreenText,
  SECTION_ERROR,
  TOP_LEVEL_ERROR,
  tryAgainButton,
} from "./screens";

const FOCUS_RING = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-700";
const PRIMARY = `rounded-md bg-sky-700 px-4 py-2 font-medium text-white hover:bg-sky-800 disabled:cursor-not-allowed disabled:opacity-60 ${FOCUS_RING}`;
const SECONDARY = `rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-900 hover:bg-slate-100 ${FOCUS_RING}`;

interface ReloadProps {
  /** Path and query of the page (e.g. from useLocation), so a reload before hydration keeps the query. */
  currentUrl?: string;
}

/** Global boundary screen for the five error classes. */
export function ErrorScreen({
  error,
  errorId,
  retriesUsed,
  onRetry,
  currentUrl,
}: ReloadProps & {
  error: unknown;
  /** Made once where the error is reported, so the screen and the report show the same id. */
  errorId: string;
  /** Retries the boundary has already made for this error; it counts each onRetry call. */
  retriesUsed: number;
  /** Resets the boundary; called GLOBAL_RETRY_DELAY_MS after the click. */
  onRetry: () => void;
}) {
  const errorClass = classifyError(error);
  const tryAgain = tryAgainButton(errorClass, retriesUsed);
  useReported(error, errorId);
  const [waiting, retryAfterPause] = useDelayedCall(onRetry, GLOBAL_RETRY_DELAY_MS);
  return (
    <Screen text={ERROR_SCREENS[errorClass]}>
      <p data-error-id={errorId} className="font-mono text-slate-500 text-xs">
        {errorIdLine(errorId)}
      </p>
      {tryAgain?.disabled && <p className="text-slate-600 text-sm">{NO_TRIES_LEFT}</p>}
      <div className="flex flex-wrap gap-3">
        {tryAgain && (
          <ReloadButton
            currentUrl={currentUrl}
            className={PRIMARY}
            disabled={tryAgain.disabled || waiting}
            onSubmit={retryAfterPause}
          >
            {waiting ? BUTTONS.tryingAgain : tryAgain.label}
          </ReloadButton>
        )}
        <ReloadButton currentUrl={currentUrl} className={tryAgain ? SECONDARY : PRIMARY}>
          {BUTTONS.reloadPage}
        </ReloadButton>
        <a href="/" className={SECONDARY}>
          {BUTTONS.goToDashboard}
        </a>
      </div>
    </Screen>
  );
}

/**
 * Reports the screen's error from the browser (kept until reporting has loaded, dropped when it is
 * off), tagged with the Error ID the screen shows. A 4xx the server answered is a refusal it already
 * decided, not a fault: it is not reported; nor is nothing (null).
 */
export function useReported(error: unknown, errorId?: string) {
  useEffect(() => {
    if (isReportable(error)) reportBrowserError(error, errorId);
  }, [error, errorId]);
}

/** A fault worth a report: not nothing, and not a 4xx the server answered. */
export function isReportable(error: unknown): boolean {
  if (error === null || error === undefined) return false;
  const status = statusOf(error);
  return status === null || status < 400 || status >= 500;
}

/** In place of one part of a page; the rest of the page keeps working. */
export function SectionErrorFallback({ onRetry, currentUrl }: ReloadProps & { onRetry?: () => void }) {
  return (
    <Screen text={SECTION_ERROR} heading="h2" compact>
      <div className="flex flex-wrap gap-3">
        <ReloadButton currentUrl={currentUrl} className={PRIMARY} onSubmit={onRetry}>
          {BUTTONS.tryAgain}
        </ReloadButton>
        <ReloadButton currentUrl={currentUrl} className={SECONDARY}>
          {BUTTONS.reloadPage}
        </ReloadButton>
      </div>
    </Screen>
  );
}

/** Around data that must never be shown stale: a database outage stops the page instead. */
export function DatabaseErrorScreen({ error, currentUrl }: ReloadProps & { error: unknown }) {
  if (classifyError(error) !== "database") {
    return (
      <Screen text={DATABASE_BOUNDARY_OTHER_ERROR}>
        <ReloadButton currentUrl={currentUrl} className={`${PRIMARY} self-start`}>
          {BUTTONS.reloadPage}
        </ReloadButton>
      </Screen>
    );
  }
  return (
    <Screen text={DATABASE_ERROR}>
      <section aria-label={DATA_SAFETY_NOTICE.title} className="rounded-md border border-amber-300 bg-amber-50 p-4">
        <h2 className="font-semibold text-amber-900">{DATA_SAFETY_NOTICE.title}</h2>
        <p className="text-amber-900 text-sm">{DATA_SAFETY_NOTICE.message}</p>
      </section>
      <ReloadButton currentUrl={currentUrl} className={`${PRIMARY} self-start`}>
        {BUTTONS.retryConnection}
      </ReloadButton>
    </Screen>
  );
}

/** When nothing closer caught the error. */
export function TopLevelFallback({ onRetry, currentUrl }: ReloadProps & { onRetry?: () => void }) {
  return (
    <Screen text={TOP_LEVEL_ERROR}>
      <div className="flex flex-wrap gap-3">
        <ReloadButton currentUrl={currentUrl} className={PRIMARY} onSubmit={onRetry}>
          {BUTTONS.tryAgain}
        </ReloadButton>
        <a href="/" className={SECONDARY}>
          {BUTTONS.goHome}
        </a>
      </div>
    </Screen>
  );
}

function Screen({
  text,
  heading: Heading = "h1",
  compact = false,
  children,
}: {
  text: ScreenText;
  heading?: "h1" | "h2";
  compact?: boolean;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <div
      role="alert"
      aria-labelledby={headingId}
      className={
        compact
          ? "flex flex-col gap-3 rounded-lg border border-red-200 bg-white p-4"
          : "mx-auto flex min-h-full max-w-lg flex-col justify-center gap-4 p-6"
      }
    >
      <Heading id={headingId} className={compact ? "font-semibold text-lg" : "font-semibold text-2xl"}>
        {text.title}
      </Heading>
      <p className="text-slate-600">{text.message}</p>
      {children}
    </div>
  );
}

/**
 * A real button in a GET form to the current page: before hydration it reloads the page; after,
 * it runs `onSubmit` when given, else reloads exactly (hash included).
 */
function ReloadButton({
  currentUrl = "",
  className,
  disabled,
  onSubmit,
  children,
}: ReloadProps & { className: string; disabled?: boolean; onSubmit?: () => void; children: ReactNode }) {
  const { action, fields } = reloadTarget(currentUrl);
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (onSubmit) onSubmit();
    else window.location.reload();
  };
  return (
    <form method="get" action={action} onSubmit={handleSubmit} className="contents">
      {fields.map(([name, value], index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a query may repeat a name; the list never reorders
        <input key={index} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={className} disabled={disabled}>
        {children}
      </button>
    </form>
  );
}

/** A GET form drops the action's query, so the query travels as hidden fields. */
export function reloadTarget(currentUrl: string): { action: string; fields: [string, string][] } {
  if (!currentUrl) return { action: "", fields: [] };
  const url = new URL(currentUrl, "http://current.page");
  return { action: url.pathname, fields: [...url.searchParams] };
}

/** Runs `call` after `delayMs`, once at a time; the pending call dies with the component. */
function useDelayedCall(call: () => void, delayMs: number): [waiting: boolean, start: () => void] {
  const [waiting, setWaiting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const start = () => {
    if (timer.current !== undefined) return;
    setWaiting(true);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      setWaiting(false);
      call();
    }, delayMs);
  };
  return [waiting, start];
}
