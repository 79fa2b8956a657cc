// A vial verb performed from the scan screen through the JSON API (POST /api/vials/{id}/{verb}):
// the one request helper, a TanStack mutation (whose retries follow spec section 9), an
// Idempotency-Key made fresh each time the person presses the button and reused by every retry of
// that press (it travels in the mutation's variables), and afterwards the spec's refresh set
// (section 7), so every list on screen shows the change.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ClinicAction, refreshAfter } from "~/http/client/query-client";
import { apiRequest } from "~/http/client/request";
import type { VialIntent } from "~/inventory/vial-actions";

/** The four verbs, as the vial page's intents and the API's paths name them. */
export type VialVerb = VialIntent;

/**
 * What each verb makes out of date. A draw is not among the spec's actions: it changes the vial
 * and may start it (a draw from a sealed vial opens it), so it refreshes what a start does.
 */
export const REFRESH_OF: Record<VialVerb, ClinicAction> = {
  start: "start_vial",
  draw: "start_vial",
  empty: "empty_vial",
  discard: "discard_vial",
};

/** 128 random bits as hex: a valid Idempotency-Key, made without crypto.randomUUID (secure pages only). */
export function newAttemptKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function useVialAction<A>(itemId: string, verb: VialVerb, onDone: (answer: A) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: object; key: string }) =>
      apiRequest<A>("POST", `/api/vials/${encodeURIComponent(itemId)}/${verb}`, {
        body,
        headers: { "Idempotency-Key": key },
      }),
    onSuccess: async (answer) => {
      onDone(answer);
      await refreshAfter(queryClient, REFRESH_OF[verb]);
    },
  });
}
