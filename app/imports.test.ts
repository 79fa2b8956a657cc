// Where things go, checked (docs/architecture.md, "Where things go"). Every folder of app/ stands on
// one floor, and a module imports only from its own folder or from floors below it:
// - a domain (receiving, vials, a new transfers...) uses the shared modules and never another
//   domain's insides: what two domains need is a shared module (the catalogue, the stock ledger);
// - a screen that shows several domains at once (inventory, scan) composes them, never another screen;
// - routes and scheduled jobs are the callers of everything, and nothing imports them.
// And db/ is the ground the app stands on: nothing in it imports app/ or scripts/ (seeds are callers
// of the domain, like scripts, so they live in scripts/seed).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const app = dirname(fileURLToPath(import.meta.url));
const root = resolve(app, "..");

/** The floors, lowest first. A folder (or a file at app/'s top) missing here fails the first test. */
const FLOORS = {
  /** What every layer uses: the database client, HTTP on the server, the browser's client, UI parts. */
  ground: [
    "db",
    "http",
    "browser",
    "forms",
    "ui",
    "errors",
    "connectivity",
    "observability",
    "outcome.ts",
    "sha256.ts",
    "env.server.ts",
    "context.ts",
  ],
  /** Who is acting and what they may do, the activity log, and what several domains read and write. */
  shared: ["auth", "access", "activity", "catalog", "stock", "usage", "labels", "scanner"],
  /** One clinic concern each: its verbs, forms, outcome and parts. */
  domain: [
    "products",
    "services",
    "vendors",
    "locations",
    "users",
    "printers",
    "par-levels",
    "receiving",
    "recalls",
    "vials",
    "activity-log",
    "backups",
    "transfers",
    "counts",
    "purchasing",
    "imports",
  ],
  /** Screens that compose several domains, and the app's frame. */
  screen: ["inventory", "scan", "shell", "dashboard", "reorder", "reconciliation", "offline"],
  /** The callers: routes, scheduled jobs, the document and its entries. */
  entry: ["routes", "jobs", "root.tsx", "entry.server.tsx", "entry.client.tsx", "routes.ts", "service-worker"],
} as const;

type Floor = keyof typeof FLOORS;
const ORDER = Object.keys(FLOORS) as Floor[];
/** Floors whose folders may use each other (without a cycle): the ground, and the shared modules. */
const OPEN_FLOORS: readonly Floor[] = ["ground", "shared"];

const floorOf = new Map<string, Floor>(ORDER.flatMap((floor) => FLOORS[floor].map((place) => [place, floor] as const)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith(".d.ts"))
    .map((f) => join(dir, f));
}

/** Every module a file names in an import or export ... from, or a dynamic import() (comment lines aside). */
function specifiers(text: string): string[] {
  const source = text
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join("\n");
  const patterns = [
    /^\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\(\s*["']([^"']+)["']/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1] as string));
}

/** The folder (or file, with its extension) at app/'s top that a path inside app/ belongs to. */
function placeOf(path: string): string {
  const [top, ...inside] = relative(app, path).split(sep) as [string, ...string[]];
  if (inside.length > 0) return top;
  return floorOf.has(top) ? top : ([".ts", ".tsx"].map((ext) => top + ext).find((file) => floorOf.has(file)) ?? top);
}

/** What a specifier points at, as an absolute path, when it is inside the repository. */
function target(file: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return join(app, specifier.slice(2));
  if (specifier.startsWith(".")) return resolve(dirname(file), specifier);
  return null;
}

interface Arrow {
  from: string;
  to: string;
  file: string;
  specifier: string;
}

const arrows: Arrow[] = sourceFiles(app).flatMap((file) =>
  specifiers(readFileSync(file, "utf8")).flatMap((specifier) => {
    const to = target(file, specifier);
    // Modules only: a stylesheet's URL (root.tsx) is not an arrow between rooms.
    if (!to?.startsWith(app + sep) || /\.css(\?|$)/.test(to)) return [];
    const [from, place] = [placeOf(file), placeOf(to)];
    return from === place ? [] : [{ from, to: place, file: relative(root, file), specifier }];
  }),
);

function allowed({ from, to }: Arrow): boolean {
  const [a, b] = [floorOf.get(from), floorOf.get(to)];
  if (!a || !b) return false;
  const [i, j] = [ORDER.indexOf(a), ORDER.indexOf(b)];
  return j < i || (i === j && OPEN_FLOORS.includes(a));
}

/** The folder-level cycles: each as the folders in order, first repeated at the end. */
function cycles(edges: readonly Arrow[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) next.set(from, (next.get(from) ?? new Set()).add(to));
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (node: string, path: string[]) => {
    if (path.includes(node)) {
      found.push([...path.slice(path.indexOf(node)), node]);
      return;
    }
    if (done.has(node)) return;
    for (const to of next.get(node) ?? []) walk(to, [...path, node]);
    done.add(node);
  };
  for (const node of next.keys()) walk(node, []);
  return found;
}

describe("where things go in app/", () => {
  it("places every folder of app/ on one floor", () => {
    const places = readdirSync(app).filter((name) => {
      if (statSync(join(app, name)).isDirectory()) return true;
      return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name);
    });
    expect(places.filter((place) => !floorOf.has(place))).toEqual([]);
    expect([...floorOf.keys()].filter((place) => !places.includes(place))).toEqual([]);
  });

  it("imports only from the same folder or a floor below (a domain never from another domain)", () => {
    const wrong = arrows
      .filter((arrow) => !allowed(arrow))
      .map(
        ({ file, specifier, from, to }) =>
          `${file} imports ${specifier} (${floorOf.get(from)} ${from} → ${floorOf.get(to)} ${to})`,
      );
    expect(wrong).toEqual([]);
  });

  it("has no cycle among folders", () => {
    expect(cycles(arrows).map((cycle) => cycle.join(" → "))).toEqual([]);
  });

  it("sees the imports it checks", () => {
    // A guard against a pattern that silently stops matching: these arrows exist today.
    const seen = (from: string, to: string) => arrows.some((a) => a.from === from && a.to === to);
    expect(seen("routes", "vials") && seen("vials", "stock") && seen("stock", "catalog")).toBe(true);
  });
});

describe("db/", () => {
  it("imports nothing from app/ or scripts/ (it is the ground floor)", () => {
    const db = join(root, "db");
    const upward = sourceFiles(db).flatMap((file) =>
      specifiers(readFileSync(file, "utf8"))
        .filter((s) => s.startsWith("~/") || (s.startsWith(".") && !resolve(dirname(file), s).startsWith(db + sep)))
        .map((s) => `${relative(root, file)} imports ${s}`),
    );
    expect(upward).toEqual([]);
  });
});
