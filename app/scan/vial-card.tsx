// A scanned vial at the treatment cart: product, lot, state, units left, expiry badge and live
// countdown, and a red warning for a recalled lot. Rendered by the server (the `?code=` lookup
// works before JavaScript), with the actions after it (`children`, plain forms).
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatQuantity } from "~/catalog/format";
import { Countdown } from "~/stock/countdown";
import { ExpiryBadge } from "~/stock/expiry-badge";
import { StateBadge } from "~/stock/state-badge";
import type { Vial } from "~/stock/vials.server";
import { Facts } from "~/ui/form";
import { VIAL_REFUSALS } from "~/vials/outcome";
import type { Json } from "./queries";

export type VialData = Json<Vial>;
export interface ServiceChoice {
  id: string;
  name: string;
}

export function VialCard({
  vial,
  now,
  children,
}: {
  vial: VialData;
  /** The loader's instant, so the first render matches the server's. */
  now: string;
  /** The actions this user may take on it. */
  children?: ReactNode;
}) {
  return (
    <section
      aria-labelledby="vial-title"
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4"
    >
      <header className="flex flex-col gap-1">
        <h2 id="vial-title" className="font-semibold text-lg">
          {vial.productName} <span className="font-normal text-slate-600">· {vial.variationName}</span>
        </h2>
        <p className="text-slate-600 text-sm">
          Label <span className="font-mono">{vial.labelCode}</span> ·{" "}
          <Link to={`/inventory/${vial.id}`} className="text-sky-700 underline">
            Open vial page
          </Link>
        </p>
      </header>
      {vial.recalled && (
        <p role="alert" className="rounded-md bg-red-700 px-3 py-2 font-semibold text-sm text-white">
          {VIAL_REFUSALS.recalled}
        </p>
      )}
      <Facts
        items={[
          ["Lot", vial.lot ?? "—"],
          ["State", <StateBadge key="state" state={vial.state} />],
          [
            "Units left",
            <span key="units" data-testid="units-left">
              {formatQuantity(vial.unitsRemaining, vial.unitScale, vial.baseUnit)}
            </span>,
          ],
          // Mounted again when the state changes, so a vial just started reads its new deadline from the clock now.
          ["Expiry", <ExpiryBadge key={`expiry-${vial.state}`} item={vial} now={now} />],
          ...(vial.state === "in_use"
            ? [["Time left", <Countdown key="countdown" deadline={vial.expiresAt} now={now} />] as [string, ReactNode]]
            : []),
          ["Location", vial.location.name],
        ]}
      />
      {children}
    </section>
  );
}
