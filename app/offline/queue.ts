// The cart's offline queue (issue #25): starts, draws, empties, discards and counts made without a
// connection, kept in IndexedDB (database `clinic-offline`) in the order they were made, each under
// its idempotency key. An entry leaves only when the server said it was done, or when its person
// dismisses a flag they have seen; a reload or a browser restart finds it where it was. Every change
// is announced to the other tabs (BroadcastChannel) so each tab's badge agrees. Loaded with
// `import()` by the shell once the page runs: first-visit JavaScript does not carry it (ADR 0036).
import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import type { OfflineCommand, OfflineFlag } from "./contract";

export const QUEUE_DATABASE = "clinic-offline";
export const QUEUE_CHANNEL = "clinic-offline";
const STORE = "entries";
const BY_SEQ = "bySeq";

/**
 * waiting: not sent yet, or sent without an answer (it goes again, under the same key).
 * flagged: the server refused it now and kept it as a record a manager resolves.
 * stuck: the server refused the envelope itself (400, 403, 404): kept, with its message, never dropped.
 */
export type EntryStatus = "waiting" | "flagged" | "stuck";

export interface QueueEntry {
  /** The idempotency key: the form's, sent on every try. */
  key: string;
  /** Its place in the queue: later entries have higher numbers. */
  seq: number;
  userId: string;
  /** The location in scope when it was recorded: it is sent there. */
  locationId: string;
  command: OfflineCommand;
  status: EntryStatus;
  flag?: OfflineFlag;
  /** Why a stuck entry cannot be sent as it is. */
  problem?: string;
  /** When it was saved on this device (ISO 8601). */
  savedAt: string;
}

interface QueueSchema extends DBSchema {
  entries: { key: string; value: QueueEntry; indexes: { bySeq: number } };
}

/** What changed, as announced to this tab's listeners and the other tabs'. */
export type QueueChange = { type: "saved" | "updated" | "removed"; key: string };

export interface OfflineQueue {
  /** Saves a new entry at the end; an entry already under `key` (a double tap) is kept as it was. */
  save(entry: Pick<QueueEntry, "key" | "userId" | "locationId" | "command">, now?: Date): Promise<QueueEntry>;
  /** `userId`'s entries (all users' without one), in the order they were made. */
  list(userId?: string): Promise<QueueEntry[]>;
  /** The server's answer to a try: flagged or stuck, with why. */
  mark(
    key: string,
    change: { status: "flagged"; flag: OfflineFlag } | { status: "stuck"; problem: string },
  ): Promise<void>;
  /** The server said done. */
  remove(key: string): Promise<void>;
  /** Its person has seen the flag: it leaves the device (the flag stays with the server for a manager). */
  dismiss(key: string, userId: string): Promise<boolean>;
  /** Told of every change, this tab's and the others'. */
  subscribe(listener: (change: QueueChange) => void): () => void;
  close(): void;
}

export interface QueueOptions {
  /** Another tab's view of the same queue (tests); BroadcastChannel where the browser has one. */
  channel?: Pick<BroadcastChannel, "postMessage" | "addEventListener" | "removeEventListener" | "close"> | null;
  name?: string;
}

export async function openOfflineQueue({
  channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(QUEUE_CHANNEL),
  name = QUEUE_DATABASE,
}: QueueOptions = {}): Promise<OfflineQueue> {
  const db: IDBPDatabase<QueueSchema> = await openDB<QueueSchema>(name, 1, {
    upgrade(database) {
      const store = database.createObjectStore(STORE, { keyPath: "key" });
      store.createIndex(BY_SEQ, "seq", { unique: true });
    },
    // A newer version of the app opened it elsewhere: let it, this tab reloads with the new code.
    blocking() {
      db.close();
    },
  });
  const listeners = new Set<(change: QueueChange) => void>();

  function announce(change: QueueChange) {
    for (const listener of listeners) listener(change);
    channel?.postMessage(change);
  }
  const fromOtherTab = (event: Event) => {
    const change = (event as MessageEvent<QueueChange>).data;
    for (const listener of listeners) listener(change);
  };
  channel?.addEventListener("message", fromOtherTab);

  return {
    async save({ key, userId, locationId, command }, now = new Date()) {
      // One read-write transaction: another tab saving at the same moment waits for it, so numbers never repeat.
      const tx = db.transaction(STORE, "readwrite");
      const existing = await tx.store.get(key);
      if (existing) {
        await tx.done;
        return existing;
      }
      const last = await tx.store.index(BY_SEQ).openCursor(null, "prev");
      const entry: QueueEntry = {
        key,
        seq: (last?.value.seq ?? 0) + 1,
        userId,
        locationId,
        command,
        status: "waiting",
        savedAt: now.toISOString(),
      };
      await tx.store.add(entry);
      await tx.done;
      announce({ type: "saved", key });
      return entry;
    },

    async list(userId) {
      const all = await db.getAllFromIndex(STORE, BY_SEQ);
      return userId === undefined ? all : all.filter((entry) => entry.userId === userId);
    },

    async mark(key, change) {
      const tx = db.transaction(STORE, "readwrite");
      const entry = await tx.store.get(key);
      if (!entry) return void (await tx.done);
      const { flag: _flag, problem: _problem, ...rest } = entry;
      await tx.store.put({ ...rest, ...change });
      await tx.done;
      announce({ type: "updated", key });
    },

    async remove(key) {
      await db.delete(STORE, key);
      announce({ type: "removed", key });
    },

    async dismiss(key, userId) {
      const tx = db.transaction(STORE, "readwrite");
      const entry = await tx.store.get(key);
      // Only a flag, only its own person: a waiting or stuck entry is never thrown away from here.
      const gone = entry?.status === "flagged" && entry.userId === userId;
      if (gone) await tx.store.delete(key);
      await tx.done;
      if (gone) announce({ type: "removed", key });
      return gone;
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    close() {
      channel?.removeEventListener("message", fromOtherTab);
      channel?.close();
      listeners.clear();
      db.close();
    },
  };
}
