// Uploading a snapshot file to restore it: the file goes to storage in 8 MiB pieces straight from
// the browser (./upload-rules), one request each, so a file of gigabytes is never held whole by the
// browser's request or by the Worker. That needs JavaScript: without it the form says so and how
// else to do it (the same API from a script), instead of sending a form the server would refuse.
import { useRevalidator } from "@remix-run/react";
import { type FormEvent, useEffect, useState } from "react";
import { refusalOf } from "~/browser/api-error";
import { apiRequest } from "~/browser/request";
import { Card } from "~/ui/form";
import { partCount, UPLOAD_MAX_BYTES, UPLOAD_PART_BYTES, UPLOAD_PATHS } from "./upload-rules";

interface Started {
  backupId: string;
  uploadId: string;
  partBytes: number;
}

type State =
  | { kind: "idle" }
  | { kind: "sending"; sent: number; total: number }
  | { kind: "done" | "failed"; message: string };

const GiB = 1024 * 1024 * 1024;

/** Sends `file` piece by piece; `onPiece` after each. Answers the new backup's id. */
async function sendFile(file: File, onPiece: (sent: number) => void): Promise<string> {
  const started = await apiRequest<Started>("POST", UPLOAD_PATHS.start, { body: {} });
  const size = started.partBytes || UPLOAD_PART_BYTES;
  const parts: { partNumber: number; etag: string }[] = [];
  for (let n = 1; n <= partCount(file.size); n++) {
    const piece = file.slice((n - 1) * size, n * size);
    const response = await fetch(UPLOAD_PATHS.part(started.backupId, n, started.uploadId), {
      method: "PUT",
      headers: { "Content-Type": "application/octet-stream" },
      body: piece,
    });
    const answer = (await response.json().catch(() => ({}))) as { etag?: string; error?: string };
    if (!response.ok || !answer.etag) {
      throw new Error(answer.error ?? `Piece ${n} was not stored (HTTP ${response.status}). Try the upload again.`);
    }
    parts.push({ partNumber: n, etag: answer.etag });
    onPiece(Math.min(file.size, n * size));
  }
  const done = await apiRequest<{ id: string }>("POST", UPLOAD_PATHS.complete(started.backupId), {
    body: { uploadId: started.uploadId, parts, fileName: file.name, size: file.size },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
  return done.id;
}

export function UploadForm() {
  const [state, setState] = useState<State>({ kind: "idle" });
  const revalidator = useRevalidator();
  // The server's page has the button off: without JavaScript it could only send a form the server refuses.
  const [running, setRunning] = useState(false);
  useEffect(() => setRunning(true), []);
  const sending = state.kind === "sending";

  async function upload(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem("snapshot") as HTMLInputElement | null;
    const file = input?.files?.[0];
    if (!file) return setState({ kind: "failed", message: "Choose a snapshot file first." });
    if (file.size === 0) return setState({ kind: "failed", message: "The file is empty. Choose a snapshot file." });
    if (file.size > UPLOAD_MAX_BYTES) {
      return setState({ kind: "failed", message: `A snapshot file may be at most ${UPLOAD_MAX_BYTES / GiB} GiB.` });
    }
    setState({ kind: "sending", sent: 0, total: file.size });
    try {
      await sendFile(file, (sent) => setState({ kind: "sending", sent, total: file.size }));
      setState({
        kind: "done",
        message: `${file.name} is uploaded and listed below. It is checked before it can be restored.`,
      });
      revalidator.revalidate();
    } catch (error) {
      setState({ kind: "failed", message: refusalOf(error).message });
    }
  }

  return (
    <Card title="Upload a snapshot">
      <form onSubmit={upload} className="flex flex-col gap-3" aria-describedby="upload-help">
        <p id="upload-help" className="text-slate-600 text-sm">
          A snapshot file downloaded from this screen, e.g. one kept outside this app. It is listed as an upload and
          checked (its manifest, every checksum, its schema version, that it is this organization's) before anything is
          restored from it.
        </p>
        {!running && (
          // Drawn by the server and gone once the page's script runs (a <noscript> is not enough:
          // a browser that blocks scripts another way still shows nothing).
          <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900 text-sm">
            Uploading sends the file in 8 MiB pieces, which needs JavaScript: the button works once this page's script
            has loaded. With JavaScript off, turn it on for this page, or upload with the API (POST
            /api/backups/uploads, as the README's "Backups and restore" shows).
          </p>
        )}
        <label className="flex flex-col gap-1 font-medium text-sm">
          Snapshot file
          <input
            type="file"
            name="snapshot"
            required
            disabled={sending}
            className="rounded-md border border-slate-300 bg-white px-2 py-1.5 font-normal text-sm file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-2 file:py-1"
          />
        </label>
        {state.kind === "sending" && (
          <div className="flex flex-col gap-1">
            <progress aria-label="Upload progress" max={state.total} value={state.sent} className="h-2 w-full" />
            <span className="text-slate-600 text-xs" role="status">
              Sent {Math.floor((state.sent * 100) / state.total)}%
            </span>
          </div>
        )}
        {state.kind === "done" && (
          <p role="status" className="text-emerald-800 text-sm">
            {state.message}
          </p>
        )}
        {state.kind === "failed" && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800 text-sm">
            {state.message}
          </p>
        )}
        <div>
          <button
            type="submit"
            disabled={sending || !running}
            className="inline-flex min-h-10 items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 font-medium text-slate-800 text-sm hover:bg-slate-100 disabled:opacity-60"
          >
            {sending ? "Uploading…" : "Upload snapshot"}
          </button>
        </div>
      </form>
    </Card>
  );
}
