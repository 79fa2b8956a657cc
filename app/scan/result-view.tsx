// What a scan shows, from the lookup as GET /api/barcodes/{code} answers it: the API's message
// for a bad or unknown code, a vial's card (with its actions, plain forms), or a catalogue
// variation with its items here. The server renders it from the loader; the live result from the
// client data layer.
import type { ReactNode } from "react";
import { FormAlert } from "~/ui/form";
import { type ItemsPage, type VariationFound, VariationItems } from "./variation-items";
import { VialCard, type VialData } from "./vial-card";

export type Found = { kind: "item"; code: string; vial: VialData } | VariationFound;

export function ResultView({
  code,
  problem,
  found,
  items,
  now,
  actions,
}: {
  code: string;
  problem: string | null;
  found: Found | undefined;
  items: ItemsPage | undefined;
  now: string;
  actions?: (vial: VialData) => ReactNode;
}) {
  if (problem) return <FormAlert message={problem} />;
  if (!found) return <p className="text-slate-600 text-sm">Looking up {code}…</p>;
  if (found.kind === "item") {
    return (
      <VialCard vial={found.vial} now={now}>
        {actions?.(found.vial)}
      </VialCard>
    );
  }
  return <VariationItems found={found} page={items} now={now} />;
}
