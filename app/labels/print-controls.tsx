// The buttons above a label sheet: the browser's print dialog, the ZPL download, and sending the
// ZPL to Zebra Browser Print, a local agent Zebra installs on the printing computer (it listens on
// localhost:9100, or 9101 for https pages: GET /default?type=printer names the default printer,
// POST /write with {device, data} prints). No library: two fetches, and clear words when the agent
// is not there.
import { useState } from "react";

const BUTTON = "inline-flex items-center justify-center rounded-md px-3 py-2 font-medium text-sm disabled:opacity-60";
const PRIMARY = `${BUTTON} bg-sky-700 text-white hover:bg-sky-800`;
const SECONDARY = `${BUTTON} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`;

export function PrintButton({ primary = true }: { primary?: boolean }) {
  return (
    <button type="button" onClick={() => window.print()} className={primary ? PRIMARY : SECONDARY}>
      Print labels
    </button>
  );
}

export function DownloadZplLink({ href, primary = false }: { href: string; primary?: boolean }) {
  return (
    <a href={href} download className={primary ? PRIMARY : SECONDARY}>
      Download ZPL
    </a>
  );
}

type Status = { tone: "info" | "error" | "success"; text: string } | null;

const NOT_RUNNING =
  "Zebra Browser Print is not running on this computer. Start it (install it from Zebra's website first if needed), then try again, or use Download ZPL.";

interface ZebraDevice {
  name?: string;
  uid?: string;
}

async function defaultPrinter(agent: string): Promise<ZebraDevice | null> {
  const response = await fetch(`${agent}/default?type=printer`);
  const text = (await response.text()).trim();
  if (!response.ok || !text) return null;
  const device = JSON.parse(text) as ZebraDevice;
  return device?.uid || device?.name ? device : null;
}

export function SendToZebraButton({ zplUrl, labelCount }: { zplUrl: string; labelCount: number }) {
  const [status, setStatus] = useState<Status>(null);
  const [sending, setSending] = useState(false);

  async function send() {
    setSending(true);
    setStatus({ tone: "info", text: "Sending the labels to the Zebra printer…" });
    try {
      const agent = window.location.protocol === "https:" ? "https://localhost:9101" : "http://localhost:9100";
      let device: ZebraDevice | null;
      try {
        device = await defaultPrinter(agent);
      } catch {
        setStatus({ tone: "error", text: NOT_RUNNING });
        return;
      }
      if (!device) {
        setStatus({
          tone: "error",
          text: "Zebra Browser Print is running but has no default printer. Choose one in Zebra Browser Print's settings, then try again.",
        });
        return;
      }
      const zpl = await fetch(zplUrl, { credentials: "same-origin" });
      if (!zpl.ok) {
        setStatus({
          tone: "error",
          text: `The labels could not be prepared (${zpl.status}). Reload the page and try again.`,
        });
        return;
      }
      // text/plain keeps the request simple (no CORS preflight), as Zebra's own script sends it.
      const written = await fetch(`${agent}/write`, {
        method: "POST",
        headers: { "Content-Type": "text/plain;charset=UTF-8" },
        body: JSON.stringify({ device, data: await zpl.text() }),
      }).catch(() => null);
      if (!written?.ok) {
        setStatus({
          tone: "error",
          text: `The printer ${device.name ?? ""} did not take the labels. Check that it is on and loaded, then try again.`,
        });
        return;
      }
      setStatus({
        tone: "success",
        text: `Sent ${labelCount} ${labelCount === 1 ? "label" : "labels"} to ${device.name ?? "the Zebra printer"}.`,
      });
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="flex flex-col gap-1">
      <button type="button" onClick={send} disabled={sending} className={PRIMARY}>
        Send to Zebra printer
      </button>
      {status && (
        <p
          role={status.tone === "error" ? "alert" : "status"}
          className={`text-sm ${status.tone === "error" ? "text-red-700" : status.tone === "success" ? "text-emerald-800" : "text-slate-600"}`}
        >
          {status.text}
        </p>
      )}
    </div>
  );
}
