// The reorder view of /purchase-orders (issue 23.5): for the selected location, the reorder
// suggestions grouped by the products' default vendor, each row with its why, each group one click
// from a draft order (a plain form post to /purchase-orders, intent=create with the location, the
// vendor and the variationId + packages pairs), so it works before JavaScript loads. Where another
// location has the same variation to spare (the transfers' balancing suggestions, handed over by
// the route), the row offers the transfer instead. A suggestion already on a draft, or capped to
// nothing, is shown with its why and left out of the draft. Phone first: one card per vendor. The
// vendors with the most suggestions come first, the first REORDER_VENDORS_SHOWN of them unless the
// route was asked for all: a link shows all (a GET parameter), another only the first again.
import { Form, Link } from "@remix-run/react";
import { Fragment } from "react";
import { Button } from "~/ui/form";
import {
  CREATE_INTENT,
  groupByVendor,
  offersByVariation,
  REORDER_VENDORS_SHOWN,
  type ReorderGroup,
  type ShownSuggestion,
  type TransferOffer,
} from "./reorder";
import { packageWord } from "./suggest-rule";

/** The transfers page's intent that makes a draft from a balancing suggestion (app/transfers/suggestions-panel.tsx). */
const TRANSFER_DRAFT_INTENT = "draft_from_suggestion";

/** "2 boxes" of a suggestion. */
export function packagesToOrder(s: ShownSuggestion): string {
  return `${s.packages.toLocaleString("en-US")} ${packageWord(s.variationName, s.tracking, s.packages)}`;
}

function OfferLine({ offer, idempotencyKey }: { offer: TransferOffer; idempotencyKey?: string }) {
  const text = `${offer.fromLocationName} has ${offer.carries} to spare: transfer instead`;
  return offer.canDraft ? (
    <Form method="post" action="/transfers" className="flex flex-wrap items-center gap-2 text-sm">
      <span>{text}</span>
      <input type="hidden" name="intent" value={TRANSFER_DRAFT_INTENT} />
      {idempotencyKey && (
        <input
          type="hidden"
          name="idempotencyKey"
          value={`${idempotencyKey}-${offer.fromLocationId}-${offer.variationId}`}
        />
      )}
      <input type="hidden" name="fromLocationId" value={offer.fromLocationId} />
      <input type="hidden" name="toLocationId" value={offer.toLocationId} />
      <input type="hidden" name="lines" value={offer.lines} />
      <Button tone="secondary">Draft the transfer</Button>
    </Form>
  ) : (
    <p className="text-sm">
      {text}:{" "}
      <Link to="/transfers" className="text-sky-700 underline">
        ask {offer.fromLocationName} with Request stock
      </Link>
    </p>
  );
}

function SuggestionRow({
  s,
  offers,
  idempotencyKey,
}: {
  s: ShownSuggestion;
  offers: readonly TransferOffer[];
  idempotencyKey?: string;
}) {
  return (
    <li className="flex flex-col gap-1 border-slate-100 border-t py-2 first:border-t-0">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-medium">
          {s.productName} · {s.variationName}
        </span>
        <span className="text-sm" data-testid="reorder-packages">
          {s.onDraft ? (
            <Link to={`/purchase-orders/${s.onDraft.id}`} className="text-sky-700 underline">
              On draft {s.onDraft.number}
            </Link>
          ) : (
            packagesToOrder(s)
          )}
        </span>
      </div>
      <p className="text-slate-600 text-sm" data-testid="reorder-why">
        {s.why}
      </p>
      {offers.map((offer) => (
        <OfferLine key={offer.fromLocationId} offer={offer} idempotencyKey={idempotencyKey} />
      ))}
    </li>
  );
}

