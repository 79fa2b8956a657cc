// Who may act and who may witness, over HTTP inside workerd: a user who must still choose their own
// password is refused by the JSON API as pages send them to /change-password, and cannot witness
// with the password an administrator chose; right witness passwords in parallel all pass the
// throttle. The vials are the test's own: a controlled product received at West by its manager.
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
import { app, BASE, createProduct, get, postForm, signInAs, toxinFields } from "./support";

const RUN = Date.now().toString(36).toUpperCase();
const LOT = `WT-${RUN}`;
const DAY_MS = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

let manager = "";
let owner = "";
let west = "";
let vials: string[] = [];
const take = () => {
  const id = vials.shift();
  if (!id) throw new Error("the test ran out of vials: receive more in beforeAll");
  return id;
};

function post(path: string, cookie: string, body: unknown) {
  return app().fetch(`${BASE}${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    redirect: "manual",
  });
}

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Signs in through the API with `password`: the cookie and whether a new password is due. */
async function signIn(email: string, password: string) {
  const response = await post("/api/auth/login", "", { email, password });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { mustChangePassword: boolean };
  return { cookie: (response.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "", must: body.mustChangePassword };
}

beforeAll(async () => {
  ({ cookie: manager } = await signInAs("manager@demo.clinic"));
  const signedOwner = await signInAs("owner@demo.clinic");
  owner = signedOwner.cookie;
  west = signedOwner.locations.find((l) => l.location.code === "WST")?.locationId ?? "";
  const { variationId } = await createProduct(
    manager,
    toxinFields(`Witness API ${RUN}`, `witness-api-${RUN}`, `Vials ${RUN}`, { controlled: "on" }),
  );
  const opened = await postForm("/receiving", manager, { vendorId: "", reference: LOT, notes: "" });
  expect(opened.status).toBe(302);
  const receipt = (opened.headers.get("Location") ?? "").split("?")[0] ?? "";
  const added = await postForm(receipt, manager, {
    intent: "add-line",
    variationId,
    quantity: "16",
    lot: LOT,
    expirationDate: inDays(200),
    unitCost: "",
    serial: "",
  });
  expect(added.status).toBeLessThan(400);
  expect((await postForm(receipt, manager, { intent: "complete" })).status).toBeLessThan(400);
  const listed = await answer(await get(`/api/vials?lot=${LOT}&pageSize=100`, manager));
  vials = ((listed.body.items as { id: string }[]) ?? []).map((v) => v.id);
  expect(vials).toHaveLength(16);
}, 120_000);

describe("a user who must choose their own password", () => {
  it("is refused by the JSON API with 403 password_change_required, cannot witness, and is let in once they chose it", async () => {
    const email = `must-change-${RUN.toLowerCase()}@demo.clinic`;
    const created = await postForm("/users/new", owner, {
      email,
      firstName: "Petra",
      lastName: "Pending",
      password: "set-by-the-owner",
      locationId: west,
      role: "STAFF",
    });
    expect(created.status).toBe(302);
    const { cookie, must } = await signIn(email, "set-by-the-owner");
    expect(must).toBe(true);

    const vial = take();
    const refused = { status: 403, body: { code: "password_change_required" } };
    expect(await answer(await post(`/api/vials/${vial}/draw`, cookie, { units: 1 }))).toMatchObject(refused);
    expect(await answer(await post(`/api/vials/${vial}/discard`, cookie, { reason: "damaged" }))).toMatchObject(
      refused,
    );
    expect(await answer(await get(`/api/vials?lot=${LOT}`, cookie))).toMatchObject(refused);
    const error = (await answer(await get("/api/recalls", cookie))).body.error;
    expect(error).toMatch(/choose your own password/);
    // Who they are stays readable: the app needs it to send them to change it.
    expect((await get("/api/auth/me", cookie)).status).toBe(200);

    // The owner chose that password: it witnesses nothing, and the refusal says why.
    expect(
      await answer(
        await post(`/api/vials/${vial}/discard`, manager, {
          reason: "damaged",
          witness: { email, password: "set-by-the-owner" },
        }),
      ),
    ).toMatchObject({
      status: 422,
      body: {
        code: "witness_invalid",
        error: "Petra Pending must choose their own password before witnessing: ask them to sign in and change it.",
      },
    });

    const changed = await postForm("/change-password", cookie, {
      currentPassword: "set-by-the-owner",
      newPassword: "petras-own-choice",
      confirmPassword: "petras-own-choice",
    });
    expect(changed.status).toBe(302);
    expect(await answer(await post(`/api/vials/${vial}/draw`, cookie, { units: 1 }))).toMatchObject({ status: 200 });
    expect(
      await answer(
        await post(`/api/vials/${vial}/empty`, manager, { witness: { email, password: "petras-own-choice" } }),
      ),
    ).toMatchObject({ status: 200, body: { vial: { state: "empty" } } });
  });
});

describe("right witness passwords in parallel", () => {
  it("all pass the throttle: twelve witnessed discards at once are twelve discards", async () => {
    const ids = Array.from({ length: 12 }, take);
    const responses = await Promise.all(
      ids.map((id) =>
        post(`/api/vials/${id}/discard`, manager, {
          reason: "damaged",
          witness: { email: "admin@demo.clinic", password: DEMO_PASSWORD },
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(ids.map(() => 200));
  });
});
