// The flagged records' input rules (issue #25), browser-safe: the envelope a replay of the offline
// queue sends (./contract OfflineCommand), and the manager's resolution of a flag. One zod schema
// each, shared by the API and the screen's form.
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { line, lines } from "~/forms/text";
import { z } from "~/forms/zod";
import { OFFLINE_KINDS } from "./contract";

/** What the person saw when they saved it: longer is not a summary. */
export const SUMMARY_MAX = 300;
/** A resolution's note. */
export const RESOLUTION_NOTE_MAX = 500;
const ID_MAX = 100;

export const REPLAY_MESSAGES = {
  kind: `Send the command's kind: one of ${OFFLINE_KINDS.join(", ")}.`,
  itemId: `A start, draw, empty or discard names its vial: send itemId (at most ${ID_MAX} characters).`,
  sessionId: `A count names its count: send sessionId (at most ${ID_MAX} characters).`,
  body: "Send the command's body as a JSON object (the body its JSON twin takes), e.g. {}.",
  recordedAt: "Send when it happened at the cart as recordedAt, an ISO 8601 date and time.",
  summary: `Send the summary the person saw when they saved it (1 to ${SUMMARY_MAX} characters).`,
  key: "Send the entry's Idempotency-Key header: a replay without one could be applied twice.",
  location: "Name the location the command was recorded at (?locationId=): a flagged record belongs to one location.",
} as const;

export const RESOLVE_MESSAGES = {
  note: `Say in a note what was done about it (at most ${RESOLUTION_NOTE_MAX} characters).`,
  flag: "Choose a flagged record to resolve.",
} as const;

const id = (message: string) => line({ error: message }).trim().min(1, message).max(ID_MAX, message);

/** The replay's envelope: OfflineCommand. `body` is parsed later, by the verb's own schema. */
export const ReplayEnvelope = z
  .object({
    kind: z.enum(OFFLINE_KINDS, { error: REPLAY_MESSAGES.kind }),
    itemId: id(REPLAY_MESSAGES.itemId).nullish(),
    sessionId: id(REPLAY_MESSAGES.sessionId).nullish(),
    body: z.record(z.string(), z.unknown(), { error: REPLAY_MESSAGES.body }),
    recordedAt: z
      .string({ error: REPLAY_MESSAGES.recordedAt })
      .max(40, REPLAY_MESSAGES.recordedAt)
      .transform((v, ctx) => {
        const at = new Date(v.trim());
        if (v.trim() === "" || Number.isNaN(at.getTime())) {
          ctx.addIssue({ code: "custom", message: REPLAY_MESSAGES.recordedAt });
          return z.NEVER;
        }
        return at;
      }),
    summary: line({ error: REPLAY_MESSAGES.summary })
      .trim()
      .min(1, REPLAY_MESSAGES.summary)
      .max(SUMMARY_MAX, REPLAY_MESSAGES.summary),
  })
  .superRefine((command, ctx) => {
    if (command.kind === "count") {
      if (!command.sessionId) ctx.addIssue({ code: "custom", path: ["sessionId"], message: REPLAY_MESSAGES.sessionId });
    } else if (!command.itemId) {
      ctx.addIssue({ code: "custom", path: ["itemId"], message: REPLAY_MESSAGES.itemId });
    }
  });
export type ReplayCommand = z.output<typeof ReplayEnvelope>;

export const ResolveForm = z.object({
  flagId: id(RESOLVE_MESSAGES.flag),
  note: lines({ error: RESOLVE_MESSAGES.note })
    .trim()
    .min(1, RESOLVE_MESSAGES.note)
    .max(RESOLUTION_NOTE_MAX, RESOLVE_MESSAGES.note),
  idempotencyKey: z
    .string()
    .nullish()
    .transform((v) => v?.trim() || null)
    .refine((v) => v === null || IDEMPOTENCY_KEY_PATTERN.test(v), IDEMPOTENCY_MESSAGES.invalid),
});
export type ResolveInput = z.output<typeof ResolveForm>;
