// Any other path (spec section 2): the not-found screen, inside the shell for a signed-in user.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { requireViewer } from "~/access/guard.server";

export async function loader(args: LoaderFunctionArgs) {
  await requireViewer(args);
  throw data("Not found", { status: 404 });
}

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return (
    <section aria-labelledby="not-found-title" className="flex flex-col items-start gap-3">
      <h1 id="not-found-title" className="font-semibold text-2xl">
        Page not found
      </h1>
      <p className="text-slate-600">There is no page at this address. Check the link, or go back to the dashboard.</p>
      <Link to="/" className="rounded-md bg-sky-700 px-4 py-2 font-medium text-white hover:bg-sky-800">
        Go to Dashboard
      </Link>
    </section>
  );
}
