// The barcode input: the spec's rules (section 5) checked as the code is typed or scanned, with
// every message under the field and the stripped code offered; the server checks again on submit.
import { useRef, useState } from "react";
import { type BarcodeCheck, checkBarcode } from "~/catalog/barcode";
import { Field } from "~/ui/form";

/** Nothing typed is "required"; only spaces is "cannot be empty" (as on the server). */
export function checkTyped(value: string): BarcodeCheck {
  return checkBarcode(value === "" ? undefined : value);
}

export function BarcodeField({
  id,
  serverErrors,
  suggestion,
  defaultValue,
}: {
  id: string;
  /** The server's messages for the last submission. */
  serverErrors?: readonly string[];
  /** The code with invalid characters stripped, when the server refused the typed one. */
  suggestion?: string | null;
  defaultValue?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [live, setLive] = useState<BarcodeCheck | null>(null);
  // A new answer from the server replaces what was checked while typing.
  const [answered, setAnswered] = useState(serverErrors);
  if (answered !== serverErrors) {
    setAnswered(serverErrors);
    setLive(null);
  }
  const errors = live ? (live.valid ? [] : live.errors) : (serverErrors ?? []);
  const offer = live ? (!live.valid && live.code.length >= 4 && live.code.length <= 50 ? live.code : null) : suggestion;
  return (
    <div className="min-w-56 flex-1">
      <Field
        inputRef={input}
        id={id}
        label="Barcode"
        name="code"
        required={false}
        defaultValue={defaultValue}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        hint="Scan or type it: 4 to 50 letters, digits, hyphens or underscores."
        error={errors}
        onChange={(e) => setLive(e.target.value === "" ? { valid: true, code: "" } : checkTyped(e.target.value))}
        controlClassName="w-full font-mono uppercase"
      >
        {offer && (
          <p className="text-slate-700 text-sm">
            Suggested code: <span className="font-mono font-semibold">{offer}</span>{" "}
            <button
              type="button"
              className="text-sky-800 underline"
              onClick={() => {
                if (!input.current) return;
                input.current.value = offer;
                setLive(checkTyped(offer));
                input.current.focus();
              }}
            >
              Use {offer}
            </button>
          </p>
        )}
      </Field>
    </div>
  );
}
