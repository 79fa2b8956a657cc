import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { type ReactNode, useEffect } from "react";
import { type BrowserReportingConfig, startBrowserReporting } from "~/observability/browser";
import { useNonce } from "~/ui/nonce";
import { DATABASE_UNAVAILABLE, isDatabaseOutageResponse } from "./db/outage";
import { DatabaseErrorScreen, TopLevelFallback, useReported } from "./errors/error-screen";
import stylesheet from "./tailwind.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Clinic Inventory" }];

// Public configuration for every page, signed in or not: it reads no data, so it asks no door.
export async function loader({ context }: LoaderFunctionArgs) {
  const reporting: BrowserReportingConfig = {
    dsn: context.env.SENTRY_BROWSER_DSN || null,
    release: context.env.APP_VERSION ?? null,
  };
  return { reporting };
}

// It never changes while the page lives: a navigation does not fetch it again.
export const shouldRevalidate = () => false;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const reporting = useRouteLoaderData<typeof loader>("root")?.reporting;
  useEffect(() => {
    if (reporting) startBrowserReporting(reporting);
  }, [reporting]);
  return (
    <html lang="en" className="h-full bg-slate-50">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="h-full font-sans text-slate-900 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

// Top-level fallback (spec section 8): shown when nothing closer caught the error. The database
// boundary takes over when the database is unreachable, e.g. at sign-in.
export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const currentUrl = location.pathname + location.search;
  // An outage the server saw and a missing page are not faults of the page; the rest is reported.
  useReported(isDatabaseOutageResponse(error) || isRouteErrorResponse(error) ? null : error);
  if (isDatabaseOutageResponse(error)) {
    return (
      <main className="mx-auto max-w-2xl p-6">
        <DatabaseErrorScreen error={new Error(DATABASE_UNAVAILABLE)} currentUrl={currentUrl} />
      </main>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main className="mx-auto flex min-h-full max-w-lg flex-col justify-center gap-4 p-6">
        <h1 className="font-semibold text-2xl">Page not found</h1>
        <p className="text-slate-600">There is no page at this address. Check the link, or go back to the dashboard.</p>
        <a href="/" className="self-start rounded-md bg-sky-700 px-4 py-2 font-medium text-white hover:bg-sky-800">
          Go to Dashboard
        </a>
      </main>
    );
  }
  return (
    <main className="mx-auto max-w-2xl p-6">
      <TopLevelFallback currentUrl={currentUrl} />
    </main>
  );
}
