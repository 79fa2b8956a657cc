// The result of a code scanned once the page runs (the page's later scans, which its loader does
// not read), loaded after hydration so the scan page's first visit stays light: the lookup and a
// variation's items through TanStack Query and the one request helper. A vial's actions are the
// page's own forms (`actions`), which post to the scan screen and come back to its result.
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { refusalOf } from "~/browser/api-error";
import { itemsKey, lookupKey } from "./queries";
import { type Found, ResultView } from "./result-view";
import type { ItemsPage } from "./variation-items";
import type { VialData } from "./vial-card";

/** What the loader read for this code, as the API answers it. */
export interface Loaded {
  answer: { status: number; body: unknown } | null;
  items: ItemsPage | null;
}

export default function LiveResult({
  code,
  now,
  actions,
}: {
  code: string;
  now: string;
  actions: (vial: VialData) => ReactNode;
}) {
  // Kept only while shown: coming back to a code later reads it again.
  const lookup = useQuery<Found>({ queryKey: lookupKey(code), gcTime: 0 });
  const variationId = lookup.data?.kind === "variation" ? lookup.data.variation.id : null;
  const items = useQuery<ItemsPage>({
    queryKey: itemsKey(variationId ?? ""),
    gcTime: 0,
    enabled: variationId !== null,
  });
  return (
    <ResultView
      code={code}
      problem={lookup.error ? refusalOf(lookup.error).message : null}
      found={lookup.data}
      items={items.data}
      now={now}
      actions={actions}
    />
  );
}
