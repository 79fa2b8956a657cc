// The one shape of the browser's small shared states (connectivity, the breakers, the offline
// queue's view): framework-free, read by React with useSyncExternalStore, listeners told only of a
// real change.

export interface Store<T> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): T;
  /** What a page rendered on the server shows, so the first client render matches it. */
  getServerSnapshot(): T;
}

export interface WritableStore<T> extends Store<T> {
  set(next: T): void;
}

export function createStore<T>(initial: T, server: T = initial): WritableStore<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => state,
    getServerSnapshot: () => server,
    set(next) {
      if (Object.is(next, state)) return;
      state = next;
      for (const listener of listeners) listener();
    },
  };
}
