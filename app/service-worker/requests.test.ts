// turbo-stream comes with Remix (@remix-run/react and server-runtime decode and encode single fetch with it).
import { decode } from "turbo-stream";
import { describe, expect, it } from "vitest";
import {
  documentOfData,
  endsSavedCopies,
  mergeManifests,
  pickSavedData,
  reloadDocumentAnswer,
  screenOfData,
  strategyFor,
} from "./requests";

const ORIGIN = "https://clinic.example";
const at = (path: string, method = "GET", mode = "cors") => ({ method, url: new URL(path, ORIGIN), mode });

describe("strategyFor", () => {
  it("keeps the documents of the screens that work offline, and only those", () => {
    for (const path of [
      "/",
      "/scan",
      "/inventory",
      "/inventory/01HX",
      "/inventory/01HX/",
      "/audit",
      "/inventory?q=a",
    ]) {
      expect(strategyFor(at(path, "GET", "navigate"), ORIGIN), path).toBe("screen");
    }
    for (const path of ["/receiving", "/transfers/1", "/inventory/01HX/labels", "/login", "/usage-log.csv"]) {
      expect(strategyFor(at(path, "GET", "navigate"), ORIGIN), path).toBe("network");
    }
  });

  it("keeps the same screens' single-fetch data, the root's included", () => {
    expect(strategyFor(at("/_root.data"), ORIGIN)).toBe("screen-data");
    expect(strategyFor(at("/inventory.data?_routes=routes/_app.inventory._index"), ORIGIN)).toBe("screen-data");
    expect(strategyFor(at("/inventory/01HX.data"), ORIGIN)).toBe("screen-data");
    expect(strategyFor(at("/receiving.data"), ORIGIN)).toBe("network");
    expect(strategyFor(at("/users/1.data"), ORIGIN)).toBe("network");
  });

  it("keeps the scan screen's lookups, hashed assets, the shell's icons and route discovery", () => {
    expect(strategyFor(at("/api/barcodes/0123"), ORIGIN)).toBe("lookup");
    expect(strategyFor(at("/api/vials?lot=A1"), ORIGIN)).toBe("lookup");
    expect(strategyFor(at("/api/vials/01HX"), ORIGIN)).toBe("lookup");
    expect(strategyFor(at("/api/vialsx"), ORIGIN)).toBe("network");
    expect(strategyFor(at("/api/products"), ORIGIN)).toBe("network");
    expect(strategyFor(at("/assets/index-CcxCSfiq.js"), ORIGIN)).toBe("asset");
    expect(strategyFor(at("/__manifest?p=/inventory&version=abc"), ORIGIN)).toBe("manifest");
    expect(strategyFor(at("/favicon.svg"), ORIGIN)).toBe("public-file");
    expect(strategyFor(at("/favicon.ico"), ORIGIN)).toBe("public-file");
  });

  it("never answers a post, another origin, the health check or the worker itself", () => {
    expect(strategyFor(at("/inventory.data", "POST"), ORIGIN)).toBe("network");
    expect(strategyFor(at("/api/vials/01HX/draw", "POST"), ORIGIN)).toBe("network");
    expect(strategyFor(at("/inventory", "POST", "navigate"), ORIGIN)).toBe("network");
    expect(strategyFor({ ...at("/inventory"), url: new URL("https://elsewhere.example/inventory") }, ORIGIN)).toBe(
      "network",
    );
    expect(strategyFor(at("/health"), ORIGIN)).toBe("network");
    expect(strategyFor(at("/sw.js"), ORIGIN)).toBe("network");
  });
});

describe("screenOfData", () => {
  it("names the screen a data address is for", () => {
    expect(screenOfData("/_root.data")).toBe("/");
    expect(screenOfData("/inventory.data")).toBe("/inventory");
    expect(screenOfData("/inventory/01HX.data")).toBe("/inventory/01HX");
    expect(screenOfData("/inventory")).toBeNull();
  });
});

