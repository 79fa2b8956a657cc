import type { AppLoadContext } from "@remix-run/cloudflare";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { takeFlashToast } from "~/ui/flash.server";
import { FORBIDDEN, type Refused, refusalsOf } from "../outcome";
import { action as productAction } from "../routes/_app.products.$productId";
import { done, intentOf, invalid, refused, refusedEdit } from "./outcome.server";

/** What a route answer is, thrown or returned: its status, its data, where it redirects. */
async function answerOf(work: () => unknown): Promise<{ status: number; data?: unknown; location?: string | null }> {
  let answer: unknown;
  try {
    answer = await work();
  } catch (thrown) {
    answer = thrown;
  }
  if (answer instanceof Response) return { status: answer.status, location: answer.headers.get("Location") };
  const { data, init } = answer as { data: unknown; init: ResponseInit | null };
  return { status: init?.status ?? 200, data };
}

const { refuse: refuseExactly, messages } = refusalsOf({
  not_found: "That thing does not exist.",
  name_taken: "Another thing already has this name.",
  gone_meanwhile: "Someone else removed it.",
});
/** A refusal typed as any of the domain's, as a verb's outcome is. */
const refuse = (refusal: keyof typeof messages, message?: string): Refused<keyof typeof messages> =>
  refuseExactly(refusal, message);

describe("refusalsOf", () => {
  it("names every domain's forbidden refusal with the one message, and defaults each message to its name's", () => {
    expect(messages.forbidden).toBe(FORBIDDEN);
    expect(refuse("name_taken")).toEqual({ ok: false, refusal: "name_taken", message: messages.name_taken });
    expect(refuse("name_taken", "Taken by Botox.")).toMatchObject({ message: "Taken by Botox." });
  });
});

describe("refused", () => {
  it("throws the 403 screen for forbidden and the 404 screen with the message for not_found", async () => {
    expect(await answerOf(() => refused(refuse("forbidden"), { intent: "update" }))).toEqual({
      status: 403,
      data: FORBIDDEN,
    });
    expect(await answerOf(() => refused(refuse("not_found")))).toEqual({ status: 404, data: messages.not_found });
    // A refusal named as "not found" by the route is the 404 screen too.
    const gone = () => refused(refuse("gone_meanwhile"), {}, { notFound: ["not_found", "gone_meanwhile"] });
    expect(await answerOf(gone)).toMatchObject({ status: 404 });
  });

  it("puts any other refusal next to its field, else above the form, with what the route adds, as a 409", async () => {
    const onName = refused(
      refuse("name_taken"),
      { intent: "update", values: null },
      { fields: { name_taken: "name" } },
    );
    expect(await answerOf(() => onName)).toEqual({
      status: 409,
      data: { fieldErrors: { name: messages.name_taken }, formError: null, intent: "update", values: null },
    });
    const above = refused(refuse("gone_meanwhile"), { intent: "update" }, { fields: { name_taken: "name" } });
    expect(await answerOf(() => above)).toEqual({
      status: 409,
      data: { fieldErrors: {}, formError: messages.gone_meanwhile, intent: "update" },
    });
  });

  it("takes the field from a function, lets a field take not_found, and answers another status when asked", async () => {
    const row = refused(refuse("name_taken"), {}, { fields: (r) => `${r}-3`, status: 400 });
    expect(await answerOf(() => row)).toEqual({
      status: 400,
      data: { fieldErrors: { "name_taken-3": messages.name_taken }, formError: null },
    });
    const onEmail = refused(refuse("not_found"), {}, { fields: { not_found: "email" } });
    expect(await answerOf(() => onEmail)).toMatchObject({
      status: 409,
      data: { fieldErrors: { email: "That thing does not exist." } },
    });
  });
});

describe("refusedEdit", () => {
  const stale = refusalsOf({ stale: "Someone else changed it.", name_taken: "Taken." }).refuse;
  const typed = { name: "Acme" };

  it("keeps what was typed for a refusal with a field, and asks to read the page again for any other", async () => {
    const taken = refusedEdit(stale("name_taken") as Refused<"stale" | "name_taken">, { intent: "update" }, typed, {
      name_taken: "name",
    });
    expect(await answerOf(() => taken)).toEqual({
      status: 409,
      data: { fieldErrors: { name: "Taken." }, formError: null, intent: "update", values: typed, conflict: false },
    });
    const changed = refusedEdit(stale("stale") as Refused<"stale" | "name_taken">, { intent: "update" }, typed, {
      name_taken: "name",
    });
    // After a stale save the form shows the record as it now stands, not what was typed.
    expect(await answerOf(() => changed)).toMatchObject({
      status: 409,
      data: { formError: "Someone else changed it.", values: null, conflict: true },
    });
  });
});

describe("invalid", () => {
  it("answers 400 with each field's first message under it", async () => {
    const error = z.object({ name: z.string().min(2, "Too short."), code: z.string() }).safeParse({ name: "a" }).error;
    if (!error) throw new Error("expected the form not to parse");
    expect(await answerOf(() => invalid(error, { intent: "update" }))).toEqual({
      status: 400,
      data: { fieldErrors: { name: "Too short.", code: expect.any(String) }, formError: null, intent: "update" },
    });
  });
});

describe("done", () => {
  it("redirects with a toast the next page shows, from a title and description or a whole toast", async () => {
    const answer = await done("/vendors/1", "Vendor archived", "Acme is archived.");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/vendors/1");
    const next = new Request("http://clinic.test/vendors/1", {
      headers: { Cookie: answer.headers.get("Set-Cookie")?.split(";")[0] ?? "" },
    });
    expect((await takeFlashToast(next)).toast).toMatchObject({
      title: "Vendor archived",
      description: "Acme is archived.",
    });

    const info = await done("/par-levels", { title: "Nothing to save", tone: "info" });
    const again = new Request("http://clinic.test/", {
      headers: { Cookie: info.headers.get("Set-Cookie")?.split(";")[0] ?? "" },
    });
    expect((await takeFlashToast(again)).toast).toMatchObject({ title: "Nothing to save", tone: "info" });
  });
});

describe("intentOf", () => {
  const INTENTS = ["archive", "restore"] as const;

  it("reads the intent from a form or its entries", () => {
    const form = new FormData();
    form.set("intent", "restore");
    expect(intentOf(form, INTENTS)).toBe("restore");
    expect(intentOf({ intent: "archive" }, INTENTS)).toBe("archive");
  });

  it("answers 400 saying the action is unknown and what to do, for another intent or none", async () => {
    expect(await answerOf(() => intentOf({ intent: "explode" }, INTENTS))).toEqual({
      status: 400,
      data: 'Unknown action "explode": this page does not offer it. Reload the page and try again.',
    });
    expect(await answerOf(() => intentOf({}, INTENTS))).toEqual({
      status: 400,
      data: "No action chosen: this page does not offer it. Reload the page and try again.",
    });
  });

  it("is how the product page turns down an unknown intent, before anything else is read", async () => {
    const body = new FormData();
    body.set("intent", "delete-everything");
    const request = new Request("http://clinic.test/products/p1", { method: "POST", body });
    const answer = await answerOf(() =>
      productAction({ request, params: { productId: "p1" }, context: {} as AppLoadContext }),
    );
    expect(answer).toMatchObject({ status: 400, data: expect.stringContaining('Unknown action "delete-everything"') });
  });
});
