// Where a vial verb's input is parsed: once, by the verb's one schema (./forms), at the edge the
// input arrives by. The form and JSON glues parse it themselves, because they answer every field's
// message (under the field; 422 `invalid_input` with `fields`), and call `verb.parsed`, whose
// input is the schema's output type, so it cannot be handed unparsed input. A program (a seed, a
// job, a test) calls the verb itself with the input as sent: it parses with the same schema and
// refuses `invalid` with the first message. The verb's body never parses again; it checks only
// what needs the vial or the database (the units against the product's scale, the service).
import type { z } from "zod";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import type { Changed, ChangeOptions, VialAddress } from "./change.server";
import { refuse } from "./outcome";

export type { VialAddress };

type Body<I, X, T extends object> = (
  db: Database,
  actor: ScopedActor,
  input: I & X,
  options?: ChangeOptions,
) => Promise<Changed<T>>;

/** A vial verb: called with the input as sent, or through `parsed` with what its `schema` parsed. */
export type VialVerb<S extends z.ZodType<object>, X extends VialAddress, T extends object> = Body<z.input<S>, X, T> & {
  schema: S;
  parsed: Body<z.output<S>, X, T>;
};

/** The verb whose input `schema` parses, doing `parsed` with it. */
export function vialVerb<S extends z.ZodType<object>, X extends VialAddress, T extends object>(
  schema: S,
  parsed: Body<z.output<S>, X, T>,
): VialVerb<S, X, T> {
  const verb: Body<z.input<S>, X, T> = async (db, actor, sent, options) => {
    const read = schema.safeParse(sent);
    if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
    // The schema's fields as parsed, beside the address the schema does not hold.
    return parsed(db, actor, { ...sent, ...read.data } as z.output<S> & X, options);
  };
  return Object.assign(verb, { schema, parsed });
}
