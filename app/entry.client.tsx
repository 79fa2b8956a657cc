import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { registerServiceWorker } from "~/browser/service-worker-registration";
import { listenForErrors } from "~/observability/browser";

// Errors before error reporting has started (or found no DSN) are kept, then sent or dropped.
listenForErrors();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});

// Offline copies of the cart's screens (issue #25); not in development, where Vite serves
// unbundled modules a worker must not keep.
if (import.meta.env.PROD) registerServiceWorker();
