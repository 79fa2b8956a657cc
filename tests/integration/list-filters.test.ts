// Filters that cannot be used are said, not dropped (issue 18.10): a lot over 100 characters, a
// negative or non-numeric "expiring within", a state or status that is none, a date that is not one.
// Each list's screen names the problem under its filter and lists nothing (a list that looks
// filtered and is not would mislead); its JSON API answers 400 `invalid_filter` in the one error shape.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as inventory from "../../app/routes/_app.inventory._index";
import * as stockLevels from "../../app/routes/_app.stock-levels";
import * as usageLog from "../../app/routes/_app.usage-log";
import * as stockLevelsApi from "../../app/routes/api.stock-levels";
import * as usageApi from "../../app/routes/api.usage";
import * as vialsApi from "../../app/routes/api.vials";
import * as usageCsv from "../../app/routes/usage-log[.csv]";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { loadContext, pageRequest, signedIn, withLocationChoice } from "../support/screens";

let t: TestDatabase;
let cookie = "";
const LONG_LOT = "L".repeat(101);

beforeAll(async () => {
  t = await freshDatabase();
  const { loc } = await demoLocations(t.db);
  cookie = await withLocationChoice((await signedIn(t.db, "admin")).cookie, loc.DTN);
});
afterAll(() => t.close());

type Loader = (args: never) => unknown;

/** What a loader answers for `path`: its data, or the Response it answered or threw. */
async function load(loader: Loader, path: string): Promise<unknown> {
  try {
    return await (loader as (args: unknown) => Promise<unknown>)({
      request: pageRequest(path, cookie),
      params: {},
      context: loadContext(t.db),
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function apiError(loader: Loader, path: string) {
  const answer = await load(loader, path);
  expect(answer).toBeInstanceOf(Response);
  const response = answer as Response;
  return { status: response.status, body: (await response.json()) as { error: string; code: string } };
}

describe("the inventory", () => {
  it("lists vials unfiltered (so the checks below are not empty by accident)", async () => {
    const page = (await load(inventory.loader, "/inventory")) as Awaited<ReturnType<typeof inventory.loader>>;
    expect(page.vials.length).toBeGreaterThan(0);
    expect(page.problems).toEqual({});
  });

  it.each([
    ["a lot over 100 characters", `lot=${LONG_LOT}`, "lot", /lot number is at most 100 characters/],
    ["a negative number of days", "expiringWithinDays=-3", "expiringWithinDays", /whole number of days/],
    ["days that are not a number", "expiringWithinDays=soon", "expiringWithinDays", /whole number of days/],
    ["a state that is none", "state=opened", "state", /Choose a state/],
    ["a recall choice that is none", "recalled=maybe", "recalled", /Choose Any/],
  ])("says %s under its filter, lists nothing, and keeps what was typed", async (_name, search, field, message) => {
    const page = (await load(inventory.loader, `/inventory?${search}`)) as Awaited<ReturnType<typeof inventory.loader>>;
    expect(page.problems[field]).toMatch(message);
    expect(page.vials).toEqual([]);
    expect(page.bulk).toBeNull();
    expect(page.filters[field as keyof typeof page.filters]).toBe(new URLSearchParams(search).get(field));
  });

  it.each([
    [`lot=${LONG_LOT}`, /lot/],
    ["expiringWithinDays=-3", /expiringWithinDays/],
    ["expiringWithinDays=soon", /expiringWithinDays/],
    ["state=opened", /state/],
    ["recalled=maybe", /recalled/],
  ])("GET /api/vials?%s answers 400 invalid_filter", async (search, named) => {
    const { status, body } = await apiError(vialsApi.loader, `/api/vials?${search}`);
    expect(status).toBe(400);
    expect(body.code).toBe("invalid_filter");
    expect(body.error).toMatch(named);
  });
});

describe("the stock levels", () => {
  it.each([
    ["a search over 100 characters", `q=${"x".repeat(101)}`, "q", /at most 100 characters/],
    ["a status that is none", "status=empty", "status", /Choose a status/],
    ["a category over 100 characters", `category=${"c".repeat(101)}`, "category", /at most 100 characters/],
  ])("says %s under its filter and lists nothing", async (_name, search, field, message) => {
    const all = (await load(stockLevels.loader, "/stock-levels")) as Awaited<ReturnType<typeof stockLevels.loader>>;
    expect(all.rows.length).toBeGreaterThan(0);
    const page = (await load(stockLevels.loader, `/stock-levels?${search}`)) as Awaited<
      ReturnType<typeof stockLevels.loader>
    >;
    expect(page.problems[field]).toMatch(message);
    expect(page.rows).toEqual([]);
  });

  it.each([`q=${"x".repeat(101)}`, "status=empty", "tracking=boxes"])(
    "GET /api/stock-levels?%s answers 400 invalid_filter",
    async (search) => {
      const { status, body } = await apiError(stockLevelsApi.loader, `/api/stock-levels?${search}`);
      expect([status, body.code]).toEqual([400, "invalid_filter"]);
    },
  );
});

describe("the usage log", () => {
  it.each([
    ["a lot over 100 characters", `lot=${LONG_LOT}`, "lot", /at most 100 characters/],
    ["a from date that is not one", "from=yesterday", "from", /YYYY-MM-DD/],
    ["a to date not on the calendar", "to=2026-02-30", "to", /YYYY-MM-DD/],
  ])("says %s under its filter and lists nothing", async (_name, search, field, message) => {
    const all = (await load(usageLog.loader, "/usage-log")) as Awaited<ReturnType<typeof usageLog.loader>>;
    expect(all.rows.length).toBeGreaterThan(0);
    const page = (await load(usageLog.loader, `/usage-log?${search}`)) as Awaited<ReturnType<typeof usageLog.loader>>;
    expect(page.problems[field]).toMatch(message);
    expect(page.rows).toEqual([]);
    expect(page.query[field]).toBe(new URLSearchParams(search).get(field));
  });

  it.each([`lot=${LONG_LOT}`, "from=yesterday", "to=2026-02-30"])(
    "GET /api/usage?%s answers 400 invalid_filter, and so does the CSV",
    async (search) => {
      const { status, body } = await apiError(usageApi.loader, `/api/usage?${search}`);
      expect([status, body.code]).toEqual([400, "invalid_filter"]);
      const csv = (await load(usageCsv.loader, `/usage-log.csv?${search}`)) as Response;
      expect(csv.status).toBe(400);
    },
  );
});
