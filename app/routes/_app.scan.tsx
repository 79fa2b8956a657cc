// /scan (phone first): a code from a wedge scanner, the input or the camera is looked up as
// GET /api/barcodes/{code} answers it. The server renders `?code=` (so the input works before
// JavaScript); later scans on the page go through the client data layer. An item shows its vial
// card with its actions, the vial page's forms posted here (so they work before JavaScript too),
// each answered back to `?code=` with a toast, or with its problem or question on the card; a
// catalogue code shows its variation's items here.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import {
  type ClientActionFunctionArgs,
  type ShouldRevalidateFunction,
  useActionData,
  useLoaderData,
  useNavigate,
  useSearchParams,
} from "@remix-run/react";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useRef, useSyncExternalStore } from "react";
import { actorHere } from "~/access/door.server";
import { refreshingClientAction } from "~/browser/refresh-after-action";
import { orOutage } from "~/http/outage.server";
import { intentOf } from "~/http/outcome.server";
import { isQueued, readAgainOnline } from "~/offline/queued";
import { QueuedNotice, useKeysAfterQueue } from "~/offline/queued-notice";
import { offlineVialField, vialName } from "~/offline/vial-facts";
import type { Loaded } from "~/scan/live-result";
import { lookupKey } from "~/scan/queries";
import { type Found, ResultView } from "~/scan/result-view";
import { scanScreen } from "~/scan/screen.server";
import { REFRESH_OF } from "~/scan/vial-action";
import { scanPath, VialActions } from "~/scan/vial-actions";
import type { VialData } from "~/scan/vial-card";
import { CameraScanner, ScanForm, useWedgeScanner } from "~/scanner/scan-input";
import { area } from "~/shell/areas";
import { VIAL_INTENTS, type VialProblem } from "~/vials/actions";
import { VIAL_INTENT_HANDLERS, vialFormKeys } from "~/vials/intents.server";
import { needsWitness, unitsText } from "~/vials/rules";

export const meta: MetaFunction = () => [{ title: "Scan · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/scan").permission);
  const code = new URL(args.request.url).searchParams.get("code");
  const now = new Date();
  return {
    code,
    now: now.toISOString(),
    ...(await orOutage(scanScreen(args.context.db, actor, code, now))),
    keys: vialFormKeys(),
  };
}

/** A vial form of the card, posted here with its vial (`itemId`); it answers back to the code's result. */
export async function action(args: ActionFunctionArgs) {
  const form = Object.fromEntries(await args.request.formData());
  const intent = intentOf(form, VIAL_INTENTS);
  // Every action needs WRITE_INVENTORY where the user stands; the verb reaches the vial only there.
  const actor = await actorHere(args, "WRITE_INVENTORY");
  const code = new URL(args.request.url).searchParams.get("code") ?? "";
  const itemId = typeof form.itemId === "string" ? form.itemId : "";
  return VIAL_INTENT_HANDLERS[intent]({ db: args.context.db, actor, itemId, form, back: scanPath(code) });
}

// With JavaScript, the spec's refresh set of each action, after the action itself; offline (or when
// the post fails at the network) the card's form is saved on the device instead (app/offline).
const refreshing = refreshingClientAction(REFRESH_OF);
export const clientAction = async (args: ClientActionFunctionArgs) =>
  (await import("~/offline/cart-action")).vialCartAction({
    request: args.request,
    itemId: undefined,
    online: () => refreshing(args),
  });

// Once the page runs, a new code is looked up by the client data layer, not by this loader; after
// a vial form's post, the loader reads the code's result (and fresh keys) again.
// A refused form, or one saved on the device, changed nothing on the server: nothing to read again.
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  args.formMethod && args.formMethod !== "GET"
    ? readAgainOnline(args)
    : args.currentUrl.pathname === args.nextUrl.pathname
      ? false
      : args.defaultShouldRevalidate;

// The result that runs (queries, actions) is loaded once the page has hydrated: the first visit
// ships only what draws the server's result (ADR 0017).
const LiveResult = lazy(() => import("~/scan/live-result"));
const noSubscription = () => () => {};

/** False on the server and while hydrating, true once the page runs: no effect needed. */
function useHydrated() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export default function ScanScreen() {
  const loaded = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const code = params.get("code");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  function scanned(next: string) {
    // Scanning the same label again reads it afresh.
    void queryClient.invalidateQueries({ queryKey: lookupKey(next) });
    navigate(`/scan?code=${encodeURIComponent(next)}`);
  }
  useWedgeScanner(scanned);
  // What the loader read is the page's first code, or the code a vial form came back to: once
  // another was shown, the data layer reads until the loader reads again.
  const readBeforeMove = useRef<string | null>(null);
  if (code !== loaded.code) readBeforeMove.current = loaded.now;
  const fresh = code === loaded.code && readBeforeMove.current !== loaded.now;

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-4">
      <h1 className="font-semibold text-2xl">Scan</h1>
      <p className="text-slate-600 text-sm">
        Scan a vial's label or a product's barcode with a barcode scanner anywhere on this page, type the code, or use
        the camera.
      </p>
      <ScanForm code={code} />
      <CameraScanner onScan={scanned} />
      {code !== null && <ScanResult key={code} code={code} loaded={fresh ? loaded : null} />}
    </div>
  );
}

function ScanResult({ code, loaded }: { code: string; loaded: Loaded | null }) {
  const { services, now, keys } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof clientAction>();
  const queued = isQueued(posted) ? posted.queued : null;
  const problem = queued ? undefined : (posted as (VialProblem & { offline?: boolean }) | undefined);
  // The key a form saved on the device took is not used again.
  const formKeys = useKeysAfterQueue(keys, queued);
  const hydrated = useHydrated();
  const answer = loaded?.answer;
  const actions = (vial: VialData) => (
    <>
      {queued && <QueuedNotice queued={queued} />}
      <VialActions
        vial={vial}
        code={code}
        now={now}
        services={services}
        keys={formKeys}
        problem={problem}
        // What the forms carry to be saved on the device when there is no connection.
        hidden={offlineVialField({
          name: vialName(vial),
          unit: vial.baseUnit,
          unitsLeft: unitsText(vial, vial.unitsRemaining),
          wasting: vial.unitsRemaining,
          locationId: vial.locationId,
          witness: needsWitness(vial),
        })}
      />
    </>
  );
  const rendered = (
    <ResultView
      code={code}
      problem={answer && answer.status !== 200 ? (answer.body as { error: string }).error : null}
      found={answer?.status === 200 ? (answer.body as Found) : undefined}
      items={loaded?.items ?? undefined}
      now={now}
      actions={actions}
    />
  );
  // What the loader read is shown as read; a code scanned since is looked up once the page runs.
  if (loaded || !hydrated) return rendered;
  return (
    <Suspense fallback={rendered}>
      <LiveResult code={code} now={now} actions={actions} />
    </Suspense>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
