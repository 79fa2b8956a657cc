// Time left before an in-use vial's Use-By Deadline, live. The server renders the text for the
// instant the loader judged (`now`), so the page reads right before JavaScript loads and hydrates
// without a mismatch; then a timer moves it on. Minutes are the smallest unit the text shows, so a
// tick a minute is enough. Words and arithmetic come from ~/stock/expiry, the one set of rules.
import { useEffect, useState } from "react";
import { EXPIRED, formatDuration, type Instant } from "./expiry";

const MINUTE_MS = 60 * 1000;

function asDate(value: Instant): Date {
  return value instanceof Date ? value : new Date(value);
}

/**
 * The current time, moved on every `intervalMs` once the page runs in a browser. The first render
 * uses `initial` (the server's instant, when the caller has it), so server and browser render the
 * same text; the clock is read as soon as the page has hydrated, and again whenever a new
 * `initial` comes (the loader ran again, e.g. after the vial was started: the time read before
 * is stale by up to a tick, and would show a fresh deadline as a minute longer).
 */
export function useNow(intervalMs: number = MINUTE_MS, initial?: Instant): Date {
  const [now, setNow] = useState(() => (initial === undefined ? new Date() : asDate(initial)));
  const given = initial === undefined ? undefined : asDate(initial).getTime();
  useEffect(() => {
    // `given` is what the effect restarts on: a new server instant means a fresh read of the clock.
    void given;
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, given]);
  return now;
}

/** "2d 3h left", "5h 12m left", "42m left", or "Expired" once the deadline has passed or is unknown. */
export function countdownText(deadline: Instant | null | undefined, now: Date): string {
  const at = deadline === null || deadline === undefined ? Number.NaN : asDate(deadline).getTime();
  const left = at - now.getTime();
  if (!Number.isFinite(left) || left <= 0) return EXPIRED;
  return `${formatDuration(left)} left`;
}

export function Countdown({
  deadline,
  now,
  intervalMs = MINUTE_MS,
  className,
}: {
  /** The Use-By Deadline (expiresAt). */
  deadline: Instant | null | undefined;
  /** The instant the server rendered for (pass the loader's, so hydration matches). */
  now?: Instant;
  intervalMs?: number;
  className?: string;
}) {
  const current = useNow(intervalMs, now);
  const at = deadline === null || deadline === undefined ? null : asDate(deadline);
  const valid = at && !Number.isNaN(at.getTime()) ? at : null;
  return (
    // role="timer": assistive technology does not announce each tick; the text is read on demand.
    <time
      role="timer"
      dateTime={valid?.toISOString()}
      className={className}
      data-expired={countdownText(valid, current) === EXPIRED ? "" : undefined}
      suppressHydrationWarning
    >
      {countdownText(valid, current)}
    </time>
  );
}
