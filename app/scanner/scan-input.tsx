// The three ways a code reaches the scan screen, all ending in the same `?code=` lookup: a
// keyboard-wedge scanner anywhere on the page, the labelled input (a GET form, so it works before
// JavaScript loads), and the camera, whose code is imported only when it is opened (ADR 0017).
import { Form } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { Field } from "~/ui/form";
import type { CameraScan } from "./camera";
import { useScanField } from "./scan-field";
import { createWedgeDetector, typingInField } from "./wedge";

export const CAMERA_MESSAGES = {
  denied: "The camera could not be opened: allow this site to use the camera, or type the code instead.",
  missing: "No camera was found on this device. Type the code, or use a barcode scanner.",
} as const;

const SECONDARY =
  "inline-flex min-h-10 items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 font-medium text-sm hover:bg-slate-100 sm:self-start";

/** Calls `onScan` with each code a wedge scanner types while no field has the focus. */
export function useWedgeScanner(onScan: (code: string) => void) {
  const latest = useRef(onScan);
  latest.current = onScan;
  // A listener on the document is a subscription to something outside React: an effect's job.
  useEffect(() => {
    const detector = createWedgeDetector();
    const onKey = (event: KeyboardEvent) => {
      if (typingInField(event.target)) return;
      const code = detector.key(event.key, event.timeStamp);
      if (!code) return;
      // The Enter ending a scan must not also press whatever button has the focus.
      event.preventDefault();
      latest.current(code);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}

export function ScanForm({ code }: { code: string | null }) {
  // A scan into the field, or a focus on it, starts a fresh code: never one run on after the last.
  const { ref, ...freshOnFocus } = useScanField();
  return (
    <Form method="get" className="flex items-end gap-2" key={code ?? ""}>
      <div className="min-w-0 flex-1">
        <Field
          {...freshOnFocus}
          inputRef={ref}
          name="code"
          label="Barcode or label code"
          required={false}
          defaultValue={code ?? ""}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          enterKeyHint="search"
        />
      </div>
      <button
        type="submit"
        className="inline-flex min-h-10 items-center justify-center rounded-md bg-sky-700 px-3 py-2 font-medium text-sm text-white hover:bg-sky-800"
      >
        Look up
      </button>
    </Form>
  );
}

export function CameraScanner({ onScan }: { onScan: (code: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const scan = useRef<CameraScan | null>(null);
  const [state, setState] = useState<"closed" | "opening" | "open">("closed");
  const [problem, setProblem] = useState<string | null>(null);

  function close() {
    scan.current?.stop();
    scan.current = null;
    setState("closed");
  }

  async function open() {
    const preview = video.current;
    if (!preview) return;
    setProblem(null);
    setState("opening");
    try {
      const { startCamera } = await import("./camera");
      scan.current = await startCamera(preview, (code) => {
        close();
        onScan(code);
      });
      setState("open");
    } catch (error) {
      setState("closed");
      const name = (error as { name?: string } | null)?.name;
      setProblem(
        name === "NotFoundError" || name === "OverconstrainedError" ? CAMERA_MESSAGES.missing : CAMERA_MESSAGES.denied,
      );
    }
  }

  return (
    <div className="flex flex-col gap-2">
      {state === "closed" ? (
        <button type="button" onClick={open} className={SECONDARY}>
          Use camera
        </button>
      ) : (
        <button type="button" onClick={close} className={SECONDARY}>
          {state === "opening" ? "Opening camera…" : "Close camera"}
        </button>
      )}
      <video
        ref={video}
        muted
        playsInline
        aria-label="Camera preview: point it at the barcode"
        className={state === "closed" ? "hidden" : "aspect-video w-full rounded-md bg-black object-cover"}
      />
      {problem && (
        <p role="alert" className="text-red-700 text-sm">
          {problem}
        </p>
      )}
    </div>
  );
}
