import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteError,
} from "@remix-run/react";
import type { ReactNode } from "react";
import stylesheet from "./tailwind.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Clinic Inventory" }];

export function Layout({ children }: { children: ReactNode }) {
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
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

// Top-level fallback (spec section 8): shown when nothing closer caught the error.
export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto flex min-h-full max-w-lg flex-col justify-center gap-4 p-6">
      <h1 className="font-semibold text-2xl">{notFound ? "Page not found" : "Something went wrong"}</h1>
      <p className="text-slate-600">
        {notFound
          ? "There is no page at this address. Check the link, or go back to the dashboard."
          : "We've been notified of this issue and will look into it. Please try refreshing the page or contact support if the problem persists."}
      </p>
      <div className="flex gap-3">
        {!notFound && (
          <a
            href={location.pathname + location.search}
            className="rounded-md bg-sky-700 px-4 py-2 font-medium text-white hover:bg-sky-800"
          >
            Try Again
          </a>
        )}
        <a href="/" className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-100">
          Go Home
        </a>
      </div>
    </main>
  );
}
