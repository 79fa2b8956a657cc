// npm run bench — on the demo data: for each page, what a first visit downloads (gzip bytes of HTML,
// JS, CSS), how many database round trips the server made for it, and the server's response time.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type RunningProduct, startProduct } from "../lib/product";
import { buildUnlessAsked, firstVisitAssets, gzipBytes, kib, measurePage, median, runsOf, signIn } from "./measure";

/** Measured requests per page unless `--runs N` asks for more (a paired comparison wants 20 or 30). */
const RUNS = 7;

interface Page {
  name: string;
  path: string;
  /** Demo user to sign in as; none for public pages. */
  as?: string;
}

const PAGES: Page[] = [
  { name: "login", path: "/login" },
  { name: "dashboard", path: "/", as: "owner@demo.clinic" },
  { name: "users", path: "/users", as: "owner@demo.clinic" },
  { name: "user detail", path: "/users/{user:staff}", as: "owner@demo.clinic" },
  { name: "locations", path: "/locations", as: "owner@demo.clinic" },
  { name: "products", path: "/products", as: "manager@demo.clinic" },
  { name: "products search", path: "/products?q=restylane", as: "manager@demo.clinic" },
  { name: "product detail", path: "/products/{product:Botox Cosmetic}", as: "manager@demo.clinic" },
  { name: "par levels", path: "/products/par-levels", as: "manager@demo.clinic" },
  { name: "services", path: "/services", as: "manager@demo.clinic" },
  { name: "vendors", path: "/vendors", as: "manager@demo.clinic" },
  { name: "products api", path: "/api/products?q=botox", as: "staff@demo.clinic" },
  { name: "receiving", path: "/receiving", as: "admin@demo.clinic" },
  { name: "receipt add-products", path: "/receiving/{receipt:open}/add-products", as: "admin@demo.clinic" },
  { name: "receipt print-labels", path: "/receiving/{receipt:completed}/print-labels", as: "admin@demo.clinic" },
  { name: "printer settings", path: "/printer-settings", as: "admin@demo.clinic" },
  { name: "stock levels", path: "/stock-levels", as: "admin@demo.clinic" },
  { name: "stock levels api", path: "/api/stock-levels", as: "staff@demo.clinic" },
  { name: "vials api", path: "/api/vials", as: "staff@demo.clinic" },
  { name: "inventory", path: "/inventory", as: "staff@demo.clinic" },
  { name: "inventory in use", path: "/inventory?state=in_use", as: "staff@demo.clinic" },
  { name: "inventory expiring 30d", path: "/inventory?expiringWithinDays=30", as: "staff@demo.clinic" },
  { name: "vial page", path: "/inventory/{item:in_use}", as: "staff@demo.clinic" },
  { name: "vial api", path: "/api/vials/{item:in_use}", as: "staff@demo.clinic" },
  { name: "scan", path: "/scan", as: "staff@demo.clinic" },
  { name: "scan a label", path: "/scan?code={label:in_use}", as: "staff@demo.clinic" },
  { name: "barcode api (label)", path: "/api/barcodes/{label:in_use}", as: "staff@demo.clinic" },
  { name: "usage log", path: "/usage-log", as: "staff@demo.clinic" },
  { name: "usage api", path: "/api/usage", as: "staff@demo.clinic" },
  { name: "recalls", path: "/recalls", as: "manager@demo.clinic" },
  {
    name: "recall report",
    path: "/recalls/report?variationId={item-variation:in_use}&lot={item-lot:in_use}",
    as: "staff@demo.clinic",
  },
  {
    name: "recall report api",
    path: "/api/recalls/{item-lot:in_use}?variationId={item-variation:in_use}",
    as: "staff@demo.clinic",
  },
  { name: "coming soon", path: "/transfers", as: "staff@demo.clinic" },
  { name: "locations api", path: "/api/locations/my", as: "multi@demo.clinic" },
  { name: "health", path: "/health" },
];

