import { afterEach, describe, expect, it, vi } from "vitest";
import { errorFromResponse, NetworkError, TimeoutError } from "~/errors/classify";
import {
  type ClinicAction,
  createQueryClient,
  QUERY_KEYS,
  queryRetryDelay,
  REFRESH_AFTER,
  refreshAfter,
  shouldRetryMutation,
  shouldRetryQuery,
} from "./query-client";

describe("query retries", () => {
  it.each<[string, unknown]>([
    ["a network failure", new NetworkError()],
    ["a 408", errorFromResponse(408, "slow")],
    ["a 500", errorFromResponse(500, "boom")],
    ["an unexpected error", new TypeError("x is undefined")],
  ])("retry %s up to 3 times", (_, error) => {
    expect([0, 1, 2, 3].map((failureCount) => shouldRetryQuery(failureCount, error))).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it.each([400, 401, 403, 404, 409, 422])("never retry a %i", (status) => {
    expect(shouldRetryQuery(0, errorFromResponse(status, "no"))).toBe(false);
  });

  it("wait 1 s, doubling per attempt, at most 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(queryRetryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

describe("mutation retries", () => {
  it.each<[string, unknown]>([
    ["a network failure", new NetworkError()],
    ["a time-out", new TimeoutError("Request timeout after 30000ms", null)],
    ["a 503", errorFromResponse(503, "later")],
  ])("retry %s up to 2 times", (_, error) => {
    expect([0, 1, 2].map((failureCount) => shouldRetryMutation(failureCount, error))).toEqual([true, true, false]);
  });

  it.each<[string, unknown]>([
    ["a 400", errorFromResponse(400, "Invalid lot")],
    ["a 409", errorFromResponse(409, "Already started")],
    ["a bug", new TypeError("x is undefined")],
  ])("never retry %s", (_, error) => {
    expect(shouldRetryMutation(0, error)).toBe(false);
  });
});

describe("createQueryClient", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("keeps data until told, without focus refetches or polling", () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries).toMatchObject({
      staleTime: Number.POSITIVE_INFINITY,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: shouldRetryQuery,
      retryDelay: queryRetryDelay,
    });
    expect(defaults.mutations).toMatchObject({ retry: shouldRetryMutation, retryDelay: 2000 });
  });

  it("fetches a generic query from the path its key spells", async () => {
    const fetch = vi.fn(async () => Response.json({ count: 3 }));
    vi.stubGlobal("fetch", fetch);
    const data = await createQueryClient().fetchQuery({ queryKey: ["/api/dashboard/stats", "loc_1"] });
    expect(data).toEqual({ count: 3 });
    expect(fetch).toHaveBeenCalledWith("/api/dashboard/stats/loc_1", expect.objectContaining({ method: "GET" }));
  });
});

describe("refresh after actions (spec section 7)", () => {
  const names = (action: ClinicAction) => REFRESH_AFTER[action].map((key) => key[0]);

  it.each<[ClinicAction, string[]]>([
    [
      "receive_vials",
      [
        "/api/vials",
        "/api/dashboard/stats",
        "/api/dashboard/par-status",
        "/api/dashboard/recent-activity",
        "/api/products",
      ],
    ],
    ["start_vial", ["/api/vials", "/api/dashboard/stats", "/api/dashboard/recent-activity"]],
    [
      "empty_vial",
      ["/api/vials", "/api/dashboard/stats", "/api/dashboard/par-status", "/api/dashboard/recent-activity"],
    ],
    [
      "discard_vial",
      ["/api/vials", "/api/dashboard/stats", "/api/dashboard/par-status", "/api/dashboard/recent-activity"],
    ],
    ["update_product", ["/api/products", "/api/dashboard/par-status", "/api/dashboard/stats", "/api/stock-levels"]],
    ["update_variation", ["/api/product-variations", "/api/products"]],
    ["import_sales", ["/api/dashboard/recent-activity", "/api/dashboard/par-status"]],
    ["audit_complete", ["/api/vials", "/api/dashboard/stats", "/api/dashboard/recent-activity", "/api/audit-sessions"]],
    ["transfer_complete", ["/api/vials", "/api/dashboard/stats", "/api/dashboard/recent-activity", "/api/transfers"]],
  ])("%s refreshes %o", (action, paths) => {
    expect(names(action)).toEqual(paths);
  });

  it("covers exactly the nine actions", () => {
    expect(Object.keys(REFRESH_AFTER).sort()).toEqual(
      [
        "audit_complete",
        "discard_vial",
        "empty_vial",
        "import_sales",
        "receive_vials",
        "start_vial",
        "transfer_complete",
        "update_product",
        "update_variation",
      ].sort(),
    );
  });

  it("marks every location's copy out of date and leaves the rest alone", async () => {
    const queryClient = createQueryClient();
    const keys = [
      [...QUERY_KEYS.vials, "loc_1"],
      [...QUERY_KEYS.vials, "loc_2"],
      [...QUERY_KEYS.stats],
      [...QUERY_KEYS.recentActivity, "loc_1"],
      [...QUERY_KEYS.products, "loc_1"],
      [...QUERY_KEYS.transfers],
    ];
    for (const key of keys) queryClient.setQueryData(key, []);
    await refreshAfter(queryClient, "start_vial");
    const invalidated = keys.filter((queryKey) => queryClient.getQueryState(queryKey)?.isInvalidated);
    expect(invalidated).toEqual(keys.slice(0, 4));
  });
});
