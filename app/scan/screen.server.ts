// What the scan screen reads for `?code=`, so it renders without JavaScript: the lookup as
// GET /api/barcodes/{code} answers it, batched with the services a draw may name; for a catalogue
// code, that variation's items here (what GET /api/vials?variationId= answers), first to expire first.
import type { ScopedActor } from "~/access/actor";
import { locationsFor } from "~/access/scope.server";
import { serviceChoices } from "~/catalog/services.server";
import type { Database } from "~/db/client.server";
import { readVials, VialQuery } from "~/stock/vials.server";
import { planLookup, scanAnswer } from "./lookup.server";
import { itemsQueryOf, type Json } from "./queries";

/** As the API would answer it, so the screen's first render and the client cache hold the same shapes. */
const asJson = <T>(value: T) => JSON.parse(JSON.stringify(value)) as Json<T>;

export async function scanScreen(db: Database, actor: ScopedActor, code: string | null, now: Date) {
  const services = serviceChoices(db, actor);
  const plan = code === null ? null : planLookup(db, actor, code, now);
  if (!plan || plan.invalid) {
    return { answer: plan ? asJson(scanAnswer(plan.invalid)) : null, items: null, services: await services };
  }
  const [items, byBarcode, byGtin, choices] = await db.batch([...plan.queries, services]);
  const found = plan.read([items, byBarcode, byGtin]);
  const here =
    found.kind === "variation"
      ? await readVials(
          db,
          actor,
          locationsFor(actor, "READ_INVENTORY").ids,
          VialQuery.parse(itemsQueryOf(found.variation.id)),
          now,
        )
      : null;
  return { answer: asJson(scanAnswer(found)), items: here && asJson(here), services: choices };
}
