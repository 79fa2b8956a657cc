import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { WitnessFields } from "./vial-forms";

// A controlled substance's empty and discard forms carry a witness: their fields are labelled, kept
// apart per form by their ids, never filled by the browser's password manager, and a refused
// password is never sent back into the page.
describe("WitnessFields", () => {
  it("labels each field, prefixes its id, and shows the refusal under the password", () => {
    const html = renderToStaticMarkup(
      <WitnessFields
        prefix="discard-"
        errors={{ witnessPassword: "The witness could not be confirmed." }}
        typed={{ witnessEmail: "staff@demo.clinic", witnessPassword: "secret" }}
      />,
    );
    expect(html).toContain('<label for="discard-witnessEmail" class="font-medium text-sm">Witness email</label>');
    expect(html).toContain('<label for="discard-witnessPassword" class="font-medium text-sm">Witness password</label>');
    expect(html).toMatch(/<input[^>]*id="discard-witnessEmail"[^>]*type="email"[^>]*value="staff@demo.clinic"/);
    const password = html.match(/<input[^>]*id="discard-witnessPassword"[^>]*>/)?.[0] ?? "";
    expect(password).toContain('type="password"');
    expect(password).toMatch(/autocomplete="off"/i);
    expect(password).toContain('aria-describedby="discard-witnessPassword-error"');
    expect(html).toContain('<div id="discard-witnessPassword-error"');
    expect(html).not.toContain("secret");
  });
});
