import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CheckboxField, ChoiceGroup, Field, FieldGrid, SelectField, TextareaField } from "./form";

// Server rendering is what a user (and a screen reader) gets before JavaScript loads: these read
// the HTML and follow its ids, as assistive technology does.
function read(element: ReactElement) {
  const html = renderToStaticMarkup(element);
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
  return { html, attr, control, labelOf, description, textOf };
}

/** Each member of the family, rendered with a hint and an error: what its label and description say. */
const WIRED: [string, ReactElement, string, string, string][] = [
  [
    "Field",
    <Field key="f" label="New password" name="newPassword" type="password" hint="12 or more." error="Too short." />,
    "newPassword",
    "New password",
    "12 or more. Too short.",
  ],
  [
    "SelectField",
    <SelectField key="s" label="Storage" name="storage" options={[]} hint="Where it is kept." error="Choose one." />,
    "storage",
    "Storage",
    "Where it is kept. Choose one.",
  ],
  [
    "TextareaField",
    <TextareaField key="t" label="Notes" name="notes" hint="For the team." error="Keep it shorter." />,
    "notes",
    "Notes",
    "For the team. Keep it shorter.",
  ],
  [
    "Field with a prefix, a note and two errors",
    <Field key="g" label="GTIN" name="gtin" idPrefix="v-1-" required={false} note="optional" error={["A.", "B."]} />,
    "v-1-gtin",
    "GTIN (optional)",
    "A. B.",
  ],
];

describe("the field family's accessibility wiring", () => {
  it.each(WIRED)("%s: label names the control, hint then errors describe it", (_, element, id, label, description) => {
    const d = read(element);
    expect(d.labelOf(id)).toBe(label);
    expect(d.attr(d.control(id) ?? "", "aria-invalid")).toBe("true");
    expect(d.description(id)).toBe(description);
  });

  it("says nothing more when all is well, and a text field is required unless told otherwise", () => {
    const d = read(<Field label="Email" name="email" type="email" autoComplete="username" />);
    const input = d.control("email") ?? "";
    expect(d.labelOf("email")).toBe("Email");
    expect(d.attr(input, "name")).toBe("email");
    expect(input).toContain('required=""');
    expect(input).not.toContain("aria-invalid=");
    expect(input).not.toContain("aria-describedby=");
    expect(d.control("v-1-gtin")).toBeUndefined();
  });

  it("keeps a description the caller names (an error shown elsewhere in a table row)", () => {
    const d = read(
      <div>
        <Field label="Par at Downtown" labelHidden name="par" id="par-1" aria-describedby="row-1-error" />
        <p id="row-1-error">Par must be a whole number.</p>
      </div>,
    );
    expect(d.html).toMatch(/<label for="par-1" class="sr-only">Par at Downtown<\/label>/);
    expect(d.description("par-1")).toBe("Par must be a whole number.");
  });

  it("is comfortable on a phone: full width, 16px text, 40px tall", () => {
    const input = read(<Field label="Name" name="name" />).control("name") ?? "";
    expect(input).toMatch(/class="[^"]*\bw-full\b/);
    expect(input).toMatch(/class="[^"]*\btext-base\b/);
    expect(input).toMatch(/class="[^"]*\bmin-h-10\b/);
  });

  it("CheckboxField is labelled by its text and described by its error", () => {
    const d = read(<CheckboxField id="ok" name="ok" label="The date is right" error="Tick the box to go on." />);
    expect(d.html).toMatch(/<label[^>]*><input[^>]*id="ok"[^>]*\/?>The date is right<\/label>/);
    expect(d.description("ok")).toBe("Tick the box to go on.");
  });

  it("ChoiceGroup names its legend and describes the group with its hint and error", () => {
    const options = [
      { value: "serialized", label: "Labelled" },
      { value: "bulk", label: "Bulk" },
    ];
    const d = read(
      <ChoiceGroup
        id="tracking"
        legend="Tracking"
        name="tracking"
        type="radio"
        options={options}
        checked={(v) => v === "bulk"}
        hint="How stock is counted."
        error="Choose how it is tracked."
      />,
    );
    expect(d.html.match(/<fieldset[^>]*aria-describedby="([^"]*)"/)?.[1]).toBe("tracking-hint tracking-error");
    expect(d.textOf("tracking-error")).toBe("Choose how it is tracked.");
    expect(d.html).toMatch(/<legend[^>]*>Tracking<\/legend>/);
    expect(d.html).toMatch(/<input type="radio" name="tracking"[^>]* checked="" value="bulk"/);
  });

  it("FieldGrid shows each field's value and error from the records it is given", () => {
    const fields = [
      { label: "Name", name: "name" },
      { label: "Scale", name: "unitScale", options: [{ value: "100", label: "0.01" }] },
    ];
    const values = { name: "Botox", unitScale: "100" };
    const d = read(
      <FieldGrid className="" idPrefix="p-" values={values} errors={{ unitScale: "Pick." }} fields={fields} />,
    );
    expect(d.attr(d.control("p-name") ?? "", "value")).toBe("Botox");
    expect(d.labelOf("p-unitScale")).toBe("Scale");
    expect(d.description("p-unitScale")).toBe("Pick.");
  });
});
