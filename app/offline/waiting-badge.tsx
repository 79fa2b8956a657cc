// "N waiting": what this device holds for the signed-in user that the server has not taken yet,
// hidden when nothing is held. It opens a panel listing each entry (what it was, when it was saved,
// where it stands): a flagged one says why and that a manager resolves it (a link to /flagged) and
// can be dismissed once seen; a stuck one says what the server said; "Send now" while online.
// The panel is Headless UI's Dialog, which the shell's drawer ships already (a Popover would bring
// its positioning library: some 20 KB more on every page).
import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { Link } from "@remix-run/react";
import { useState } from "react";
import { useConnectivity } from "~/connectivity/use-connectivity";
import { formatLocal } from "~/ui/clock";
import { dismissFlag, type QueueEntry, sendNow, useQueueView } from "./store";

export const FLAG_RESOLVER = "A manager will resolve it.";
export const FLAGGED_PATH = "/flagged";

/** "3 waiting", "2 waiting · 1 flagged", "1 flagged", or null when nothing is held. */
export function waitingLabel(entries: readonly Pick<QueueEntry, "status">[]): string | null {
  const count = (status: QueueEntry["status"]) => entries.filter((e) => e.status === status).length;
  const parts = [
    [count("waiting"), "waiting"],
    [count("flagged"), "flagged"],
    [count("stuck"), "not sent"],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, word]) => `${n} ${word}`);
  return said.length ? said.join(" · ") : null;
}

/** One entry: its summary, when it was saved, and where it stands. */
export function EntryView({ entry, onDismiss }: { entry: QueueEntry; onDismiss?: (key: string) => void }) {
  return (
    <li className="flex flex-col gap-1 border-slate-200 border-b py-2 last:border-b-0" data-testid="queue-entry">
      <span className="font-medium">{entry.command.summary}</span>
      <span className="text-slate-600 text-xs">
        Saved on this device{" "}
        <time dateTime={entry.savedAt} suppressHydrationWarning>
          {formatLocal(new Date(entry.savedAt), "MMM d, H:mm")}
        </time>
      </span>
      {entry.status === "waiting" && <span className="text-amber-800 text-sm">Waiting to be sent</span>}
      {entry.status === "flagged" && (
        <div className="flex flex-col gap-1 rounded-md bg-red-50 p-2 text-red-900 text-sm">
          <span className="font-semibold">Flagged: {entry.flag?.reason ?? "the server refused it now."}</span>
          <span>
            {FLAG_RESOLVER}{" "}
            <Link to={FLAGGED_PATH} className="font-medium underline">
              Flagged records
            </Link>
          </span>
          {onDismiss && (
            <button
              type="button"
              onClick={() => onDismiss(entry.key)}
              className="self-start rounded-md border border-red-300 bg-white px-2 py-1 font-medium text-red-900 text-xs hover:bg-red-100"
            >
              Dismiss
            </button>
          )}
        </div>
      )}
      {entry.status === "stuck" && (
        <span className="rounded-md bg-slate-100 p-2 text-slate-800 text-sm">
          Not sent: {entry.problem ?? "the server refused it."} It stays on this device.
        </span>
      )}
    </li>
  );
}

export function WaitingBadge() {
  const { entries, sending, stopped } = useQueueView();
  const connection = useConnectivity();
  const [open, setOpen] = useState(false);
  const label = waitingLabel(entries);
  if (!label) return null;
  const flagged = entries.some((e) => e.status === "flagged");
  const sendable = entries.some((e) => e.status === "waiting" || e.status === "stuck");
  return (
    <>
      <button
        type="button"
        data-testid="waiting-badge"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        className={`inline-flex min-h-8 items-center rounded-full px-3 py-1 font-semibold text-xs ${
          flagged ? "bg-red-100 text-red-900" : "bg-amber-100 text-amber-900"
        }`}
      >
        {label}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} className="relative z-50">
        <div className="fixed inset-0 bg-slate-900/30" aria-hidden="true" />
        <div className="fixed inset-0 flex items-start justify-end p-2 pt-16">
          <DialogPanel className="flex max-h-[calc(100vh-5rem)] w-[24rem] max-w-full flex-col gap-2 rounded-md border border-slate-200 bg-white p-3 text-slate-900 text-sm shadow-lg">
            <div className="flex items-center justify-between gap-2">
              <DialogTitle className="font-semibold">Saved on this device</DialogTitle>
              <button
                type="button"
                onClick={() => setOpen(false)}
                className="rounded-md px-2 py-1 text-slate-700 text-sm hover:bg-slate-100"
              >
                Close
              </button>
            </div>
            <p className="text-slate-600 text-xs">
              {connection === "offline"
                ? "Waiting entries are sent when the connection is back."
                : stopped === "signed_out"
                  ? "Sign in again to send the waiting entries."
                  : stopped === "unreachable"
                    ? "The server did not answer: waiting entries are tried again every 30 seconds."
                    : "Waiting entries are sent in the order they were made."}
            </p>
            <ul className="flex flex-col overflow-y-auto">
              {entries.map((entry) => (
                <EntryView key={entry.key} entry={entry} onDismiss={(key) => void dismissFlag(key)} />
              ))}
            </ul>
            {sendable &&
              (connection === "offline" ? (
                <p className="text-slate-600 text-xs">Send now is offered when the connection is back.</p>
              ) : (
                <button
                  type="button"
                  disabled={sending}
                  onClick={() => void sendNow()}
                  className="inline-flex min-h-10 items-center justify-center rounded-md bg-sky-700 px-3 py-2 font-medium text-white hover:bg-sky-800 disabled:opacity-60"
                >
                  {sending ? "Sending…" : "Send now"}
                </button>
              ))}
          </DialogPanel>
        </div>
      </Dialog>
    </>
  );
}

/**
 * Beside Logout: what this person still holds on the device goes only when they sign in here again
 * (entries are sent by their own person), so signing out says so rather than looking like an end.
 */
export function HeldAtSignOut() {
  const waiting = useQueueView().entries.filter((entry) => entry.status !== "flagged").length;
  if (waiting === 0) return null;
  return (
    <p className="text-amber-900 text-xs" data-testid="held-at-sign-out">
      {waiting === 1 ? "1 record waits" : `${waiting} records wait`} on this device: signing out keeps{" "}
      {waiting === 1 ? "it" : "them"} here, and {waiting === 1 ? "it is" : "they are"} sent when you sign in on this
      device again.
    </p>
  );
}
