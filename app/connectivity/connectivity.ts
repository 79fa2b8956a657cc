// Whether the app can reach its server (spec sections 4 and 7): GET /health every 30 s and the
// browser's online/offline events. Framework-free, so React reads it with useSyncExternalStore.
// The checks go through a circuit breaker (spec section 9): after 5 failed checks the server is
// left alone for 60 s, then one trial check decides, and the banner says when that will be.
import { type CircuitBreakers, createCircuitBreakers } from "~/browser/circuit-breaker";
import { createStore, type Store, type WritableStore } from "~/browser/store";
import { errorFromResponse, NetworkError, TimeoutError } from "~/errors/classify";

export type Connectivity = "online" | "offline" | "restored";

export const HEALTH_PATH = "/health";
export const HEALTH_CHECK_INTERVAL_MS = 30_000;
export const HEALTH_CHECK_TIMEOUT_MS = 5_000;
export const DEGRADED_MODE_WARNING = "Connection to the server lost: running in degraded mode until it is back.";

/** Pages are rendered on the server as if online. */
export type ConnectivityStore = Store<Connectivity>;

/** Only the monitor writes. */
export type WritableConnectivityStore = WritableStore<Connectivity>;

export function createConnectivityStore(): WritableConnectivityStore {
  return createStore<Connectivity>("online");
}

const appStore = createConnectivityStore();

/** The app's one store; the monitor started in the app shell writes to it. */
export const connectivity: ConnectivityStore = appStore;

export interface MonitorOptions {
  fetch?: typeof globalThis.fetch;
  /** Called on the way back online, e.g. to refetch active queries; the state stays "restored" until it settles. */
  onRestored?: () => unknown;
  intervalMs?: number;
  timeoutMs?: number;
  /** Where online/offline events come from; the browser window by default. */
  events?: Pick<EventTarget, "addEventListener" | "removeEventListener">;
  store?: WritableConnectivityStore;
  /** The breakers the checks run through: the app's own (watched by the banner) in the app. */
  breakers?: CircuitBreakers;
}

export const HEALTH_OPERATION = `GET ${HEALTH_PATH}`;

/**
 * Starts watching; returns the function that stops it. The first check runs one interval after
 * start: the page that started it has just loaded, so the server was reachable a moment ago.
 */
export function startConnectivityMonitor({
  fetch = (input, init) => globalThis.fetch(input, init),
  onRestored = () => {},
  intervalMs = HEALTH_CHECK_INTERVAL_MS,
  timeoutMs = HEALTH_CHECK_TIMEOUT_MS,
  events = typeof window === "undefined" ? undefined : window,
  store = appStore,
  breakers = createCircuitBreakers(),
}: MonitorOptions = {}): () => void {
  let stopped = false;
  let checking: AbortController | undefined;

  function goOffline() {
    if (store.getSnapshot() === "offline") return;
    console.warn(DEGRADED_MODE_WARNING);
    store.set("offline");
  }

  async function comeBack() {
    if (store.getSnapshot() !== "offline") return;
    store.set("restored");
    try {
      await onRestored();
    } catch (error) {
      console.error("Refreshing after the connection came back failed", error);
    }
    if (!stopped && store.getSnapshot() === "restored") store.set("online");
  }

  /** One request to /health: resolves when the server and its database answer, else throws our typed error. */
  async function probe(signal: AbortSignal) {
    let response: Response;
    try {
      response = await fetch(HEALTH_PATH, { cache: "no-store", signal });
    } catch (error) {
      if (signal.aborted) throw new TimeoutError(`Request timeout after ${timeoutMs}ms`, null);
      throw new NetworkError({ cause: error });
    }
    // 503 means the server is up but its database is not: the app cannot work normally either.
    if (!response.ok) throw errorFromResponse(response.status, await response.text().catch(() => ""));
  }

  async function check() {
    if (checking || stopped) return;
    const controller = new AbortController();
    checking = controller;
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let reachable = false;
    try {
      // While the breaker is open this fails at once, without asking the server.
      await breakers.run(HEALTH_OPERATION, () => probe(controller.signal), timeoutMs);
      reachable = true;
    } catch {
      reachable = false;
    } finally {
      clearTimeout(timer);
      checking = undefined;
    }
    if (stopped) return;
    if (reachable) await comeBack();
    else goOffline();
  }

  // The browser is sure when the network is gone, but "online" only means a network exists: ask the server.
  const onOffline = () => goOffline();
  const onOnline = () => void check();
  events?.addEventListener("offline", onOffline);
  events?.addEventListener("online", onOnline);
  const interval = setInterval(() => void check(), intervalMs);
  // A page loaded with no network (a reload offline, drawn from the service worker's saved copy)
  // gets no "offline" event: the browser already knows, so say so at once.
  if (events && globalThis.navigator?.onLine === false) goOffline();

  return () => {
    stopped = true;
    clearInterval(interval);
    checking?.abort();
    events?.removeEventListener("offline", onOffline);
    events?.removeEventListener("online", onOnline);
  };
}
