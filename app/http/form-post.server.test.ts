import { describe, expect, it } from "vitest";
import { admitFormPost, FORM_BODY_MAX_BYTES, formLimitFor } from "./form-post.server";

function post(path: string, body: BodyInit | null, contentType?: string, method = "POST") {
  return new Request(`http://clinic.test${path}`, {
    method,
    body,
    headers: contentType ? { "Content-Type": contentType } : {},
  });
}

async function refused(request: Request) {
  const admitted = await admitFormPost(request);
  return admitted instanceof Response ? admitted.status : "admitted";
}

describe("admitFormPost", () => {
  it("passes reads and /api/ writes untouched", async () => {
    const read = new Request("http://clinic.test/recalls");
    expect(await admitFormPost(read)).toBe(read);
    const api = post("/api/recalls", "{}", "application/json");
    expect(await admitFormPost(api)).toBe(api);
  });

  it("passes a form on with the same fields", async () => {
    const admitted = await admitFormPost(
      post("/recalls", "intent=mark&lot=C8123C3", "application/x-www-form-urlencoded;charset=UTF-8"),
    );
    if (admitted instanceof Response) throw new Error(`refused ${admitted.status}`);
    expect(Object.fromEntries(await admitted.formData())).toEqual({ intent: "mark", lot: "C8123C3" });
  });

  it("refuses what is not a form with 415", async () => {
    expect(await refused(post("/recalls", '{"lot":"x"}', "application/json"))).toBe(415);
    expect(await refused(post("/login", "email=x", "text/plain; x=application/x-www-form-urlencoded"))).toBe(415);
    expect(await refused(post("/login", null))).toBe(415);
    expect(await refused(post("/users/x", "a=1", "application/x-www-form-urlencoded", "PUT"))).toBe("admitted");
  });

  it("refuses a body over the limit with 413", async () => {
    const big = `note=${"a".repeat(FORM_BODY_MAX_BYTES)}`;
    expect(await refused(post("/products/new", big, "application/x-www-form-urlencoded"))).toBe(413);
    expect(formLimitFor("/products/new")).toEqual({ maxBytes: FORM_BODY_MAX_BYTES, files: false });
  });

  it("lets the recipes import take its file, up to its own limit", async () => {
    expect(formLimitFor("/recipes-import")).toMatchObject({ maxBytes: 8 * 1024 * 1024, files: true });
    expect(formLimitFor("/recipes-import.data").files).toBe(true);
    expect(formLimitFor("/recipes-import/x").files).toBe(false);
    const withFile = new FormData();
    withFile.set("file", new File(["Service,SKU,Quantity\n"], "recipes.csv"));
    const request = new Request("http://clinic.test/recipes-import", { method: "POST", body: withFile });
    expect(await refused(request)).toBe("admitted");
  });

  it("refuses a file with 400, and takes a multipart form of text", async () => {
    const withFile = new FormData();
    withFile.set("scan", new File(["0101234"], "scan.txt"));
    const request = new Request("http://clinic.test/receiving/x/add-products", { method: "POST", body: withFile });
    expect(await refused(request)).toBe(400);
    const text = new FormData();
    text.set("scan", "0101234");
    const ok = new Request("http://clinic.test/receiving/x/add-products", { method: "POST", body: text });
    expect(await refused(ok)).toBe("admitted");
  });

  it("passes a streamed upload on unread (the sales file is the route's to bound), and only its multipart post", async () => {
    const withFile = new FormData();
    withFile.set("file", new File(["Date,Item\n"], "sales.csv"));
    const upload = new Request("http://clinic.test/sales-import?index", { method: "POST", body: withFile });
    const passed = await admitFormPost(upload);
    expect(passed).toBe(upload);
    expect(upload.bodyUsed).toBe(false);
    // The page's script posts the same form to the route's data URL (single fetch).
    const fetched = new Request("http://clinic.test/sales-import.data?index", { method: "POST", body: withFile });
    expect(await admitFormPost(fetched)).toBe(fetched);
    const elsewhere = new Request("http://clinic.test/sales-import/x", { method: "POST", body: withFile });
    expect(await refused(elsewhere)).toBe(400);
    const big = `note=${"a".repeat(FORM_BODY_MAX_BYTES)}`;
    expect(await refused(post("/sales-import", big, "application/x-www-form-urlencoded"))).toBe(413);
  });
});
