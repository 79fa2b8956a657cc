import { Toucan } from "toucan-js";
import { describe, expect, it, vi } from "vitest";
import { reporterOptions } from "./report.server";

describe("the workers' reporter", () => {
  it("sends events through the scrubber: request URL, query, breadcrumbs and extra", async () => {
    const sent: string[] = [];
    const fetcher = vi.fn(async (_url: unknown, init?: RequestInit) => {
      sent.push(String(init?.body));
      return new Response("{}", { status: 200 });
    });
    const request = new Request("https://clinic.example/usage-log?patientRef=PT-1001&lot=L1&token=t0k", {
      headers: { Cookie: "session=s3ss", Authorization: "Bearer b34r", "User-Agent": "test" },
    });
    const sentry = new Toucan({
      ...reporterOptions({ dsn: "https://public@sentry.example/1", release: "1.2.3", request }),
      transportOptions: { fetcher: fetcher as unknown as typeof fetch },
    });
    sentry.addBreadcrumb({ category: "fetch", data: { url: "/api/usage?patient_ref=PT-1002", password: "pw" } });
    sentry.setExtra("body", "units=2&patientRef=PT-1003&newPassword=n3w");
    sentry.setExtra("command", { kind: "draw", body: { patientRef: "PT-1004", apiKey: "k3y", units: 2 } });
    sentry.captureException(new Error("Database unavailable"));
    await sentry.getClient()?.flush(2000);

    expect(fetcher).toHaveBeenCalledTimes(1);
    const envelope = sent.join("\n");
    expect(envelope).toContain("Database unavailable");
    expect(envelope).toContain('"release":"1.2.3"');
    expect(envelope).toContain("lot=L1");
    expect(envelope).toContain('"units":2');
    for (const leaked of ["PT-100", "t0k", "s3ss", "b34r", "pw", "n3w", "k3y"]) {
      expect(envelope, leaked).not.toContain(leaked);
    }
  });

  it("samples traces at 10% (spec section 9)", () => {
    expect(reporterOptions({ dsn: "https://public@sentry.example/1" }).tracesSampleRate).toBe(0.1);
  });
});
