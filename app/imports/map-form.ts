// Mapping a sold item (issue 24 item 2): the one zod schema the unknown-items form and the API share
// (ADR 0026). Browser-safe (zod only).
import { line } from "~/forms/text";
import { z } from "~/forms/zod";

export const MAP_ITEM_MESSAGES = {
  item: "Choose the sold item to map.",
  kind: "Choose what the item is: a service, a retail product, or not stock.",
  service: "Choose the service this item is.",
  variation: "Choose the product variation this item is.",
} as const;

const M = MAP_ITEM_MESSAGES;

const chosenId = line().trim().max(100).default("");

export const MapSaleItemBody = z
  .object({
    saleItemId: z.coerce.number({ error: M.item }).int(M.item).positive(M.item).max(Number.MAX_SAFE_INTEGER, M.item),
    kind: z.enum(["service", "retail", "ignored"], { error: M.kind }),
    serviceId: chosenId,
    variationId: chosenId,
  })
  .transform((input, ctx) => {
    if (input.kind === "service" && !input.serviceId) {
      ctx.addIssue({ code: "custom", path: ["serviceId"], message: M.service });
      return z.NEVER;
    }
    if (input.kind === "retail" && !input.variationId) {
      ctx.addIssue({ code: "custom", path: ["variationId"], message: M.variation });
      return z.NEVER;
    }
    if (input.kind === "service")
      return { saleItemId: input.saleItemId, kind: "service" as const, targetId: input.serviceId };
    if (input.kind === "retail")
      return { saleItemId: input.saleItemId, kind: "retail" as const, targetId: input.variationId };
    return { saleItemId: input.saleItemId, kind: "ignored" as const, targetId: null };
  });
export type MapSaleItemInput = z.input<typeof MapSaleItemBody>;
