// /scan (phone first): a code from a wedge scanner, the input or the camera is looked up as
// GET /api/barcodes/{code} answers it. The server renders `?code=` (so the input works before
// JavaScript); later scans on the page go through the client data layer, which the vial actions
// refresh. An item shows its vial card; a catalogue code its variation's items here.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { type ShouldRevalidateFunction, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useRef, useSyncExternalStore } from "react";
import { requirePermission } from "~/access/guard.server";
import { orOutage } from "~/db/outage.server";
import type { Loaded } from "~/scan/live-result";
import { lookupKey } from "~/scan/queries";
import { type Found, ResultView } from "~/scan/result-view";
import { CameraScanner, ScanForm, useWedgeScanner } from "~/scan/scan-input";
import { scanScreen } from "~/scan/screen.server";
import { area } from "~/shell/areas";

export const meta: MetaFunction = () => [{ title: "Scan · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const viewer = await requirePermission(args, area("/scan").permission);
  const code = new URL(args.request.url).searchParams.get("code");
  const now = new Date();
  const actor = { ...viewer.user, locationId: viewer.locationId };
  return { code, now: now.toISOString(), ...(await orOutage(scanScreen(args.context.db, actor, code, now))) };
}

// Once the page runs, a new code is looked up by the client data layer, not by this loader.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;

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
  // What the loader read is the page's first code only: once another was shown, the data layer reads.
  const moved = useRef(false);
  if (code !== loaded.code) moved.current = true;

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-4">
      <h1 className="font-semibold text-2xl">Scan</h1>
      <p className="text-slate-600 text-sm">
        Scan a vial's label or a product's barcode with a barcode scanner anywhere on this page, type the code, or use
        the camera.
      </p>
      <ScanForm code={code} />
      <CameraScanner onScan={scanned} />
      {code !== null && <ScanResult key={code} code={code} loaded={moved.current ? null : loaded} />}
    </div>
  );
}

function ScanResult({ code, loaded }: { code: string; loaded: Loaded | null }) {
  const { services, now } = useLoaderData<typeof loader>();
  const answer = loaded?.answer;
  const rendered = (
    <ResultView
      code={code}
      problem={answer && answer.status !== 200 ? (answer.body as { error: string }).error : null}
      found={answer?.status === 200 ? (answer.body as Found) : undefined}
      items={loaded?.items ?? undefined}
      now={now}
    />
  );
  if (!useHydrated()) return rendered;
  return (
    <Suspense fallback={rendered}>
      <LiveResult code={code} loaded={loaded} now={now} services={services} />
    </Suspense>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
