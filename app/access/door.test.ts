// Every route goes through the one door (./door.server): each loader and action of app/routes calls
// one of its functions, or is built by a helper that does, or is one of the few routes a signed-out
// visitor must reach. A new route that skips the door, builds an actor by hand or reads the
// session itself fails here, before any screen is tested.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const routesDir = join(root, "app", "routes");

const DOOR = /\b(signedIn|actorHere|actorAt|actorAtOneLocation|actorAtPickedLocation|organizationAdmin|apiActor)\(/;
/** Route factories that open the door themselves: the vial and the count JSON writes. */
const DOOR_FACTORIES = /=\s*(vialAction|sessionAction)\(/;
/** Reached signed out (or answering 404/405 before anything is read), so no door. */
const PUBLIC = new Set(["login.tsx", "logout.ts", "change-password.tsx", "health.ts", "api.auth.login.ts", "api.$.ts"]);
/** Handlers that read nothing: a GET answered with a redirect or 405 (the writes beside them use the door). */
const READS_NOTHING = new Set(["location.ts: loader", "api.stock-adjustments.ts: loader"]);

const routes = readdirSync(routesDir).filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".test.ts"));

/** Each exported loader and action of a route module, with its source (up to the next top-level export). */
function handlers(source: string): { name: string; body: string }[] {
  const starts = [...source.matchAll(/^export (?:async function|const) (loader|action)\b/gm)];
  return starts.map((m, _i) => {
    const from = m.index ?? 0;
    const next = source.slice(from + 1).search(/^export /m);
    return { name: m[1] as string, body: next < 0 ? source.slice(from) : source.slice(from, from + 1 + next) };
  });
}

describe("the door", () => {
  it("has routes to walk", () => {
    expect(routes).toEqual(expect.arrayContaining(["_app.tsx", "api.vials.ts", "_app.scan.tsx"]));
  });

  it("is called by every loader and action but those of the public routes", () => {
    const skipping = routes
      .filter((file) => !PUBLIC.has(file))
      .flatMap((file) =>
        handlers(readFileSync(join(routesDir, file), "utf8"))
          .filter(({ body }) => !DOOR.test(body) && !DOOR_FACTORIES.test(body))
          .map(({ name }) => `${file}: ${name}`)
          .filter((handler) => !READS_NOTHING.has(handler)),
      );
    expect(skipping).toEqual([]);
  });

  it("is the only reader of the session outside the public routes, and no route builds an actor by hand", () => {
    const found = routes
      .filter((file) => !PUBLIC.has(file))
      .flatMap((file) => {
        const source = readFileSync(join(routesDir, file), "utf8");
        const problems: string[] = [];
        if (/\bgetSessionUser\b/.test(source)) problems.push(`${file} reads the session itself`);
        if (/\{\s*\.\.\.(user|viewer|viewer\.user|actor),\s*locationId\s*:/.test(source))
          problems.push(`${file} builds an actor by hand`);
        return problems;
      });
    expect(found).toEqual([]);
  });

  it("keeps access and http apart: app/http imports nothing from app/access", () => {
    const httpDir = join(root, "app", "http");
    const importing = readdirSync(httpDir, { recursive: true, encoding: "utf8" })
      .filter((f) => /\.tsx?$/.test(f))
      .filter((f) => /from\s+["'](~\/access\/|\.\.\/access\/)/.test(readFileSync(join(httpDir, f), "utf8")));
    expect(importing).toEqual([]);
  });
});
