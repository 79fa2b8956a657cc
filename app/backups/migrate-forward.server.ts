// An older snapshot's staged copy migrated forward to the live schema: the migrations newer than
// the snapshot's, bundled into the worker (migrations.generated.ts), applied to the staging tables
// by renaming every table they name to its staging name. Indexes, triggers and PRAGMAs are passed
// over: the staged copy only carries rows; the live tables' own constraints apply at the switch.
import type { SchemaVersion } from "./format";
import { MIGRATIONS } from "./migrations.generated";
import { type Copy, NEVER_BACKED_UP, PREFIX, quote } from "./tables.server";

/** The migrations to apply to a snapshot of `from` to reach `to`, or a reason it cannot be done. */
export function migrationsBetween(
  from: SchemaVersion,
  to: SchemaVersion,
): { ok: true; migrations: typeof MIGRATIONS } | { ok: false; reason: string } {
  if (from.when > to.when)
    return {
      ok: false,
      reason: `This snapshot was made by a newer version of the app (schema ${from.tag}); this one is at ${to.tag}.`,
    };
  if (!MIGRATIONS.some((m) => m.when === from.when))
    return { ok: false, reason: `This snapshot's schema (${from.tag}) is not one this version knows.` };
  return { ok: true, migrations: MIGRATIONS.filter((m) => m.when > from.when && m.when <= to.when) };
}

const SKIPPED = /^\s*(PRAGMA|CREATE\s+(UNIQUE\s+)?INDEX|DROP\s+INDEX|CREATE\s+TRIGGER|DROP\s+TRIGGER)\b/i;
const TOKEN = /"(?:[^"]|"")*"|`(?:[^`]|``)*`|'(?:[^']|'')*'|\[[^\]]*\]|[A-Za-z_][A-Za-z0-9_$]*|--[^\n]*|[\s\S]/g;

/** Every table name the migrations create or rename to, with the names already known. */
export function tableNamesOf(migrations: typeof MIGRATIONS, known: readonly string[]): Set<string> {
  const names = new Set(known);
  for (const m of migrations)
    for (const statement of m.statements)
      for (const match of statement.matchAll(/(?:CREATE\s+TABLE|RENAME\s+TO)\s+[`"[]?([A-Za-z_][A-Za-z0-9_]*)/gi))
        if (match[1]) names.add(match[1]);
  return names;
}

/** Tables a snapshot never holds (and their rebuilds): a statement naming one is passed over. */
const EXCLUDED = new Set(NEVER_BACKED_UP.flatMap((name) => [name, `__new_${name}`]));

/**
 * The statement with every table it names renamed to its staging copy, or null if passed over (an
 * index, trigger or PRAGMA; or a statement about a table snapshots never hold, like sessions).
 */
export function forStaging(statement: string, tables: Set<string>, copy: Copy): string | null {
  // A migration's statements may open with comments: what the statement is comes after them.
  if (SKIPPED.test(statement.replace(/^(\s*--[^\n]*\n)+/, ""))) return null;
  let excluded = false;
  // Staged copies carry no foreign keys (their rows are checked against the live tables' keys when
  // switched in), so a rebuilt table's keys are left out too.
  const renamed = withoutForeignKeys(statement).replace(TOKEN, (token) => {
    const first = token[0];
    let name = token;
    if (first === '"' || first === "`") name = token.slice(1, -1).replaceAll(first + first, first);
    else if (first === "[") name = token.slice(1, -1);
    else if (first === "'" || !/^[A-Za-z_]/.test(token)) return token;
    if (EXCLUDED.has(name)) excluded = true;
    return tables.has(name) ? quote(PREFIX[copy] + name) : token;
  });
  return excluded ? null : renamed;
}

const ACTIONS = String.raw`(?:\s+ON\s+(?:UPDATE|DELETE)\s+(?:NO\s+ACTION|CASCADE|SET\s+NULL|SET\s+DEFAULT|RESTRICT))*`;
const TARGET = String.raw`REFERENCES\s+(?:"[^"]+"|\x60[^\x60]+\x60|\w+)\s*\([^)]*\)${ACTIONS}`;
const TABLE_KEY = new RegExp(String.raw`,\s*(?:CONSTRAINT\s+\S+\s+)?FOREIGN\s+KEY\s*\([^)]*\)\s*${TARGET}`, "gi");
const COLUMN_KEY = new RegExp(String.raw`\s+${TARGET}`, "gi");

function withoutForeignKeys(statement: string): string {
  if (!/^\s*(--[^\n]*\n\s*)*CREATE\s+TABLE/i.test(statement)) return statement;
  return statement.replace(TABLE_KEY, "").replace(COLUMN_KEY, "");
}
