import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { createConnectivityStore } from "./connectivity";
import { useConnectivity } from "./use-connectivity";

function Status({ store }: { store: ReturnType<typeof createConnectivityStore> }) {
  return <p>{useConnectivity(store)}</p>;
}

describe("useConnectivity", () => {
  it("renders as online on the server, so the first client render matches", () => {
    const store = createConnectivityStore();
    store.set("offline");
    expect(renderToString(<Status store={store} />)).toBe("<p>online</p>");
  });
});
