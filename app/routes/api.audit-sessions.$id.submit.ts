// POST /api/audit-sessions/{id}/submit (WRITE_INVENTORY where the count is, Idempotency-Key): the
// count goes to review. Answers {sessionId, status: "submitted"}.
import { sessionAction } from "~/counts/api.server";
import { KeyOnlyBody } from "~/counts/forms";
import { submitCount } from "~/counts/submit.server";

export const action = sessionAction("WRITE_INVENTORY", KeyOnlyBody, submitCount);
export { postOnly as loader } from "~/http/api.server";
