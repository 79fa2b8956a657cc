import { describe, expect, it } from "vitest";
import { errorFromResponse, NetworkError } from "~/errors/classify";
import { refusalOf } from "./api-error";

describe("refusalOf", () => {
  it("reads the API's message, code and field messages", () => {
    const body = JSON.stringify({
      error: "Enter the units.",
      code: "invalid_input",
      fields: { units: "Enter the units." },
    });
    expect(refusalOf(errorFromResponse(422, body))).toEqual({
      message: "Enter the units.",
      code: "invalid_input",
      fields: { units: "Enter the units." },
    });
    expect(refusalOf(errorFromResponse(409, '{"error":"Already started.","code":"not_sealed"}'))).toEqual({
      message: "Already started.",
      code: "not_sealed",
      fields: {},
    });
  });

  it("falls back to the error's own words when the answer is not ours", () => {
    expect(refusalOf(errorFromResponse(502, "<html>Bad gateway</html>"))).toEqual({
      message: "502: <html>Bad gateway</html>",
      code: null,
      fields: {},
    });
    expect(refusalOf(new NetworkError())).toEqual({ message: "Network request failed", code: null, fields: {} });
  });
});
