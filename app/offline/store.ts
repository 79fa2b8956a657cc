// This tab's view of the offline queue, for the badge, the vial page and the forms that save to it:
// the signed-in user's entries, refreshed on every change (this tab's or another's). The queue's
// IndexedDB code (./queue, idb) and the replayer are loaded with `import()` the first time they are
// needed, so the pages' first-visit JavaScript carries only this file.
import { useSyncExternalStore } from "react";
import { createStore, type Store } from "~/browser/store";
import type { OfflineCommand } from "./contract";
import type { OfflineQueue, QueueChange, QueueEntry } from "./queue";
import type { ReplayRound } from "./replay";

export interface QueueView {
  /** Whose entries these are; null before the shell said who is signed in. */
  userId: string | null;
  entries: readonly QueueEntry[];
  /** A round of sending is running in this tab. */
  sending: boolean;
  /** Why the last round stopped early, if it did. */
  stopped: ReplayRound["stopped"];
}

const EMPTY: QueueView = { userId: null, entries: [], sending: false, stopped: null };
const store = createStore(EMPTY);

function set(next: Partial<QueueView>) {
  store.set({ ...store.getSnapshot(), ...next });
}

export const queueView: Store<QueueView> = store;

/** The signed-in user's queue as this tab last read it (empty on the server and before it is read). */
export function useQueueView(): QueueView {
  return useSyncExternalStore(queueView.subscribe, queueView.getSnapshot, queueView.getServerSnapshot);
}

let opening: Promise<OfflineQueue> | null = null;

/** The queue, opened once per tab. */
export function openQueue(): Promise<OfflineQueue> {
  opening ??= import("./queue").then((m) => m.openOfflineQueue());
  // A failure (private mode without IndexedDB) is tried again next time, not remembered.
  opening.catch(() => {
    opening = null;
  });
  return opening;
}

/** Reads the user's entries again into the view. */
export async function refreshView(): Promise<void> {
  const { userId } = store.getSnapshot();
  if (!userId) return;
  const queue = await openQueue();
  const entries = await queue.list(userId);
  if (store.getSnapshot().userId === userId) set({ entries });
}

/** Who is signed in: their entries are the ones shown and sent. Called by the shell's hook. */
export function setQueueUser(userId: string | null): void {
  if (store.getSnapshot().userId === userId) return;
  set({ userId, entries: [], stopped: null });
}

let sender: (() => Promise<void>) | null = null;

/** The shell's hook says how a round is started (the replayer with its triggers). */
export function setSender(send: (() => Promise<void>) | null): void {
  sender = send;
}

/** "Send now", and after an entry is saved while online. */
export function sendNow(): Promise<void> {
  return sender ? sender() : Promise.resolve();
}

export function setSending(sending: boolean, stopped?: ReplayRound["stopped"]): void {
  set(stopped === undefined ? { sending } : { sending, stopped });
}

/** A new entry, saved by a form at the cart. Returns what was saved (the first one, for a key saved twice). */
export async function saveToQueue(entry: {
  key: string;
  locationId: string;
  command: OfflineCommand;
}): Promise<QueueEntry> {
  const userId = store.getSnapshot().userId;
  if (!userId) throw new Error("Nobody is signed in on this page: the offline queue is not open.");
  const queue = await openQueue();
  return queue.save({ ...entry, userId });
}

/** Its person has seen the flag. */
export async function dismissFlag(key: string): Promise<void> {
  const { userId } = store.getSnapshot();
  if (!userId) return;
  const queue = await openQueue();
  await queue.dismiss(key, userId);
}

export type { QueueChange, QueueEntry };