function VendorGroup({
  group,
  locationId,
  canOrder,
  offers,
  idempotencyKey,
}: {
  group: ReorderGroup;
  locationId: string;
  canOrder: boolean;
  offers: Map<string, TransferOffer[]>;
  idempotencyKey?: string;
}) {
  const headingId = `reorder-${group.vendorId ?? "none"}`;
  const count = group.lines.length;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h3 id={headingId} className="font-semibold">
        {group.vendorName ?? "No default vendor"}
      </h3>
      <ul className="flex flex-col">
        {[...group.lines, ...group.held].map((s) => (
          <SuggestionRow
            key={s.variationId}
            s={s}
            offers={offers.get(s.variationId) ?? []}
            idempotencyKey={idempotencyKey}
          />
        ))}
      </ul>
      {group.vendorId === null ? (
        <p className="text-slate-600 text-sm">
          These products have no default vendor: set one on each product to order them from here.
        </p>
      ) : count === 0 ? (
        <p className="text-slate-600 text-sm">
          Nothing left to order from {group.vendorName}: it is on a draft already.
        </p>
      ) : canOrder ? (
        <Form method="post" action="/purchase-orders" className="flex">
          <input type="hidden" name="intent" value={CREATE_INTENT} />
          {idempotencyKey && (
            <input type="hidden" name="idempotencyKey" value={`${idempotencyKey}-${group.vendorId}`} />
          )}
          <input type="hidden" name="locationId" value={locationId} />
          <input type="hidden" name="vendorId" value={group.vendorId} />
          {group.lines.map((s) => (
            <Fragment key={s.variationId}>
              <input type="hidden" name="variationId" value={s.variationId} />
              <input type="hidden" name="packages" value={s.packages} />
            </Fragment>
          ))}
          <Button>
            Draft an order of {count.toLocaleString("en-US")} {count === 1 ? "line" : "lines"}
          </Button>
        </Form>
      ) : (
        <p className="text-slate-600 text-sm">Only an admin of this location can draft orders.</p>
      )}
    </section>
  );
}

export function ReorderView({
  locationId,
  locationName,
  suggestions,
  offers = [],
  vendors,
  vendorLinks,
  canOrder,
  idempotencyKey,
}: {
  locationId: string;
  locationName: string;
  /** The suggestions of the vendors shown, the vendors with the most first. */
  suggestions: readonly ShownSuggestion[];
  /** How many vendors have a suggestion here, shown or not (default: those of `suggestions`). */
  vendors?: number;
  /** The page with every vendor, and with only the first (plain links: they work before JavaScript). */
  vendorLinks?: { all: string; first: string; allShown: boolean };
  /** Transfers another location offers to this one (the route composes them from the transfers' suggestions). */
  offers?: readonly TransferOffer[];
  /** WRITE_PURCHASING at the location. */
  canOrder: boolean;
  /** Sent with each form, so a double submit makes one draft. */
  idempotencyKey?: string;
}) {
  const groups = groupByVendor(suggestions);
  const byVariation = offersByVariation(offers);
  const total = vendors ?? groups.length;
  const more = total > groups.length && vendorLinks && !vendorLinks.allShown;
  const fewer = vendorLinks?.allShown && total > REORDER_VENDORS_SHOWN;
  return (
    <section aria-labelledby="reorder-title" data-testid="reorder-view" className="flex flex-col gap-3">
      <div>
        <h2 id="reorder-title" className="font-semibold text-lg">
          To reorder at {locationName}
        </h2>
        <p className="text-slate-600 text-sm">
          On hand, on order and in transit at or under the reorder point, by default vendor.
          {total > REORDER_VENDORS_SHOWN ? " The vendors with the most suggestions come first." : ""}
        </p>
      </div>
      {groups.length === 0 ? (
        <p className="text-slate-600 text-sm">Nothing is at or under its reorder point here.</p>
      ) : (
        groups.map((group) => (
          <VendorGroup
            key={group.vendorId ?? "none"}
            group={group}
            locationId={locationId}
            canOrder={canOrder}
            offers={byVariation}
            idempotencyKey={idempotencyKey}
          />
        ))
      )}
      {more && (
        <p className="text-slate-600 text-sm" data-testid="reorder-vendors">
          {groups.length.toLocaleString("en-US")} of {total.toLocaleString("en-US")} vendors shown.{" "}
          <Link to={vendorLinks.all} className="text-sky-700 underline">
            Show all {total.toLocaleString("en-US")} vendors
          </Link>
        </p>
      )}
      {fewer && (
        <p className="text-slate-600 text-sm" data-testid="reorder-vendors">
          <Link to={vendorLinks.first} className="text-sky-700 underline">
            Show only the {REORDER_VENDORS_SHOWN} vendors with the most
          </Link>
        </p>
      )}
    </section>
  );
}
