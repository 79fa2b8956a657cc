// POST /api/audit-sessions/{id}/reject {note} (WRITE_AUDITS where the count is, Idempotency-Key):
// sent back for a recount with the note the counters see. Answers {sessionId, status: "rejected"}.
import { sessionAction } from "~/counts/api.server";
import { RejectBody } from "~/counts/forms";
import { rejectCount } from "~/counts/reject.server";

export const action = sessionAction("WRITE_AUDITS", RejectBody, rejectCount);
export { postOnly as loader } from "~/http/api.server";
