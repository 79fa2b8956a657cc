// Every route that takes a write, walked from the built route table (so a new route cannot be
// left out), answers a body it cannot take with a 4xx, never a 500 (issues 19.7 and 19.9): a form
// route refuses a JSON body, text, or no media type (415), a body over the form limit (413), and a
// file (400) before Remix reads it; a JSON route refuses a media type that only mentions JSON
// (415) and a chunked body over 64 KiB (413) without reading it whole. Signed in and signed out.
import * as build from "virtual:remix/server-build";
import { beforeAll, describe, expect, it } from "vitest";
import { formLimitFor, STREAMED_UPLOADS } from "../../app/http/form-post.server";
import { app, BASE, signInAs } from "./support";

interface Walked {
  id: string;
  path: string;
  api: boolean;
}

/** The URL path of a route of the build: its parents' paths joined, params and splats filled with samples. */
function pathOf(id: string): string {
  const parts: string[] = [];
  for (let route = build.routes[id]; route; route = route.parentId ? build.routes[route.parentId] : undefined) {
    if (route.path) parts.unshift(route.path);
  }
  const joined = parts
    .join("/")
    .split("/")
    .map((segment) => (segment === "*" ? "sample" : segment.replace(/^:[^.]+/, "sample-id")))
    .join("/");
  return `/${joined}`.replace(/\/+/g, "/");
}

/** Every route of the build with an action (a form route or a JSON write), with a path to post to. */
const ROUTES: Walked[] = Object.values(build.routes)
  .filter((route) => route && typeof route.module.action === "function")
  .map((route) => {
    const path = pathOf(route?.id ?? "");
    return { id: route?.id ?? "", path, api: path === "/api" || path.startsWith("/api/") };
  });

let cookie = "";

beforeAll(async () => {
  cookie = (await signInAs("staff@demo.clinic")).cookie;
});

function post(path: string, init: { body?: BodyInit | null; headers?: Record<string, string> }, signedIn: boolean) {
  return app().fetch(`${BASE}${path}`, {
    method: "POST",
    body: init.body ?? null,
    headers: { Origin: BASE, Host: "clinic.test", ...(signedIn ? { Cookie: cookie } : {}), ...init.headers },
    redirect: "manual",
  });
}

/** A body streamed in chunks with no Content-Length, as a chunked upload arrives. */
function chunked(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  const chunk = new TextEncoder().encode("a".repeat(16 * 1024));
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk.slice());
    },
  });
}

function multipartWithFile(field: string): { body: FormData } {
  const body = new FormData();
  body.set("intent", "scan");
  body.set(field, new File(["01095011015300031724123110ABC123"], "scan.txt", { type: "text/plain" }));
  return { body };
}

describe("the walk", () => {
  it("finds the form routes and the JSON writes in the build", () => {
    const paths = ROUTES.map((r) => r.path);
    for (const path of [
      "/login",
      "/change-password",
      "/inventory/sample-id",
      "/recalls",
      "/stock-levels",
      "/products/new",
      "/products/sample-id",
      "/users/new",
      "/users/sample-id",
      "/receiving",
      "/receiving/sample-id/add-products",
      "/api/auth/login",
      "/api/vials/sample-id/draw",
      "/api/recalls",
      "/recipes-import",
    ]) {
      expect(paths).toContain(path);
    }
  });
});

describe.each([
  { who: "signed in", signedIn: true },
  { who: "signed out", signedIn: false },
])("every route with an action, $who", ({ signedIn }) => {
  it("answers a body it cannot take with a 4xx, never a 500", async () => {
    const answers: string[] = [];
    const expected: string[] = [];
    const json = JSON.stringify({ intent: "create", name: "x", scan: "x", note: "x" });
    for (const route of ROUTES) {
      // A route that takes a file (FORM_LIMITS, or one that streams its upload itself) reads it to its
      // action: the staff member signed in here may not import (403), and the signed-out are sent to
      // sign in; over its own limit, 413.
      const limit = formLimitFor(route.path);
      const takesFiles = limit.files || STREAMED_UPLOADS.some((pattern) => pattern.test(route.path));
      const cases: [string, { body?: BodyInit | null; headers?: Record<string, string> }, number | null][] = [
        ["json", { body: json, headers: { "Content-Type": "application/json" } }, route.api ? null : 415],
        [
          "text",
          { body: "intent=scan", headers: { "Content-Type": "text/plain; x=application/json" } },
          route.api ? null : 415,
        ],
        ["none", { body: null }, route.api ? null : 415],
        ["file", multipartWithFile("scan"), route.api ? null : takesFiles ? (signedIn ? 403 : 302) : 400],
        [
          "large",
          {
            body: chunked(route.api ? 80 * 1024 : limit.maxBytes + 64 * 1024),
            headers: { "Content-Type": route.api ? "application/json" : "application/x-www-form-urlencoded" },
          },
          route.api ? null : 413,
        ],
      ];
      for (const [name, init, status] of cases) {
        const response = await post(route.path, init, signedIn);
        await response.body?.cancel();
        const got = response.status;
        // A JSON write may refuse for another reason first (401, 403, 404, 405): any 4xx but a 500.
        const fine = status === null ? got >= 400 && got < 500 : got === status;
        answers.push(`${route.path} ${name}: ${fine ? "ok" : got}`);
        expected.push(`${route.path} ${name}: ok`);
      }
    }
    expect(answers).toEqual(expected);
  }, 180_000);
});

describe("form posts as the pages send them", () => {
  it("still reach their action", async () => {
    const response = await app().fetch(`${BASE}/login`, {
      method: "POST",
      body: new URLSearchParams({ email: "staff@demo.clinic", password: "wrong-password" }),
      headers: { Origin: BASE, Host: "clinic.test" },
      redirect: "manual",
    });
    expect(response.status).toBe(401);
  });

  it("answers a receiving scan over 500 characters, or sent as a file, with a 400", async () => {
    const path = "/receiving/sample-id/add-products";
    const long = await post(
      path,
      {
        body: new URLSearchParams({ intent: "scan", scan: "0".repeat(600) }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      },
      true,
    );
    expect(long.status).toBe(400);
    const file = await post(path, multipartWithFile("scan"), true);
    expect(file.status).toBe(400);
    expect(await file.text()).toMatch(/takes no files/);
  });

  it("answers a JSON write whose media type only mentions JSON with a 415", async () => {
    const response = await post(
      "/api/auth/login",
      {
        body: JSON.stringify({ email: "staff@demo.clinic", password: "demo-password" }),
        headers: { "Content-Type": "text/plain; x=application/json" },
      },
      false,
    );
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ code: "unsupported_media_type" });
  });

  it("answers a chunked 50 MB JSON sign-in with a 413 without reading it whole", async () => {
    const response = await post(
      "/api/auth/login",
      { body: chunked(50 * 1024 * 1024), headers: { "Content-Type": "application/json" } },
      false,
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "too_large" });
  });
});
