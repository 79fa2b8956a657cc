// React's view of the connectivity and breaker stores, and the one place the monitor is started from.
import { useEffect, useRef, useSyncExternalStore } from "react";
import { type BreakerStatus, type BreakerStatusStore, breakerStatus } from "~/browser/breaker-status";
import { appBreakers } from "~/browser/request";
import { type Connectivity, type ConnectivityStore, connectivity, startConnectivityMonitor } from "./connectivity";

export function useConnectivity(store: ConnectivityStore = connectivity): Connectivity {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
}

/** The worst of the app's circuit breakers: open, half-open (trying again) or closed. */
export function useBreakerStatus(store: BreakerStatusStore = breakerStatus): BreakerStatus {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
}

/**
 * Watches connectivity while the calling component (the app shell) is mounted, its checks through
 * the app's breakers. `onRestored` may change between renders; the latest one is called.
 */
export function useConnectivityMonitor(onRestored: () => unknown): void {
  const latest = useRef(onRestored);
  latest.current = onRestored;
  useEffect(() => startConnectivityMonitor({ onRestored: () => latest.current(), breakers: appBreakers }), []);
}
