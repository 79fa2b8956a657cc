// Any other path (spec section 2): the not-found screen, inside the shell for a signed-in user.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { signedIn } from "~/access/door.server";
import { ScreenErrorBoundary } from "~/shell/screen-error-boundary";

export async function loader(args: LoaderFunctionArgs) {
  await signedIn(args);
  throw data("Not found", { status: 404 });
}

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return (
    <ScreenErrorBoundary
      notFound={{
        title: "Page not found",
        text: "There is no page at this address. Check the link, or go back to the dashboard.",
        back: { to: "/", label: "Go to Dashboard" },
      }}
    />
  );
}
