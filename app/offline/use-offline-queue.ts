// Starts the offline queue's replayer for the signed-in user while the shell is mounted (the lead
// mounts it in app/routes/_app.tsx). A round runs: on start when online, when the connection comes
// back (offline → restored or online), after an entry is saved while online (in this tab or
// another), every 30 s while entries wait, and on "Send now". After a round that changed anything
// the page's data is read again. The queue and the replayer are loaded with `import()` once the
// page runs, never on the first paint.
import { useLocation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { browserQueryClient } from "~/browser/query-client";
import { connectivity } from "~/connectivity/connectivity";
import { hasCartForms } from "~/connectivity/offline-paths";
import { openQueue, queueView, refreshView, setQueueUser, setSender, setSending } from "./store";

/** How often waiting entries are tried again while the connection seems fine (the replayer's REPLAY_INTERVAL_MS). */
export const RETRY_WAITING_MS = 30_000;

/** Whether a send is worth trying: the monitor does not say offline, and neither does the browser. */
export function seemsOnline(): boolean {
  return connectivity.getSnapshot() !== "offline" && globalThis.navigator?.onLine !== false;
}

export function useOfflineQueue(userId: string): void {
  // What saving needs, loaded at the cart while there is a connection (the service worker keeps the
  // files it saw): a form sent offline later must not wait on a file it cannot fetch. Only there:
  // elsewhere it would be some 45 KiB more on every first visit.
  const atTheCart = hasCartForms(useLocation().pathname);
  useEffect(() => {
    if (!atTheCart) return;
    void Promise.all([
      import("./replay"),
      import("./cart-action"),
      import("~/vials/forms"),
      import("~/counts/forms"),
    ]).catch(() => {});
  }, [atTheCart]);

  const { revalidate } = useRevalidator();
  const latestRevalidate = useRef(revalidate);
  latestRevalidate.current = revalidate;

  useEffect(() => {
    let stopped = false;
    let unsubscribeQueue: () => void = () => {};
    setQueueUser(userId);

    async function send(retryStuck = false) {
      if (stopped || !seemsOnline()) return;
      setSending(true);
      try {
        const [{ replayWaiting }, queue] = await Promise.all([import("./replay"), openQueue()]);
        const round = await replayWaiting({ queue, userId, retryStuck });
        setSending(false, round.busy ? undefined : round.stopped);
        if (!stopped && (round.done > 0 || round.flagged > 0)) {
          // What was sent is now the server's: the page and the cached data show it.
          latestRevalidate.current();
          void browserQueryClient().invalidateQueries();
        }
      } catch (error) {
        setSending(false);
        console.error("Sending the offline queue failed", error);
      }
    }
    // "Send now" also tries the stuck entries again.
    setSender(() => send(true));

    openQueue()
      .then((queue) => {
        if (stopped) return;
        unsubscribeQueue = queue.subscribe((change) => {
          void refreshView();
          if (change.type === "saved") void send();
        });
        void refreshView().then(() => send());
      })
      .catch((error) => console.warn("The offline queue cannot be opened on this device", error));

    let last = connectivity.getSnapshot();
    const unsubscribeConnectivity = connectivity.subscribe(() => {
      const now = connectivity.getSnapshot();
      if (last === "offline" && now !== "offline") void send();
      last = now;
    });

    const interval = setInterval(() => {
      if (queueView.getSnapshot().entries.some((entry) => entry.status === "waiting")) void send();
    }, RETRY_WAITING_MS);

    return () => {
      stopped = true;
      setSender(null);
      unsubscribeQueue();
      unsubscribeConnectivity();
      clearInterval(interval);
    };
  }, [userId]);
}
