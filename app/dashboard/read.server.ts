// The dashboard's widgets read in ONE database round trip: every widget's statements go in one
// `db.batch`. A failing statement fails the whole batch, so when it fails (and the database is
// there: an outage stops the page as everywhere), each widget's statements run again on their own,
// at once, and each widget gets its data or its own failure: the one that failed shows the section
// error, the others show. Only the failure costs more round trips.
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "~/db/client.server";
import { isDatabaseOutage } from "~/http/outage.server";

type Statement = BatchItem<"sqlite">;

/** What a tuple of statements answers, in order (a statement is a promise of its rows). */
export type Results<Q extends readonly unknown[]> = { -readonly [K in keyof Q]: Awaited<Q[K]> };

/** One widget's reads: its statements for the batch, and what it makes of their results (in order). */
export interface Widget<T> {
  statements: readonly Statement[];
  read: (results: readonly unknown[]) => T;
}

export function widget<T>(statements: readonly Statement[], read: (results: readonly unknown[]) => T): Widget<T> {
  return { statements, read };
}

/** A widget's data, or that it failed (its section shows the error; the reason went to the error report). */
export type Loaded<T> = { ok: true; data: T } | { ok: false };

type Widgets = Record<string, Widget<unknown> | null>;
/** A widget's Loaded, or null for a widget not read (distributes over `Widget<T> | null`). */
type LoadedOf<V> = V extends Widget<infer T> ? Loaded<T> : null;
export type LoadedWidgets<W extends Widgets> = { [K in keyof W]: LoadedOf<W[K]> };

async function batch(db: Database, statements: readonly Statement[]): Promise<unknown[]> {
  if (statements.length === 0) return [];
  return (await db.batch(statements as [Statement, ...Statement[]])) as unknown[];
}

function settle<T>(w: Widget<T>, results: readonly unknown[], report: (error: unknown) => void): Loaded<T> {
  try {
    return { ok: true, data: w.read(results) };
  } catch (error) {
    report(error);
    return { ok: false };
  }
}

/**
 * Reads every widget given (a null one, the reader may not see, stays null) in one batch; on a
 * failure, each on its own. A database outage is thrown, for the page's database screen.
 */
export async function readWidgets<W extends Widgets>(
  db: Database,
  widgets: W,
  report: (error: unknown) => void,
): Promise<LoadedWidgets<W>> {
  const entries = Object.entries(widgets).filter((e): e is [string, Widget<unknown>] => e[1] !== null);
  const out: Record<string, Loaded<unknown> | null> = Object.fromEntries(
    Object.keys(widgets).map((key) => [key, null]),
  );
  let results: unknown[] | null = null;
  try {
    results = await batch(
      db,
      entries.flatMap(([, w]) => w.statements),
    );
  } catch (error) {
    if (isDatabaseOutage(error)) throw error;
    report(error);
  }
  if (results) {
    let at = 0;
    for (const [key, w] of entries) {
      out[key] = settle(w, results.slice(at, at + w.statements.length), report);
      at += w.statements.length;
    }
    return out as LoadedWidgets<W>;
  }
  const alone = await Promise.all(
    entries.map(async ([key, w]) => {
      try {
        return [key, settle(w, await batch(db, w.statements), report)] as const;
      } catch (error) {
        if (isDatabaseOutage(error)) throw error;
        report(error);
        return [key, { ok: false } as const] as const;
      }
    }),
  );
  for (const [key, loaded] of alone) out[key] = loaded;
  return out as LoadedWidgets<W>;
}
