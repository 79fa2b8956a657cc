// /receiving/:receiptId/print-labels: the label sheet of a completed receipt, one label per item
// (times the profile's copies), sized to the location's default printer profile so the browser's
// print dialog prints one label per sticker; ZPL profiles also download or send to Zebra Browser
// Print. Reached as add-products is: at the location in scope (READ_INVENTORY there), every location
// in organization mode; a receipt elsewhere is not found.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { can } from "~/access/permissions";
import { orOutage } from "~/http/outage.server";
import { LabelSheet } from "~/labels/label-sheet";
import { BUILT_IN_PROFILE, describeProfile } from "~/labels/options";
import { DownloadZplLink, PrintButton, SendToZebraButton } from "~/labels/print-controls";
import { receiptLabels } from "~/labels/receipt-labels.server";
import { labelSheet } from "~/labels/sheet.server";
import { area } from "~/shell/areas";
import { recordErrorBoundary } from "~/shell/screen-error-boundary";
import { formatDate, showInstant, Time } from "~/ui/dates";
import { Card, Facts } from "~/ui/form";
import { BackLink } from "~/ui/record-screen";
import { CELL, DataRow, DataTable } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Print Labels · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const user = await actorHere(args, area("/receiving/{receiptId}/print-labels").permission);
  const found = await orOutage(receiptLabels(args.context.db, user, args.params.receiptId ?? ""));
  if (!found) throw data("This receipt was not found.", { status: 404 });
  const { receipt, lines, items, profile } = found;
  const used = profile ?? BUILT_IN_PROFILE;
  const completed = receipt.status === "completed";
  return {
    receipt: {
      id: receipt.id,
      status: receipt.status,
      reference: receipt.reference,
      vendor: receipt.vendor,
      location: `${receipt.locationName} (${receipt.locationCode})`,
      opened: showInstant(receipt.createdAt, receipt.timezone),
      completed: showInstant(receipt.completedAt, receipt.timezone),
    },
    lines: lines.map((line) => ({
      ...line,
      expiry: line.expirationDate ? formatDate(line.expirationDate) : null,
      items: Number(line.items),
    })),
    profile: {
      name: profile?.name ?? null,
      output: used.output,
      zplDelivery: used.zplDelivery,
      summary: describeProfile(used),
    },
    sheet: completed && items.length > 0 ? labelSheet(used, items) : null,
    labelCount: items.length * used.copies,
    canSeeSettings: can(user, "READ_SETTINGS", receipt.locationId),
  };
}

export default function PrintLabelsScreen() {
  const { receipt, lines, profile, sheet, labelCount, canSeeSettings } = useLoaderData<typeof loader>();
  const bulkLines = lines.filter((line) => line.tracking === "bulk").length;
  const zplUrl = `/receiving/${receipt.id}/labels.zpl`;
  const settingsLink = canSeeSettings ? (
    <Link to="/printer-settings" className="text-sky-800 hover:underline">
      Printer Settings
    </Link>
  ) : (
    "Printer Settings (ask an admin)"
  );

  return (
    <div className="flex flex-col gap-4">
      <div className="print-hide flex flex-col gap-4">
        <div>
          <BackLink to="/receiving" label="Receiving" />
          <h1 className="font-semibold text-2xl">Print labels</h1>
          <p className="text-slate-600 text-sm">
            One label per item received: its label code as a barcode, with the product, lot and expiry.
          </p>
        </div>

        <Card title="Receipt">
          <Facts
            items={[
              ["Reference", receipt.reference ?? "None"],
              ["Location", receipt.location],
              ["Vendor", receipt.vendor ?? "None"],
              [
                "Status",
                receipt.status === "completed" ? (
                  <>
                    Completed <Time at={receipt.completed} empty="" />
                  </>
                ) : receipt.status === "open" ? (
                  "Open"
                ) : (
                  "Cancelled"
                ),
              ],
              ["Opened", <Time key="opened" at={receipt.opened} empty="" />],
            ]}
          />
          {lines.length > 0 && (
            <div className="mt-3">
              <DataTable
                caption="Lines of this receipt"
                columns={["Product", "Variation", "Quantity", "Lot", "Expiry", { label: "Labels", key: true }]}
                rowCount={lines.length}
                empty=""
              >
                {lines.map((line) => (
                  <DataRow key={line.id}>
                    <td className={CELL}>{line.product}</td>
                    <td className={`${CELL} text-slate-700`}>{line.variation}</td>
                    <td className={`${CELL} text-slate-700`}>{line.quantity}</td>
                    <td className={`${CELL} font-mono text-slate-700`}>{line.lot ?? "—"}</td>
                    <td className={`${CELL} text-slate-700`}>{line.expiry ?? "—"}</td>
                    <td className={`${CELL} text-slate-700`}>
                      {line.tracking === "bulk" ? "Bulk: counted, not labelled" : line.items}
                    </td>
                  </DataRow>
                ))}
              </DataTable>
            </div>
          )}
        </Card>

        {receipt.status === "open" && (
          <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900" role="status">
            Complete the receipt to print its labels: items and their label codes are made when it is completed.{" "}
            <Link to={`/receiving/${receipt.id}/add-products`} className="font-medium text-sky-800 hover:underline">
              Add products and complete the receipt
            </Link>
          </p>
        )}
        {receipt.status === "cancelled" && (
          <p className="text-slate-600" role="status">
            This receipt was cancelled: nothing was received, so it has no labels.
          </p>
        )}

        {receipt.status === "completed" && (
          <Card title="Printer">
            {profile.name ? (
              <p className="text-sm">
                Printing with <span className="font-medium">{profile.name}</span>, the default profile here:{" "}
                {profile.summary}. Change it in {settingsLink}.
              </p>
            ) : (
              <p className="text-sm">
                No printer profile is set up at this location, so these labels use the built-in settings:{" "}
                {profile.summary}. Set up the clinic's printer in {settingsLink}.
              </p>
            )}
            {sheet && sheet.fieldsShown < sheet.fieldsAsked && (
              <p className="mt-2 text-amber-900 text-sm">
                Only {sheet.fieldsShown} of the {sheet.fieldsAsked} texts fit on this label size.
              </p>
            )}
            {sheet ? (
              <div className="mt-3 flex flex-wrap items-start gap-3">
                {profile.output === "zpl" && profile.zplDelivery === "browser_print" && (
                  <SendToZebraButton zplUrl={zplUrl} labelCount={labelCount} />
                )}
                {profile.output === "zpl" && (
                  <DownloadZplLink href={zplUrl} primary={profile.zplDelivery === "download"} />
                )}
                <PrintButton primary={profile.output === "browser"} />
                <p className="basis-full text-slate-500 text-xs">
                  {labelCount} {labelCount === 1 ? "label" : "labels"}. Print labels opens the browser's print dialog
                  (Ctrl+P or ⌘P does the same): choose the label printer and 100% scale.
                </p>
              </div>
            ) : (
              <p className="mt-2 text-slate-600 text-sm">
                {bulkLines > 0
                  ? "This receipt has only bulk products: they are counted, not labelled one by one, so there is nothing to print."
                  : "This receipt made no items, so there is nothing to print."}
              </p>
            )}
          </Card>
        )}
      </div>

      {sheet && <LabelSheet sheet={sheet} />}
    </div>
  );
}

export const ErrorBoundary = recordErrorBoundary({
  title: "Receipt not found",
  text: "This receipt does not exist at a location you can see.",
  back: { to: "/receiving", label: "Back to Receiving" },
});
