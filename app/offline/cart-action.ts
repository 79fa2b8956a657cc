// Saving at the cart with no connection (issue #25): the vial forms' client action. Online, the
// form goes to its server action as before. Offline (the monitor or the browser says so), or when
// the post fails at the network, the form becomes an entry of the offline queue: its fields turned
// into the JSON twin's body, its idempotency key the entry's key, a draw's time of use now unless
// typed, and a summary in the clinic's words; the page says so. An empty or discard with units left
// still asks first, from the units the page shows, and a witness's password is never kept: the
// record goes without it, and the server flags it for a manager. Without JavaScript none of this
// runs: the forms post to the server.
import { reasonName } from "~/vials/history";
import type { OfflineCommand, OfflineKind } from "./contract";
import type { Queued } from "./queued";
import { saveToQueue } from "./store";
import { seemsOnline } from "./use-offline-queue";
import { OFFLINE_COUNT_FIELD, OFFLINE_VIAL_FIELD, type OfflineCountFacts, type OfflineVialFacts } from "./vial-facts";

export const OFFLINE_WITNESS_NOTE =
  "No connection: the witness is not asked now (a password is never kept on this device). The record will be sent without a witness and flagged for a manager.";

export const savedMessage = (summary: string) =>
  `Saved on this device: ${summary}. It will be sent when the connection is back.`;

/** A post that never reached the server (fetch's TypeError, a dropped connection), as opposed to its answer. */
export function failedAtNetwork(error: unknown): boolean {
  if (error instanceof Response) return false;
  if (error instanceof TypeError) return true;
  const text = `${(error as Error | null)?.name ?? ""} ${(error as Error | null)?.message ?? ""}`;
  return /NetworkError|Failed to fetch|Load failed|network/i.test(text) || !seemsOnline();
}

/** The server's answer while online; null when offline, or when the post failed at the network. */
async function onlineFirst(online: () => Promise<unknown>): Promise<{ answer: unknown } | null> {
  if (!seemsOnline()) return null;
  try {
    return { answer: await online() };
  } catch (error) {
    if (!failedAtNetwork(error)) throw error;
    return null;
  }
}

/** The command kept on the device under the form's key, and what the page says about it (a fresh key for the next form). */
async function save(
  intent: string,
  key: string,
  locationId: string,
  command: OfflineCommand,
  note: string | null,
): Promise<Queued> {
  const saved = await saveToQueue({ key, locationId, command });
  return {
    queued: {
      intent,
      key: saved.key,
      nextKey: crypto.randomUUID(),
      message: savedMessage(saved.command.summary),
      note,
    },
  };
}

const VIAL_KINDS = ["start", "draw", "empty", "discard"] as const satisfies readonly OfflineKind[];
type VialKind = (typeof VIAL_KINDS)[number];

function text(fields: Record<string, string>, name: string): string | undefined {
  const value = fields[name]?.trim();
  return value ? value : undefined;
}

/** The JSON twin's body of a vial form (never a password), and the summary the person sees. */
export function vialCommand(
  kind: VialKind,
  itemId: string,
  fields: Record<string, string>,
  facts: OfflineVialFacts,
  now: Date,
): OfflineCommand {
  const recordedAt = now.toISOString();
  const base = { kind, itemId, recordedAt };
  switch (kind) {
    case "start":
      return { ...base, body: {}, summary: `Start ${facts.name}` };
    case "draw": {
      const units = text(fields, "units") ?? "";
      const typedAt = text(fields, "usedAt");
      const body: Record<string, unknown> = {
        units,
        serviceId: text(fields, "serviceId") ?? null,
        provider: text(fields, "provider") ?? null,
        patientRef: text(fields, "patientRef") ?? null,
        usedAt: typedAt ? new Date(typedAt).toISOString() : recordedAt,
      };
      return { ...base, body, summary: `Draw ${units} ${facts.unit} from ${facts.name}` };
    }
    case "empty":
      return { ...base, body: {}, summary: `Empty ${facts.name} (${facts.unitsLeft} left)` };
    case "discard": {
      const reason = text(fields, "reason") ?? "";
      return {
        ...base,
        body: { reason, note: text(fields, "note") ?? null },
        summary: `Discard ${facts.name} (${reasonName(reason) ?? reason}, ${facts.unitsLeft} left)`,
      };
    }
  }
}

/** The question an empty or discard with units left asks first, offline as online. */
export function wasteQuestion(kind: "empty" | "discard", facts: OfflineVialFacts, reason?: string): string {
  const lost = `${facts.unitsLeft} of ${facts.name}`;
  return kind === "empty"
    ? `Empty this vial? ${lost} will be booked as waste.`
    : `Discard this vial${reason ? ` (${reasonName(reason) ?? reason})` : ""}? ${lost} will be lost.`;
}

function fieldsOf(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string") fields[name] = value;
  return fields;
}

/** What a refused or asking form comes back with (app/vials/actions VialProblem), never the password or key. */
function problemOf(intent: VialKind, fields: Record<string, string>, extra: object) {
  const { witnessPassword: _p, idempotencyKey: _k, ...typed } = fields;
  return { intent, typed, fieldErrors: {}, formError: null, offline: true, ...extra };
}

