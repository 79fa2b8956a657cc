// The words on every error screen (spec section 8), apart from the markup so boundaries, tests and
// reports quote the same text.

import { FORBIDDEN } from "~/outcome";
import type { ErrorClass } from "./classify";
import { isRetryable } from "./classify";

export interface ScreenText {
  title: string;
  message: string;
}

export const ERROR_SCREENS: Record<ErrorClass, ScreenText> = {
  network: {
    title: "Connection Problem",
    message: "Unable to connect to the server. Please check your internet connection and try again.",
  },
  database: {
    title: "Service Unavailable",
    message: "Our service is temporarily unavailable. We are working to restore it as quickly as possible.",
  },
  validation: {
    title: "Data Validation Error",
    message: "There was a problem with the data provided. Please refresh and try again.",
  },
  permission: {
    title: "Access Denied",
    message: FORBIDDEN,
  },
  unknown: {
    title: "Application Error",
    message: "An unexpected error occurred. We have been notified and are working to fix it.",
  },
};

export const SECTION_ERROR: ScreenText = {
  title: "Something went wrong",
  message: "This section encountered an error and couldn't load properly.",
};

export const DATABASE_ERROR: ScreenText = {
  title: "Database Connection Issue",
  message:
    "Unable to connect to the database. This ensures you don't see outdated or incorrect information. Please check your connection and try again.",
};

export const DATA_SAFETY_NOTICE: ScreenText = {
  title: "Data Safety Notice",
  message:
    "The app has stopped instead of showing you outdated data, so you never act on stock counts or expiry dates that may be wrong.",
};

/** What the database boundary shows for anything that is not a database outage. */
export const DATABASE_BOUNDARY_OTHER_ERROR: ScreenText = {
  title: "Application Error",
  message: "An unexpected error occurred. Please try refreshing the page.",
};

export const TOP_LEVEL_ERROR: ScreenText = {
  title: "Something went wrong",
  message:
    "We've been notified of this issue and will look into it. Please try refreshing the page or contact support if the problem persists.",
};

export const BUTTONS = {
  tryAgain: "Try Again",
  tryingAgain: "Trying again…",
  reloadPage: "Reload Page",
  goToDashboard: "Go to Dashboard",
  retryConnection: "Retry Connection",
  goHome: "Go Home",
} as const;

export const NO_TRIES_LEFT = "No tries left. Reload the page or go to the dashboard.";

/** The global boundary's allowance: 3 retries, each after a 1 second pause (spec section 9). */
export const GLOBAL_RETRY_LIMIT = 3;
export const GLOBAL_RETRY_DELAY_MS = 1_000;

export function errorIdLine(errorId: string): string {
  return `Error ID: ${errorId}`;
}

/**
 * The global screen's Try Again button, or null where trying again cannot help.
 * "(n/3)" counts the try the click makes: (1/3) before any retry, (3/3) for the last one. Once all
 * three are used it stays at (3/3), disabled, so the user still sees why it no longer works.
 */
export function tryAgainButton(
  errorClass: ErrorClass,
  retriesUsed: number,
): { label: string; disabled: boolean } | null {
  if (!isRetryable(errorClass)) return null;
  const attempt = Math.min(retriesUsed + 1, GLOBAL_RETRY_LIMIT);
  return {
    label: `${BUTTONS.tryAgain} (${attempt}/${GLOBAL_RETRY_LIMIT})`,
    disabled: retriesUsed >= GLOBAL_RETRY_LIMIT,
  };
}
