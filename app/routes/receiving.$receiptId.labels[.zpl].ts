// /receiving/:receiptId/labels.zpl: a completed receipt's labels as ZPL, laid out by the location's
// default printer profile (or the built-in one), to download or for "Send to Zebra printer".
// Reached as print-labels is (the location in scope, READ_INVENTORY there); anything else is not
// found. No app shell (a file).
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { actorHere } from "~/access/door.server";
import { orOutage } from "~/http/outage.server";
import { zplResponse } from "~/labels/download.server";
import { BUILT_IN_PROFILE } from "~/labels/options";
import { receiptFileName, receiptLabels } from "~/labels/receipt-labels.server";
import { labelLines } from "~/labels/texts";
import { zplDocument } from "~/labels/zpl.server";

export async function loader(args: LoaderFunctionArgs) {
  const user = await actorHere(args, "READ_INVENTORY");
  const found = await orOutage(receiptLabels(args.context.db, user, args.params.receiptId ?? ""));
  if (!found) throw data("This receipt was not found.", { status: 404 });
  if (found.receipt.status !== "completed") {
    throw data("Complete the receipt to print its labels.", { status: 409 });
  }
  const profile = found.profile ?? BUILT_IN_PROFILE;
  const labels = found.items.map((item) => ({ labelCode: item.labelCode, lines: labelLines(item, profile.fields) }));
  return zplResponse(zplDocument(profile, labels), receiptFileName(found.receipt));
}
