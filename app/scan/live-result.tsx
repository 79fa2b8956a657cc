// The scan result once the page runs, loaded after hydration so the scan page's first visit stays
// light: the lookup and a variation's items through TanStack Query and the one request helper
// (seeded with what the loader read for the same code), and a vial's actions, which put the vial
// they answer into the cache.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { refusalOf } from "~/http/client/api-error";
import { itemsKey, lookupKey } from "./queries";
import { type Found, ResultView } from "./result-view";
import type { ItemsPage } from "./variation-items";
import { type ServiceChoice, VialActions } from "./vial-actions";

/** What the loader read for this code, as the API answers it. */
export interface Loaded {
  answer: { status: number; body: unknown } | null;
  items: ItemsPage | null;
}

export default function LiveResult({
  code,
  loaded,
  now,
  services,
}: {
  code: string;
  loaded: Loaded | null;
  now: string;
  services: readonly ServiceChoice[];
}) {
  const queryClient = useQueryClient();
  const answer = loaded?.answer;
  const refusedByServer = answer && answer.status !== 200 ? (answer.body as { error: string }).error : null;
  // Kept only while shown: coming back to a code later starts from what the loader read then.
  const lookup = useQuery<Found>({
    queryKey: lookupKey(code),
    gcTime: 0,
    initialData: answer?.status === 200 ? (answer.body as Found) : undefined,
    enabled: !refusedByServer,
  });
  const variationId = lookup.data?.kind === "variation" ? lookup.data.variation.id : null;
  const items = useQuery<ItemsPage>({
    queryKey: itemsKey(variationId ?? ""),
    gcTime: 0,
    initialData: loaded?.items ?? undefined,
    enabled: variationId !== null,
  });
  return (
    <ResultView
      code={code}
      problem={refusedByServer ?? (lookup.error ? refusalOf(lookup.error).message : null)}
      found={lookup.data}
      items={items.data}
      now={now}
      actions={(vial) => (
        <VialActions
          vial={vial}
          now={now}
          services={services}
          onChange={(changed) => {
            const item: Found = { kind: "item", code: lookup.data?.code ?? code, vial: changed };
            queryClient.setQueryData(lookupKey(code), item);
          }}
        />
      )}
    />
  );
}
