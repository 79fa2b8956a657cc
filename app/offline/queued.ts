// What a form saved on the device (instead of sent) answers, and how a route tells it apart: such an
// answer changed nothing on the server, so no loader is read again (there is no connection either).
// Tiny on purpose: the shell's route imports it for its shouldRevalidate.
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { readAgain } from "~/ui/revalidate";

/** What the page shows after a form was saved on the device instead of sent. */
export interface Queued {
  queued: {
    intent: string;
    key: string;
    /** A fresh key for the next form of this kind: the saved one is taken. */
    nextKey: string;
    /** "Saved on this device: Draw 10 U from Botox 100 U. It will be sent when the connection is back." */
    message: string;
    /** Said beside it, e.g. that the witness was left out. */
    note: string | null;
  };
}

export function isQueued(result: unknown): result is Queued {
  return typeof result === "object" && result !== null && "queued" in result;
}

/** Answered on the device, offline: saved (queued), or a question or problem said before saving (`offline: true`). */
export function answeredOnDevice(result: unknown): boolean {
  return isQueued(result) || (typeof result === "object" && result !== null && "offline" in result);
}

/** The shell's and the cart's screens: the app's rule (app/ui/revalidate.ts), and nothing after a form answered on the device. */
export const readAgainOnline: ShouldRevalidateFunction = (args) =>
  !answeredOnDevice(args.actionResult) && readAgain(args);
