// The one scrubber for every error report, the workers' (toucan-js) and the browser's (Sentry's
// browser SDK): what the spec calls secrets (section 7) and patient references never leave. It
// imports nothing, so the browser can load it with the reporter.

/** Written as in the spec; matched whatever the case, with or without `_` or `-` (api_key, Patient-Ref). */
export const SCRUBBED_FIELDS = [
  "password",
  "currentPassword",
  "newPassword",
  "confirmPassword",
  "token",
  "apiKey",
  "secret",
  "patientRef",
  "patientReference",
] as const;

/** What a scrubbed value in a string (a URL's query, a form body) becomes; the name stays readable. */
export const FILTERED = "[Filtered]";

const normalized = (name: string) => name.toLowerCase().replace(/[-_]/g, "");
const SCRUBBED = new Set<string>(SCRUBBED_FIELDS.map(normalized));

/** Is this key or parameter name one whose value never leaves? (`patient_ref`, `PatientRef`, `api-key`...) */
export function isScrubbedName(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, " "));
  } catch {
    // A malformed escape: judge the name as written.
  }
  return SCRUBBED.has(normalized(decoded.trim()));
}

// `name=value` pairs wherever they stand in a string: a URL's query or fragment, a query string on
// its own, a form body sent as a string, a message quoting one. A value runs to the next `&`, `;`,
// `#`, whitespace or quote; the name must start the string or follow one of those.
const PAIR = /(^|[?&;#\s"'])([^=&;#?\s"']+)=([^&;#\s"']*)/g;

function scrubString(text: string): string {
  const trimmed = text.trim();
  // A JSON body kept as a string (request.data of a fetch breadcrumb): scrub its structure.
  if ((trimmed.startsWith("{") && trimmed.endsWith("}")) || (trimmed.startsWith("[") && trimmed.endsWith("]"))) {
    try {
      return JSON.stringify(scrubValue(JSON.parse(trimmed), new WeakMap()));
    } catch {
      // Not JSON after all: treat it as text.
    }
  }
  if (!text.includes("=")) return text;
  return text.replace(PAIR, (pair, before: string, name: string) =>
    isScrubbedName(name) ? `${before}${name}=${FILTERED}` : pair,
  );
}

function scrubValue(value: unknown, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === "string") return scrubString(value);
  if (!value || typeof value !== "object") return value;
  // Events can hold the same object twice, or a cycle: each is scrubbed once.
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const entry of value) {
      // A [name, value] pair (Sentry's query_string and headers can be lists of pairs).
      if (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === "string" && isScrubbedName(entry[0])) {
        out.push([entry[0], FILTERED]);
      } else {
        out.push(scrubValue(entry, seen));
      }
    }
    return out;
  }
  // Errors, dates and other class instances are left whole: only their plain data is reported.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [key, entry] of Object.entries(value)) {
    if (!isScrubbedName(key)) out[key] = scrubValue(entry, seen);
  }
  return out;
}

/**
 * A copy of `data` without the spec's secrets and patient references, at any depth: keys named so
 * are dropped; in strings, `name=value` pairs keep the name and lose the value; JSON kept as a
 * string is scrubbed as JSON. Used on whole Sentry events (request.url, query_string, data,
 * breadcrumbs' data, extra, contexts) and breadcrumbs.
 */
export function scrub<T>(data: T): T {
  return scrubValue(data, new WeakMap()) as T;
}
