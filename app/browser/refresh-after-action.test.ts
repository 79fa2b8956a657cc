import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { QUERY_KEYS } from "./query-client";
import { refreshingClientAction } from "./refresh-after-action";

function cacheWithEveryDataSet() {
  const client = new QueryClient();
  for (const key of Object.values(QUERY_KEYS)) client.setQueryData([...key, "loc-1"], { items: [] });
  return client;
}

const invalidated = (client: QueryClient) =>
  Object.entries(QUERY_KEYS)
    .filter(([, key]) => client.getQueryState([...key, "loc-1"])?.isInvalidated)
    .map(([name]) => name)
    .sort();

const post = (intent: string) =>
  new Request("http://clinic.test/receiving/r1/add-products", {
    method: "POST",
    body: new URLSearchParams({ intent }),
  });

describe("refreshingClientAction", () => {
  it("refreshes the spec's set for receive_vials after completing, and passes the server's answer on", async () => {
    const client = cacheWithEveryDataSet();
    const clientAction = refreshingClientAction({ complete: "receive_vials" }, () => client);
    const answer = { ok: true };
    expect(await clientAction({ request: post("complete"), serverAction: async <T>() => answer as T })).toBe(answer);
    expect(invalidated(client)).toEqual(["parStatus", "products", "recentActivity", "stats", "vials"]);
  });

  it("refreshes even when the server action redirects (thrown) and leaves other intents alone", async () => {
    const client = cacheWithEveryDataSet();
    const clientAction = refreshingClientAction({ "attach-gtin": "update_variation" }, () => client);
    const redirect = new Response(null, { status: 302, headers: { Location: "/receiving" } });
    await expect(
      clientAction({
        request: post("attach-gtin"),
        serverAction: async () => {
          throw redirect;
        },
      }),
    ).rejects.toBe(redirect);
    expect(invalidated(client)).toEqual(["productVariations", "products"]);

    const untouched = cacheWithEveryDataSet();
    await refreshingClientAction(
      { complete: "receive_vials" },
      () => untouched,
    )({
      request: post("add-line"),
      serverAction: async <T>() => ({}) as T,
    });
    expect(invalidated(untouched)).toEqual([]);
  });
});
