import { describe, expect, it } from "vitest";
import { FILTERED, isScrubbedName, scrub } from "./scrub";

describe("scrub", () => {
  it("drops every field the spec names, and patient references, at any depth", () => {
    const scrubbed = scrub({
      email: "a@b.c",
      password: "p",
      nested: { currentPassword: "1", newPassword: "2", confirmPassword: "3", keep: 1 },
      list: [{ token: "t", apiKey: "k", secret: "s", name: "n" }],
      draws: [{ units: 2, patientRef: "PT-1001", inner: [{ patient_ref: "PT-1002", lot: "L1" }] }],
    });
    expect(scrubbed).toEqual({
      email: "a@b.c",
      nested: { keep: 1 },
      list: [{ name: "n" }],
      draws: [{ units: 2, inner: [{ lot: "L1" }] }],
    });
  });

  it("knows the names' other spellings and nothing more", () => {
    for (const name of ["patientRef", "patient_ref", "PatientRef", "patient-ref", "patientReference", "PATIENT_REF"]) {
      expect(isScrubbedName(name), name).toBe(true);
    }
    for (const name of ["api_key", "API-KEY", "new_password", "Token", "patient%5Fref"]) {
      expect(isScrubbedName(name), name).toBe(true);
    }
    for (const name of ["patient", "patientCount", "tokens", "csrfToken", "lot", "ref", "passwordHint"]) {
      expect(isScrubbedName(name), name).toBe(false);
    }
  });

  it("keeps the name and drops the value of pairs in URLs, query strings and form bodies", () => {
    expect(scrub("https://clinic.example/usage-log?patientRef=PT-1001&lot=L1#top")).toBe(
      `https://clinic.example/usage-log?patientRef=${FILTERED}&lot=L1#top`,
    );
    expect(scrub("lot=L1&patient_ref=PT-1001")).toBe(`lot=L1&patient_ref=${FILTERED}`);
    expect(scrub("email=a%40b.c&password=hunter2&confirmPassword=hunter2&_intent=save")).toBe(
      `email=a%40b.c&password=${FILTERED}&confirmPassword=${FILTERED}&_intent=save`,
    );
    expect(scrub("GET /api/usage?token=abc failed: 503")).toBe(`GET /api/usage?token=${FILTERED} failed: 503`);
    expect(scrub("/inventory?state=in_use")).toBe("/inventory?state=in_use");
    expect(scrub("no pairs here")).toBe("no pairs here");
  });

  it("scrubs JSON kept as a string as JSON", () => {
    const body = JSON.stringify({ units: 2, patientRef: "PT-1001", nested: [{ apiKey: "k", ok: true }] });
    expect(JSON.parse(scrub(body))).toEqual({ units: 2, nested: [{ ok: true }] });
  });

  it("scrubs a whole Sentry event: request, breadcrumbs' data and extra", () => {
    const event = {
      event_id: "abc",
      tags: { errorId: "err_1_abcdefgh" },
      request: {
        url: "https://clinic.example/usage-log?patientRef=PT-1001",
        query_string: "patientRef=PT-1001&page=2",
        data: "units=2&patientRef=PT-1001&password=x",
        headers: { "User-Agent": "test" },
      },
      breadcrumbs: [
        {
          category: "fetch",
          data: { url: "/api/usage?patient-ref=PT-1002", method: "GET", status_code: 200 },
        },
        { category: "navigation", data: { from: "/usage-log?patientRef=PT-1003", to: "/inventory?token=t" } },
        { category: "ui.input", message: "form[name=draw] > input[name=patientRef]" },
      ],
      extra: {
        form: { units: "2", patientRef: "PT-1004" },
        sent: [{ command: { kind: "draw", body: { itemId: "i1", PatientRef: "PT-1005" } } }],
        pairs: [
          ["patientRef", "PT-1006"],
          ["lot", "L1"],
        ],
      },
    };
    const scrubbed = scrub(event);
    expect(JSON.stringify(scrubbed)).not.toMatch(/PT-100\d|password=x|token=t\b/);
    expect(scrubbed.request.url).toBe(`https://clinic.example/usage-log?patientRef=${FILTERED}`);
    expect(scrubbed.request.query_string).toBe(`patientRef=${FILTERED}&page=2`);
    expect(scrubbed.request.data).toBe(`units=2&patientRef=${FILTERED}&password=${FILTERED}`);
    expect(scrubbed.breadcrumbs[0]?.data).toEqual({
      url: `/api/usage?patient-ref=${FILTERED}`,
      method: "GET",
      status_code: 200,
    });
    expect(scrubbed.breadcrumbs[1]?.data).toEqual({
      from: `/usage-log?patientRef=${FILTERED}`,
      to: `/inventory?token=${FILTERED}`,
    });
    // A selector naming the field is not a value: it stays.
    expect(scrubbed.breadcrumbs[2]?.message).toBe("form[name=draw] > input[name=patientRef]");
    expect(scrubbed.extra).toEqual({
      form: { units: "2" },
      sent: [{ command: { kind: "draw", body: { itemId: "i1" } } }],
      pairs: [
        ["patientRef", FILTERED],
        ["lot", "L1"],
      ],
    });
    expect(scrubbed.tags).toEqual({ errorId: "err_1_abcdefgh" });
    // The original is left as it was.
    expect(event.request.url).toContain("PT-1001");
  });

  it("survives an object met twice or in a cycle", () => {
    const shared: Record<string, unknown> = { token: "t", keep: 1 };
    shared.self = shared;
    const scrubbed = scrub({ a: shared, b: shared }) as { a: Record<string, unknown>; b: unknown };
    expect(scrubbed.a.keep).toBe(1);
    expect(scrubbed.a.token).toBeUndefined();
    expect(scrubbed.a.self).toBe(scrubbed.a);
    expect(scrubbed.b).toBe(scrubbed.a);
  });
});