/** Checks the draw and discard with the server's own schemas (loaded lazily; skipped if not cached offline). */
async function checked(kind: VialKind, fields: Record<string, string>): Promise<Record<string, string> | null> {
  if (kind !== "draw" && kind !== "discard") return null;
  let schemas: typeof import("~/vials/forms");
  try {
    schemas = await import("~/vials/forms");
  } catch {
    return null;
  }
  const parsed = (kind === "draw" ? schemas.DrawForm : schemas.DiscardForm).safeParse(fields);
  if (parsed.success) return null;
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0] ?? "units");
    errors[name] ??= issue.message;
  }
  return errors;
}

/**
 * The vial forms' clientAction: `online` (the server action, with whatever the route does after it)
 * while the connection seems fine; the device's queue otherwise, or when the post fails at the network.
 */
export async function vialCartAction({
  request,
  itemId,
  online,
  now = () => new Date(),
}: {
  request: Request;
  /** The vial: the route's param, or the form's `itemId` (the scan card). */
  itemId: string | undefined;
  online: () => Promise<unknown>;
  now?: () => Date;
}): Promise<unknown> {
  const fields = fieldsOf(await request.clone().formData());
  const kind = VIAL_KINDS.find((k) => k === fields.intent);
  const factsText = fields[OFFLINE_VIAL_FIELD];
  const vialId = itemId ?? fields.itemId;
  // Not a vial form this can keep (no facts, no key): it goes to the server whatever happens.
  if (!kind || !factsText || !vialId || !fields.idempotencyKey) return online();
  const answered = await onlineFirst(online);
  if (answered) return answered.answer;
  const facts = JSON.parse(factsText) as OfflineVialFacts;
  const fieldErrors = await checked(kind, fields);
  if (fieldErrors) return problemOf(kind, fields, { fieldErrors });
  if ((kind === "empty" || kind === "discard") && facts.wasting > 0 && !fields.confirmWaste) {
    const question = wasteQuestion(kind, facts, fields.reason);
    return problemOf(kind, fields, {
      ask: { question: facts.witness ? `${question} ${OFFLINE_WITNESS_NOTE}` : question, wasting: facts.wasting },
    });
  }
  const command = vialCommand(kind, vialId, fields, facts, now());
  const leftOut = fields.witnessEmail || fields.witnessPassword || (facts.witness && facts.wasting > 0);
  return save(kind, fields.idempotencyKey, facts.locationId, command, leftOut ? OFFLINE_WITNESS_NOTE : null);
}

/** The JSON twin's body of a count form (POST /api/audit-sessions/{id}/counts), and its summary. */
export function countCommand(
  kind: "scan" | "bulk",
  sessionId: string,
  fields: Record<string, string>,
  facts: OfflineCountFacts,
  now: Date,
): OfflineCommand {
  const base = { kind: "count" as const, sessionId, recordedAt: now.toISOString() };
  if (kind === "scan") {
    const labelCode = text(fields, "labelCode") ?? "";
    const units = text(fields, "unitsRemaining");
    return {
      ...base,
      body: { labelCode, unitsRemaining: units ?? null },
      summary: `Count vial ${labelCode}${units ? ` (${units} left)` : ""}`,
    };
  }
  const quantity = text(fields, "quantity") ?? "";
  const lot = text(fields, "lot");
  return {
    ...base,
    body: { variationId: fields.variationId ?? "", lot: lot ?? null, quantity },
    summary: `Count ${quantity}${facts.unit ? ` ${facts.unit}` : ""} of ${facts.name ?? "a bulk product"}${lot ? ` (lot ${lot})` : ""}`,
  };
}

/** The count forms' clientAction (scan a vial, count bulk stock): like the vial forms'. */
export async function countCartAction({
  request,
  online,
  now = () => new Date(),
}: {
  request: Request;
  online: () => Promise<unknown>;
  now?: () => Date;
}): Promise<unknown> {
  const fields = fieldsOf(await request.clone().formData());
  const kind = fields.intent === "scan" || fields.intent === "bulk" ? fields.intent : null;
  const factsText = fields[OFFLINE_COUNT_FIELD];
  if (!kind || !factsText || !fields.sessionId || !fields.idempotencyKey) return online();
  const answered = await onlineFirst(online);
  if (answered) return answered.answer;
  const facts = JSON.parse(factsText) as OfflineCountFacts;
  const command = countCommand(kind, fields.sessionId, fields, facts, now());
  // The server's own schema, when it could be loaded: a count it would refuse is said now, not kept.
  try {
    const { CountBody } = await import("~/counts/forms");
    const parsed = CountBody.safeParse(command.body);
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? "")] ??= issue.message;
      const { idempotencyKey: _k, ...typed } = fields;
      return { intent: kind, typed, fieldErrors, formError: fieldErrors[""] ?? null, offline: true };
    }
  } catch {
    // Not loaded before the connection went: the server checks it when it is sent.
  }
  return save(kind, fields.idempotencyKey, facts.locationId, command, null);
}
