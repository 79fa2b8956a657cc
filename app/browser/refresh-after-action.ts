// The spec's refresh sets (section 7) after a Remix form action: a route's clientAction runs the
// server action as usual (the form still works without JavaScript, where there is no cache to
// refresh), then marks the named data sets out of date, whether the action redirected or not.
import type { ClientActionFunctionArgs } from "@remix-run/react";
import type { QueryClient } from "@tanstack/react-query";
import { browserQueryClient, type ClinicAction, refreshAfter } from "./query-client";

/** A clientAction refreshing what `refreshes[intent]` names after the form's server action. */
export function refreshingClientAction(
  refreshes: Partial<Record<string, ClinicAction>>,
  queryClient: () => QueryClient = browserQueryClient,
) {
  return async ({ request, serverAction }: Pick<ClientActionFunctionArgs, "request" | "serverAction">) => {
    const intent = (await request.clone().formData()).get("intent");
    const action = typeof intent === "string" ? refreshes[intent] : undefined;
    try {
      return await serverAction();
    } finally {
      if (action) await refreshAfter(queryClient(), action);
    }
  };
}
