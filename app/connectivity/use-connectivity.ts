// React's view of the connectivity store, and the one place the monitor is started from.
import { useEffect, useRef, useSyncExternalStore } from "react";
import { type Connectivity, type ConnectivityStore, connectivity, startConnectivityMonitor } from "./connectivity";

export function useConnectivity(store: ConnectivityStore = connectivity): Connectivity {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
}

/**
 * Watches connectivity while the calling component (the app shell) is mounted. `onRestored` may
 * change between renders; the latest one is called.
 */
export function useConnectivityMonitor(onRestored: () => unknown): void {
  const latest = useRef(onRestored);
  latest.current = onRestored;
  useEffect(() => startConnectivityMonitor({ onRestored: () => latest.current() }), []);
}
