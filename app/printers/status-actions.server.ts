// The profile buttons every printer settings screen has (make default, archive, restore): one verb
// each, answered with the toast that says what changed for print-labels.
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import type { FlashToast } from "~/ui/flash.server";
import { archivePrinterProfile, restorePrinterProfile } from "./archive.server";
import { makeDefaultPrinterProfile } from "./make-default.server";
import type { PrinterProfileRefused } from "./outcome";

export type StatusIntent = "make_default" | "archive" | "restore";

export async function changeProfileStatus(
  db: Database,
  actor: ScopedActor,
  intent: StatusIntent,
  profileId: string,
): Promise<{ ok: true; toast: FlashToast } | PrinterProfileRefused> {
  if (intent === "make_default") {
    const result = await makeDefaultPrinterProfile(db, actor, profileId);
    if (!result.ok) return result;
    return {
      ok: true,
      toast: {
        title: "Default printer profile changed",
        description: `Print labels now uses ${result.name}${result.replaced ? ` instead of ${result.replaced}` : ""}.`,
      },
    };
  }
  if (intent === "archive") {
    const result = await archivePrinterProfile(db, actor, profileId);
    if (!result.ok) return result;
    return {
      ok: true,
      toast: {
        title: "Printer profile archived",
        description: result.wasDefault
          ? `${result.name} was the default: labels use the built-in settings until you make another profile the default.`
          : `${result.name} is no longer offered. You can restore it.`,
      },
    };
  }
  const result = await restorePrinterProfile(db, actor, profileId);
  if (!result.ok) return result;
  return {
    ok: true,
    toast: {
      title: "Printer profile restored",
      description: result.isDefault
        ? `${result.name} is back, and is the default: this location had none.`
        : `${result.name} is back. Make it the default to print labels with it.`,
    },
  };
}