export async function runDemoBench(argv: string[]): Promise<void> {
  const runs = runsOf(argv, RUNS);
  buildUnlessAsked(argv);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "clinic-bench-"));
  const product = await startProduct({ port: Number(process.env.BENCH_PORT ?? 8795), dataDir, quiet: true });
  try {
    const rows = [];
    for (const page of PAGES) {
      const cookie = page.as ? await signIn(product, page.as) : undefined;
      const pagePath = await resolveIds(product, page.path);
      const measured = await measurePage(product, pagePath, { cookie, warmups: 1, runs });
      const assets = await firstVisitAssets(product, measured.body);
      rows.push({
        page: `${page.name} ${pagePath}`,
        "html gz": kib(gzipBytes(measured.body)),
        "js gz": kib(assets.js),
        "css gz": kib(assets.css),
        "js files": assets.jsFiles,
        "db round trips": measured.roundTrips.at(-1),
        "server ms (median)": median(measured.times).toFixed(1),
      });
    }
    console.log(`\nFirst-visit weight and server cost per page (${runs} runs each, local libSQL server)\n`);
    console.table(rows);
  } finally {
    await product.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Replaces `{user:staff}` with the id of staff@demo.clinic, `{product:Name}` with that product's id,
 * `{receipt:open}` / `{receipt:completed}` with the first such receipt on admin@'s /receiving, and
 * `{item:in_use}` (or its label, variation or lot) with an in-use vial at staff@'s location.
 */
async function resolveIds(product: RunningProduct, path: string): Promise<string> {
  for (const [placeholder, status] of path.matchAll(/\{receipt:(open|completed)\}/g)) {
    const cookie = await signIn(product, "admin@demo.clinic");
    const html = await (
      await fetch(`${product.url}/receiving?status=${status}`, { headers: { Cookie: cookie } })
    ).text();
    const page = status === "open" ? "add-products" : "print-labels";
    const id = html.match(new RegExp(`/receiving/([0-9a-f-]{36})/${page}`))?.[1];
    if (!id) throw new Error(`bench: no ${status} receipt on /receiving in the demo data`);
    path = path.replace(placeholder, id);
  }
  // An in-use vial at staff@'s location (Downtown): the demo seed starts a few.
  for (const [placeholder, field] of path.matchAll(/\{(item|label|item-variation|item-lot):in_use\}/g)) {
    const cookie = await signIn(product, "staff@demo.clinic");
    const body = (await (
      await fetch(`${product.url}/api/vials?state=in_use`, { headers: { Cookie: cookie } })
    ).json()) as {
      items?: { id: string; labelCode: string; variationId: string; lot: string | null }[];
    };
    const vial = body.items?.find((v) => v.lot);
    if (!vial) throw new Error("bench: no in-use vial with a lot at Downtown in the demo data");
    const value = { item: vial.id, label: vial.labelCode, "item-variation": vial.variationId, "item-lot": vial.lot }[
      field as "item" | "label" | "item-variation" | "item-lot"
    ];
    path = path.replace(placeholder, encodeURIComponent(value ?? ""));
  }
  for (const [placeholder, kind, name] of path.matchAll(/\{(user|product):([^}]+)\}/g)) {
    const cookie = await signIn(product, kind === "user" ? `${name}@demo.clinic` : "owner@demo.clinic");
    const lookup = kind === "user" ? "/api/auth/me" : `/api/products?q=${encodeURIComponent(name as string)}`;
    const body = (await (await fetch(product.url + lookup, { headers: { Cookie: cookie } })).json()) as {
      user?: { id: string };
      items?: { id: string; name: string }[];
    };
    const id = kind === "user" ? body.user?.id : body.items?.find((p) => p.name === name)?.id;
    if (!id) throw new Error(`bench: no ${kind} ${name} in the demo data`);
    path = path.replace(placeholder, id);
  }
  return path;
}
