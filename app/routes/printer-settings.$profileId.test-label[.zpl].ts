// /printer-settings/:profileId/test-label.zpl: the test-print sample label as ZPL, to download or
// for "Send to Zebra printer". READ_SETTINGS at the location in scope, as the screen; no app shell (a file).
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { actorHere } from "~/access/door.server";
import { orOutage } from "~/http/outage.server";
import { zplResponse } from "~/labels/download.server";
import { labelLines, sampleLabelItem } from "~/labels/texts";
import { zplDocument } from "~/labels/zpl.server";
import { printerProfileDetail } from "~/printers/list.server";

export async function loader(args: LoaderFunctionArgs) {
  const user = await actorHere(args, "READ_SETTINGS");
  const profile = await orOutage(printerProfileDetail(args.context.db, user, args.params.profileId ?? ""));
  if (!profile) throw data("This printer profile was not found.", { status: 404 });
  const sample = sampleLabelItem(new Date());
  const zpl = zplDocument(profile, [{ labelCode: sample.labelCode, lines: labelLines(sample, profile.fields) }]);
  return zplResponse(zpl, "test-label");
}
