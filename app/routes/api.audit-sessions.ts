// GET /api/audit-sessions?locationId=&status=&after=&before=&pageSize= (READ_AUDITS): the counts of
// the location asked for (else the one in scope, every location in organization mode), newest
// first, keyset pages {items, pageSize, total, totalExact, next, previous}; a status that is none is
// a 400 `invalid_filter`. POST /api/audit-sessions {locationId, scope, blind} (WRITE_INVENTORY at
// that location, Idempotency-Key): starts a count, 201; when one is open there already it is joined,
// 200 with `joined: true`.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { COUNT_STATUSES } from "~/counts/api.server";
import { StartBody } from "~/counts/forms";
import { sessionJson } from "~/counts/json.server";
import { listSessions, SessionListQuery, sessionKeyset } from "~/counts/list.server";
import { startCount } from "~/counts/start.server";
import { answerOutcome, idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { hasProblems, invalidCursor, invalidFilter, readFilters } from "~/http/filters.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, searchParams } = await apiActor(args, "READ_AUDITS");
  const { query, problems } = readFilters(SessionListQuery, Object.fromEntries(searchParams));
  if (hasProblems(problems)) throw invalidFilter(problems);
  const keyset = sessionKeyset(query);
  if (!keyset) throw invalidCursor();
  const page = await orOutage(listSessions(args.context.db, actor, "READ_AUDITS", query, keyset));
  const items = page.items.map((row) => ({ ...sessionJson(row), lines: Number(row.lines) }));
  return Response.json({ ...page, items }, { headers: API_HEADERS });
}

export async function action(args: ActionFunctionArgs) {
  const body = await readJsonBody(args.request, StartBody);
  const { actor } = await apiActor(args, "WRITE_INVENTORY", body.locationId);
  const idempotencyKey = idempotencyKeyOf(args.request);
  const outcome = await orOutage(startCount(args.context.db, actor, { ...body, idempotencyKey }));
  return answerOutcome(outcome, {
    statuses: COUNT_STATUSES,
    status: outcome.ok && !outcome.joined ? 201 : 200,
  });
}
