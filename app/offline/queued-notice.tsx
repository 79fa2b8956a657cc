// What a vial page (and the scan card) says about the offline queue: that a form was just saved on
// this device instead of sent, and which of this vial's entries are still held here.
import { useRef } from "react";
import type { Queued } from "./queued";
import { useQueueView } from "./store";
import { EntryView } from "./waiting-badge";

/** "Saved on this device: …. It will be sent when the connection is back." */
export function QueuedNotice({ queued }: { queued: Queued["queued"] }) {
  return (
    <div role="status" className="flex flex-col gap-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
      <p className="font-medium text-amber-950" data-testid="queued-message">
        {queued.message}
      </p>
      {queued.note && <p className="text-amber-900">{queued.note}</p>}
    </div>
  );
}

/** This vial's entries held on the device, oldest first. */
function useHeldHere(itemId: string) {
  return useQueueView().entries.filter((entry) => entry.command.itemId === itemId);
}

/**
 * Whether a start (or a draw, which starts a sealed vial) of this vial waits on the device: the
 * page does not offer Start again, which the server would refuse and flag once both are sent.
 */
export function useStartHeld(itemId: string): boolean {
  return useHeldHere(itemId).some(
    (entry) => entry.status === "waiting" && (entry.command.kind === "start" || entry.command.kind === "draw"),
  );
}

/** This vial's entries held on the device, oldest first; nothing when there are none. */
export function WaitingHere({ itemId }: { itemId: string }) {
  const here = useHeldHere(itemId);
  if (here.length === 0) return null;
  return (
    <section
      aria-label="Saved on this device"
      className="flex flex-col gap-1 rounded-md border border-amber-300 bg-white p-3 text-sm"
    >
      <h2 className="font-semibold">Saved on this device, not yet on the server</h2>
      <ul>
        {here.map((entry) => (
          <EntryView key={entry.key} entry={entry} />
        ))}
      </ul>
    </section>
  );
}

/**
 * The forms' keys: the loader's, except those a form saved on the device took, each replaced by a
 * fresh one until the loader gives new keys. A key is never used for two things.
 */
export function useKeysAfterQueue<K extends string>(keys: Record<K, string>, queued: Queued["queued"] | null) {
  const taken = useRef<{ from: Record<K, string>; fresh: Partial<Record<string, string>> }>({ from: keys, fresh: {} });
  if (taken.current.from !== keys) taken.current = { from: keys, fresh: {} };
  if (queued) taken.current.fresh[queued.intent] = queued.nextKey;
  return { ...keys, ...taken.current.fresh } as Record<K, string>;
}