describe("endsSavedCopies", () => {
  it("is every sign-out and sign-in post, with or without JavaScript, and the API's sign-in", () => {
    for (const path of ["/logout", "/logout.data", "/login", "/login.data", "/api/auth/login"]) {
      expect(endsSavedCopies(at(path, "POST"), ORIGIN), path).toBe(true);
    }
  });

  it("is not a visit to those pages, nor another post", () => {
    expect(endsSavedCopies(at("/login", "GET", "navigate"), ORIGIN)).toBe(false);
    expect(endsSavedCopies(at("/logout", "GET"), ORIGIN)).toBe(false);
    expect(endsSavedCopies(at("/inventory.data", "POST"), ORIGIN)).toBe(false);
    expect(endsSavedCopies(at("/change-password", "POST"), ORIGIN)).toBe(false);
  });
});

describe("pickSavedData", () => {
  const url = (path: string) => new URL(path, ORIGIN);

  it("takes the exact address first", () => {
    const saved = [url("/inventory.data"), url("/inventory.data?_routes=a")];
    expect(pickSavedData(url("/inventory.data?_routes=a"), saved)?.href).toBe(`${ORIGIN}/inventory.data?_routes=a`);
  });

  it("serves a subset of routes from a copy that has them all", () => {
    expect(pickSavedData(url("/inventory.data?_routes=a"), [url("/inventory.data")])?.href).toBe(
      `${ORIGIN}/inventory.data`,
    );
    expect(pickSavedData(url("/inventory.data?_routes=a,b"), [url("/inventory.data?_routes=c,b,a")])?.href).toBe(
      `${ORIGIN}/inventory.data?_routes=c,b,a`,
    );
  });

  it("never serves a copy missing a route asked for, another screen or another query", () => {
    expect(pickSavedData(url("/inventory.data"), [url("/inventory.data?_routes=a")])).toBeNull();
    expect(pickSavedData(url("/inventory.data?_routes=a,b"), [url("/inventory.data?_routes=a")])).toBeNull();
    expect(pickSavedData(url("/inventory/1.data"), [url("/inventory/2.data")])).toBeNull();
    expect(pickSavedData(url("/inventory.data?q=x"), [url("/inventory.data?q=y")])).toBeNull();
  });

  it("takes the newest of several that fit, whatever the order of the other parameters", () => {
    const saved = [url("/inventory.data?q=x&page=2"), url("/inventory.data?page=2&q=x&_routes=a,b")];
    expect(pickSavedData(url("/inventory.data?q=x&page=2&_routes=a"), saved)?.href).toBe(
      `${ORIGIN}/inventory.data?page=2&q=x&_routes=a,b`,
    );
  });
});

describe("mergeManifests", () => {
  it("puts together every route the saved answers named, ignoring what is not an object", () => {
    expect(mergeManifests([{ a: { id: "a" } }, null, [1], { b: { id: "b" } }])).toEqual({
      a: { id: "a" },
      b: { id: "b" },
    });
  });
});

describe("documentOfData", () => {
  it("is the screen's own address, without single fetch's parameters", () => {
    const url = (path: string) => new URL(path, ORIGIN);
    expect(documentOfData(url("/_root.data"))).toBe("/");
    expect(documentOfData(url("/inventory.data?_routes=a,b&index"))).toBe("/inventory");
    expect(documentOfData(url("/inventory.data?state=sealed&_routes=a"))).toBe("/inventory?state=sealed");
    expect(documentOfData(url("/inventory"))).toBeNull();
  });
});

describe("reloadDocumentAnswer", () => {
  it("is what Remix's client reads as a redirect that reloads the whole document", async () => {
    const answer = reloadDocumentAnswer('/inventory?q="a"');
    expect(answer.status).toBe(202);
    // The decoder Remix's client runs (single-fetch.js, decodeViaTurboStream), with its plugin.
    const decoded = await decode(answer.body as ReadableStream<Uint8Array>, {
      plugins: [(type: string, ...rest: unknown[]) => (type === "SingleFetchRedirect" ? { value: rest[0] } : false)],
    });
    expect(decoded.value).toEqual({
      redirect: '/inventory?q="a"',
      status: 302,
      revalidate: false,
      reload: true,
      replace: false,
    });
  });
});
