// The notice over a screen shown from its saved copy (issue #25): the lead mounts <SavedCopyNotice />
// at the top of the shell's main area. It learns of a saved copy from the document's Server-Timing
// (a page loaded from the service worker's copy) and from the worker's messages (a client-side
// navigation whose data came from a copy); see saved-copy.ts.
import { useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { isCopyMessage, savedAtFromTiming, savedCopyText } from "./saved-copy";

interface ShownCopy {
  pathname: string;
  savedAt: string | null;
}

/** The document's own saved time, when the service worker answered its load from a copy. */
function documentCopy(): ShownCopy | null {
  const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (!navigation) return null;
  const savedAt = savedAtFromTiming(navigation.serverTiming ?? []);
  return savedAt ? { pathname: new URL(navigation.name).pathname, savedAt } : null;
}

const TICK_MS = 30_000;

export function SavedCopyNotice() {
  const { pathname } = useLocation();
  const [copy, setCopy] = useState<ShownCopy | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    setCopy(documentCopy());
    setNow(Date.now());
    if (!("serviceWorker" in navigator)) return;
    const worker = navigator.serviceWorker;
    const onMessage = (event: MessageEvent) => {
      if (!isCopyMessage(event.data)) return;
      setCopy({ pathname: event.data.pathname, savedAt: event.data.savedAt });
      setNow(Date.now());
    };
    worker.addEventListener("message", onMessage);
    worker.startMessages();
    return () => worker.removeEventListener("message", onMessage);
  }, []);

  const shown = copy?.savedAt && copy.pathname === pathname ? copy.savedAt : null;
  // The age moves on while the notice is up.
  useEffect(() => {
    if (!shown) return;
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [shown]);

  if (!shown) return null;
  return (
    <p
      role="status"
      data-testid="saved-copy-notice"
      className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      {savedCopyText(new Date(shown), new Date(now))}
    </p>
  );
}
