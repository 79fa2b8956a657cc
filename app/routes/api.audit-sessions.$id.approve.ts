// POST /api/audit-sessions/{id}/approve (WRITE_AUDITS where the count is, Idempotency-Key): the
// variances booked as COUNT movements as of the count, missing vials discarded, found vials brought
// to the counted location, in one batch. Answers {sessionId, status: "approved", booked, discarded, found}.
import { sessionAction } from "~/counts/api.server";
import { approveCount } from "~/counts/approve.server";
import { KeyOnlyBody } from "~/counts/forms";

export const action = sessionAction("WRITE_AUDITS", KeyOnlyBody, approveCount);
export { postOnly as loader } from "~/http/api.server";
