// What our API said when it refused a call made through the request helper: the one error shape
// `{error, code}` (and `fields`, each field's first message, for a body that did not parse), read
// back from the failed request, so a screen shows the server's words under the right field.
import { RequestError } from "~/errors/classify";

export interface ApiRefusal {
  message: string;
  /** The stable code (e.g. "not_enough_units"); null when the answer was not ours (a network failure). */
  code: string | null;
  fields: Record<string, string>;
}

export function refusalOf(error: unknown): ApiRefusal {
  if (error instanceof RequestError && error.body) {
    try {
      const body = JSON.parse(error.body) as { error?: unknown; code?: unknown; fields?: unknown };
      if (typeof body.error === "string") {
        const fields = body.fields && typeof body.fields === "object" ? (body.fields as Record<string, string>) : {};
        return { message: body.error, code: typeof body.code === "string" ? body.code : null, fields };
      }
    } catch {
      // Not JSON (a proxy's error page): the status line below says what happened.
    }
  }
  return { message: error instanceof Error ? error.message : String(error), code: null, fields: {} };
}
