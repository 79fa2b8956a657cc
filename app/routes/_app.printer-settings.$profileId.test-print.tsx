// /printer-settings/:profileId/test-print: one sample label drawn with the profile, through the same
// renderer as print-labels, to check size, position and barcodes before printing real labels.
// READ_SETTINGS at the profile's location.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { orOutage } from "~/http/outage.server";
import { LabelSheet } from "~/labels/label-sheet";
import { describeProfile } from "~/labels/options";
import { DownloadZplLink, PrintButton, SendToZebraButton } from "~/labels/print-controls";
import { labelSheet } from "~/labels/sheet.server";
import { sampleLabelItem } from "~/labels/texts";
import { printerProfileDetail } from "~/printers/list.server";
import { area } from "~/shell/areas";
import { recordErrorBoundary } from "~/shell/screen-error-boundary";
import { BackLink } from "~/ui/record-screen";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Test print${data ? `: ${data.profile.name}` : ""} · Clinic Inventory` },
];

export async function loader(args: LoaderFunctionArgs) {
  const user = await actorHere(args, area("/printer-settings").permission);
  const profile = await orOutage(printerProfileDetail(args.context.db, user, args.params.profileId ?? ""));
  if (!profile) throw data("This printer profile was not found.", { status: 404 });
  return {
    profile: { id: profile.id, name: profile.name, output: profile.output, zplDelivery: profile.zplDelivery },
    summary: describeProfile(profile),
    sheet: labelSheet(profile, [sampleLabelItem(new Date())]),
  };
}

export default function TestPrintScreen() {
  const { profile, summary, sheet } = useLoaderData<typeof loader>();
  const zplUrl = `/printer-settings/${profile.id}/test-label.zpl`;
  return (
    <div className="flex flex-col gap-4">
      <div className="print-hide flex flex-col gap-2">
        <BackLink to={`/printer-settings/${profile.id}`} label={profile.name} />
        <h1 className="font-semibold text-2xl">Test print: {profile.name}</h1>
        <p className="text-slate-600 text-sm">{summary}.</p>
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900 text-sm" role="status">
          A sample label with made-up data (marked SAMPLE, label code VTEST00000): print it to check the size, the
          position and that the barcodes scan before printing real labels.
        </p>
        {sheet.fieldsShown < sheet.fieldsAsked && (
          <p className="text-amber-900 text-sm">
            Only {sheet.fieldsShown} of the {sheet.fieldsAsked} texts fit on this label size. Choose fewer texts or a
            larger label.
          </p>
        )}
        <div className="flex flex-wrap items-start gap-3">
          {profile.output === "zpl" && profile.zplDelivery === "browser_print" && (
            <SendToZebraButton zplUrl={zplUrl} labelCount={sheet.copies} />
          )}
          {profile.output === "zpl" && <DownloadZplLink href={zplUrl} primary={profile.zplDelivery === "download"} />}
          <PrintButton primary={profile.output === "browser"} />
        </div>
      </div>
      <LabelSheet sheet={sheet} />
    </div>
  );
}

export const ErrorBoundary = recordErrorBoundary({
  title: "Printer profile not found",
  text: "This printer profile does not exist at a location you can see.",
  back: { to: "/printer-settings", label: "Back to Printer Settings" },
});
