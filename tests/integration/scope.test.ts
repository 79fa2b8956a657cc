// One location scope for every domain (ADR 0014): a receipt is reached at the location in scope
// (every location in organization mode) by each of its screens alike, and a location-bound screen
// in organization mode without a location says the one message.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHOOSE_A_LOCATION } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import { schema } from "../../app/db/client.server";
import * as newProfileScreen from "../../app/routes/_app.printer-settings.new";
import * as parLevelsScreen from "../../app/routes/_app.products.par-levels";
import * as addProductsScreen from "../../app/routes/_app.receiving.$receiptId.add-products";
import * as printLabelsScreen from "../../app/routes/_app.receiving.$receiptId.print-labels";
import * as labelsFile from "../../app/routes/receiving.$receiptId.labels[.zpl]";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { formRequest, loadContext, pageRequest, signedIn, withLocationChoice } from "../support/screens";

let t: TestDatabase;
type Code = "DTN" | "WST" | "NTH";
let loc: Record<Code, string>;
/** A completed receipt of the demo seed at North. */
let northReceipt: string;

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  const [north] = await t.db
    .select({ id: schema.receipts.id })
    .from(schema.receipts)
    .where(and(eq(schema.receipts.locationId, loc.NTH), eq(schema.receipts.status, "completed")))
    .limit(1);
  if (!north) throw new Error("the demo seed has no completed receipt at North");
  northReceipt = north.id;
});
afterAll(() => t.close());

async function cookieFor(name: string, where: Code | typeof ORGANIZATION) {
  const { cookie } = await signedIn(t.db, name);
  return withLocationChoice(cookie, where === ORGANIZATION ? ORGANIZATION : loc[where]);
}

/** The status a loader or action answers, thrown or returned, and the text of a thrown message. */
async function statusOf(work: () => Promise<unknown>): Promise<{ status: number; message?: unknown }> {
  try {
    const answer = await work();
    return { status: answer instanceof Response ? answer.status : 200 };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status };
    const { data, init } = thrown as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 500, message: data };
  }
}

/** What the receipt's three screens answer: add-products, print-labels and the ZPL download. */
async function receiptScreens(receiptId: string, cookie: string) {
  const args = (path: string) => ({
    request: pageRequest(path, cookie),
    context: loadContext(t.db),
    params: { receiptId },
  });
  return {
    addProducts: (await statusOf(() => addProductsScreen.loader(args(`/receiving/${receiptId}/add-products`)))).status,
    printLabels: (await statusOf(() => printLabelsScreen.loader(args(`/receiving/${receiptId}/print-labels`)))).status,
    download: (await statusOf(() => labelsFile.loader(args(`/receiving/${receiptId}/labels.zpl`)))).status,
  };
}

describe("a receipt's screens", () => {
  it("answer alike for someone who works at its location while another is in scope: not found", async () => {
    // multi@demo.clinic is STAFF at Downtown and at North.
    expect(await receiptScreens(northReceipt, await cookieFor("multi", "DTN"))).toEqual({
      addProducts: 404,
      printLabels: 404,
      download: 404,
    });
  });

  it("answer alike at the receipt's own location, and in organization mode", async () => {
    const found = { addProducts: 200, printLabels: 200, download: 200 };
    expect(await receiptScreens(northReceipt, await cookieFor("multi", "NTH"))).toEqual(found);
    expect(await receiptScreens(northReceipt, await cookieFor("owner", ORGANIZATION))).toEqual(found);
  });
});

describe("organization mode on a location-bound verb", () => {
  it("says the one message, choose a location first, until one is picked", async () => {
    const cookie = await cookieFor("owner", ORGANIZATION);
    const post = (path: string, form: Record<string, string>) => ({
      request: formRequest(path, cookie, form),
      context: loadContext(t.db),
      params: {},
    });
    const newProfile = await statusOf(() => newProfileScreen.action(post("/printer-settings/new", { name: "Zebra" })));
    const parLevels = await statusOf(() => parLevelsScreen.action(post("/products/par-levels", {})));
    const unknown = await statusOf(() =>
      parLevelsScreen.action(post("/products/par-levels", { locationId: "not-a-location" })),
    );
    for (const answer of [newProfile, parLevels, unknown]) {
      expect(answer).toEqual({ status: 400, message: CHOOSE_A_LOCATION });
    }
    expect(CHOOSE_A_LOCATION).toBe("Organization mode: choose a location first.");
  });
});
