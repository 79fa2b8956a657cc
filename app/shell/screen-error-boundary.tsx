// The error boundary of every screen (spec section 8): a database outage gets the database
// screen; anything else the classified screen with its Error ID and Try Again (n/3). Exported by
// each route under the shell, so the sidebar stays usable when one screen fails.
import { isRouteErrorResponse, useLocation, useRevalidator, useRouteError } from "@remix-run/react";
import { useState } from "react";
import { conflictMessageOf, DATABASE_UNAVAILABLE, isDatabaseOutageResponse } from "~/db/outage";
import { errorIdForBoundary } from "~/errors/error-id";
import { DatabaseErrorScreen, ErrorScreen } from "~/errors/error-screen";
import { NotFoundSection } from "~/ui/form";

/** What a detail screen says when its record does not exist (or is not the viewer's to see). */
export interface NotFoundText {
  title: string;
  text: string;
  back: { to: string; label: string };
}

/**
 * The error boundary of a record's screen, whose 404 says what is missing:
 * `export const ErrorBoundary = recordErrorBoundary({ title: "Vendor not found", … })`.
 */
export function recordErrorBoundary(notFound: NotFoundText) {
  return function RecordErrorBoundary() {
    return <ScreenErrorBoundary notFound={notFound} />;
  };
}

export function ScreenErrorBoundary({ notFound }: { notFound?: NotFoundText } = {}) {
  const error = useRouteError();
  const location = useLocation();
  const revalidator = useRevalidator();
  const [errorId] = useState(errorIdForBoundary);
  const [retriesUsed, setRetriesUsed] = useState(0);
  const currentUrl = location.pathname + location.search;

  if (isRouteErrorResponse(error) && error.status === 404 && notFound) return <NotFoundSection {...notFound} />;
  if (isDatabaseOutageResponse(error)) {
    return <DatabaseErrorScreen error={new Error(DATABASE_UNAVAILABLE)} currentUrl={currentUrl} />;
  }
  // A save the database refused (orOutage's 409): nothing was written, and a reload shows what is there now.
  const conflict = conflictMessageOf(error);
  if (conflict)
    return <NotFoundSection title="Not saved" text={conflict} back={{ to: currentUrl, label: "Reload the page" }} />;
  // A refused request arrives as a response; give the classifier its status and words.
  const shown = isRouteErrorResponse(error)
    ? Object.assign(new Error(`${error.status}: ${typeof error.data === "string" ? error.data : error.statusText}`), {
        status: error.status,
      })
    : error;
  return (
    <ErrorScreen
      error={shown}
      errorId={errorId}
      retriesUsed={retriesUsed}
      currentUrl={currentUrl}
      onRetry={() => {
        setRetriesUsed((n) => n + 1);
        revalidator.revalidate();
      }}
    />
  );
}
