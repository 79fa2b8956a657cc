import { describe, expect, it } from "vitest";
import { csvField, csvLine, csvResponse } from "./csv.server";

describe("csvField", () => {
  it("leaves plain values alone and writes nothing for none", () => {
    expect(csvField("CH-1002")).toBe("CH-1002");
    expect(csvField(20)).toBe("20");
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
  });

  it("quotes commas, quotes and line breaks, doubling quotes", () => {
    expect(csvField('Dr. Quote, "Q"')).toBe('"Dr. Quote, ""Q"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rlf")).toBe('"cr\rlf"');
  });

  it("neutralises what a spreadsheet would run as a formula", () => {
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("-1")).toBe("'-1");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tx")).toBe("'\tx");
    expect(csvField('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`);
    expect(csvField("a=b")).toBe("a=b");
  });

  it("ends each record with CRLF", () => {
    expect(csvLine(["a", null, "b,c"])).toBe('a,,"b,c"\r\n');
  });
});

describe("csvResponse", () => {
  it("sends the header, then reads each page only when the one before was taken", async () => {
    let read = 0;
    async function* pages() {
      for (const page of [[["1"]], [["2"]], [["3"]]]) {
        read++;
        yield page;
      }
    }
    const response = csvResponse("usage log", ["n"], pages());
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="usage-log.csv"');
    const reader = response.body?.getReader();
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    expect(decoder.decode((await reader?.read())?.value)).toBe("\uFEFFn\r\n");
    expect(read).toBe(0);
    expect(decoder.decode((await reader?.read())?.value)).toBe("1\r\n");
    expect(read).toBe(1);
    const rest = [];
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
      rest.push(decoder.decode(chunk.value));
    }
    expect(rest).toEqual(["2\r\n", "3\r\n"]);
  });
});
