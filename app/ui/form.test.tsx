import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CheckboxField, ChoiceGroup, Field, FieldGrid, SelectField, TextareaField } from "./form";

// Server rendering is what a user (and a screen reader) gets before JavaScript loads: these read
// the HTML and follow its ids, as assistive technology does.
function dom(html: string) {
  const attr = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
  const tags = [...html.matchAll(/<(input|select|textarea|fieldset)\b[^>]*>/g)].map((m) => m[0]);
  const control = (id: string) => tags.find((t) => attr(t, "id") === id);
  /** The text of the element with this id (its own text and its children's). */
  const textOf = (id: string) => {
    const open = html.match(new RegExp(`<(\\w+)[^>]*\\sid="${id}"[^>]*>`));
    if (!open || open.index === undefined) return undefined;
    const rest = html.slice(open.index + open[0].length);
    return rest
      .slice(0, rest.indexOf(`</${open[1]}>`))
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  };
  /** The label text that names the control with this id. */
  const labelOf = (id: string) =>
    html
      .match(new RegExp(`<label[^>]*for="${id}"[^>]*>(.*?)</label>`))?.[1]
      ?.replace(/<[^>]+>/g, "")
      .trim();
  /** What a screen reader says after the name: the texts aria-describedby points at, in order. */
  const description = (id: string) => {
    const ids = attr(control(id) ?? "", "aria-describedby")?.split(" ") ?? [];
    return ids.map((d) => textOf(d) ?? `<missing ${d}>`).join(" ");
  };
  return { attr, control, labelOf, description, textOf };
}

describe("Field", () => {
  it("ties its label to the input and says nothing more when all is well", () => {
    const html = renderToStaticMarkup(<Field label="Email" name="email" type="email" autoComplete="username" />);
    const d = dom(html);
    const input = d.control("email");
    expect(input).toBeDefined();
    expect(d.labelOf("email")).toBe("Email");
    expect(d.attr(input ?? "", "name")).toBe("email");
    expect(input).toContain('required=""');
    expect(input).not.toContain("aria-invalid=");
    expect(input).not.toContain("aria-describedby=");
  });

  it("names the hint, then the error, in aria-describedby and marks the input invalid", () => {
    const html = renderToStaticMarkup(
      <Field
        label="New password"
        name="newPassword"
        type="password"
        hint="At least 12 characters."
        error="Use at least 12 characters."
      />,
    );
    const d = dom(html);
    expect(d.attr(d.control("newPassword") ?? "", "aria-invalid")).toBe("true");
    expect(d.description("newPassword")).toBe("At least 12 characters. Use at least 12 characters.");
  });

  it("keeps ids apart with a prefix, says a note after the label, and lists several errors", () => {
    const html = renderToStaticMarkup(
      <Field
        label="GTIN"
        name="gtin"
        idPrefix="v-1-"
        required={false}
        note="optional"
        error={["Too short.", "Check digit is wrong."]}
      />,
    );
    const d = dom(html);
    expect(d.labelOf("v-1-gtin")).toBe("GTIN (optional)");
    expect(d.control("v-1-gtin")).not.toContain("required");
    expect(d.description("v-1-gtin")).toBe("Too short. Check digit is wrong.");
  });

  it("keeps a description the caller names (an error shown elsewhere in a table row)", () => {
    const html = renderToStaticMarkup(
      <div>
        <Field label="Par at Downtown" labelHidden name="par" id="par-1" aria-describedby="row-1-error" />
        <p id="row-1-error">Par must be a whole number.</p>
      </div>,
    );
    const d = dom(html);
    expect(html).toMatch(/<label for="par-1" class="sr-only">Par at Downtown<\/label>/);
    expect(d.description("par-1")).toBe("Par must be a whole number.");
  });

  it("is comfortable on a phone: full width, 16px text, 40px tall", () => {
    const input = dom(renderToStaticMarkup(<Field label="Name" name="name" />)).control("name") ?? "";
    expect(input).toMatch(/class="[^"]*\bw-full\b/);
    expect(input).toMatch(/class="[^"]*\btext-base\b/);
    expect(input).toMatch(/class="[^"]*\bmin-h-10\b/);
  });
});

describe("the other controls", () => {
  it("SelectField and TextareaField are wired the same way", () => {
    const html = renderToStaticMarkup(
      <>
        <SelectField
          label="Storage"
          name="storage"
          options={[{ value: "room", label: "Room temperature" }]}
          hint="Where it is kept."
          error="Choose a storage."
        />
        <TextareaField label="Notes" name="notes" error="Keep notes under 2000 characters." />
      </>,
    );
    const d = dom(html);
    expect(d.labelOf("storage")).toBe("Storage");
    expect(d.description("storage")).toBe("Where it is kept. Choose a storage.");
    expect(d.labelOf("notes")).toBe("Notes");
    expect(d.attr(d.control("notes") ?? "", "aria-invalid")).toBe("true");
    expect(d.description("notes")).toBe("Keep notes under 2000 characters.");
  });

  it("CheckboxField is labelled by its text and described by its error", () => {
    const html = renderToStaticMarkup(
      <CheckboxField id="ok" name="ok" label="The expiration date is right" error="Tick the box to go on." />,
    );
    const d = dom(html);
    expect(html).toMatch(/<label[^>]*><input[^>]*id="ok"[^>]*\/?>The expiration date is right<\/label>/);
    expect(d.description("ok")).toBe("Tick the box to go on.");
  });

  it("ChoiceGroup names its legend and describes the group with its hint and error", () => {
    const html = renderToStaticMarkup(
      <ChoiceGroup
        id="tracking"
        legend="Tracking"
        name="tracking"
        type="radio"
        options={[
          { value: "serialized", label: "Labelled" },
          { value: "bulk", label: "Bulk" },
        ]}
        checked={(v) => v === "bulk"}
        hint="How stock is counted."
        error="Choose how it is tracked."
      />,
    );
    const describedBy = html.match(/<fieldset[^>]*aria-describedby="([^"]*)"/)?.[1];
    expect(describedBy).toBe("tracking-hint tracking-error");
    expect(dom(html).textOf("tracking-error")).toBe("Choose how it is tracked.");
    expect(html).toMatch(/<legend[^>]*>Tracking<\/legend>/);
    expect(html).toMatch(/<input type="radio" name="tracking"[^>]* checked="" value="bulk"/);
  });

  it("FieldGrid shows each field's value and error from the records it is given", () => {
    const html = renderToStaticMarkup(
      <FieldGrid
        className="sm:grid-cols-2"
        idPrefix="product-"
        values={{ name: "Botox", unitScale: "100" }}
        errors={{ unitScale: "Choose a scale." }}
        fields={[
          { label: "Name", name: "name" },
          { label: "Scale", name: "unitScale", options: [{ value: "100", label: "0.01" }] },
        ]}
      />,
    );
    const d = dom(html);
    expect(d.attr(d.control("product-name") ?? "", "value")).toBe("Botox");
    expect(d.labelOf("product-unitScale")).toBe("Scale");
    expect(d.description("product-unitScale")).toBe("Choose a scale.");
  });
});
