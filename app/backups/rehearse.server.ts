// The restore rehearsal of a ready snapshot (or an uploaded one): its file loaded into staging
// tables (__rehearsal_<table>), every table's checksum compared on the staged copy, the ledger's
// invariants checked there, the result recorded on the backup, the staging tables dropped.
import type { Client } from "@libsql/client";
import { v7 as uuidv7 } from "uuid";
import type { Database } from "~/db/client.server";
import type { Budget } from "./budget";
import type { Manifest } from "./format";
import { abortUnlessOwned, newToken } from "./guard";
import { DamagedFile } from "./gzip";
import { checkLedger, type LedgerFindings, ledgerProblem } from "./invariants.server";
import { openSnapshot } from "./read.server";
import {
  advanceStaging,
  type CursorHome,
  createStaging,
  dropStaging,
  firstStageCursor,
  lostToAnotherRun,
  type StageCursor,
  StagedCopyDiffers,
} from "./stage.server";

export interface RehearsalRow {
  id: string;
  organizationId: string;
  r2Key: string;
  rehearsalStatus: string | null;
  cursor: Record<string, unknown> | null;
  manifest: Record<string, unknown> | null;
}

/** What the rehearsal found, kept on the backup (`rehearsal`). */
export interface RehearsalResult {
  passed: boolean;
  /** In words, for the backup screen: what was checked, or what failed. */
  message: string;
  tables?: number;
  rows?: number;
  ledger?: LedgerFindings | null;
}

/** A failure the rehearsal found: reported to the error tracker as well as recorded. */
export class RehearsalFailed extends Error {
  override name = "RehearsalFailed";
}

export async function advanceRehearsal(
  db: Database,
  files: R2Bucket,
  backup: RehearsalRow,
  budget: Budget,
  report: (error: unknown) => void,
): Promise<"progress" | "done" | "lost"> {
  const client = db.$client as Client;
  const home: CursorHome = { table: "backups", id: backup.id };
  try {
    const { manifest } = await openSnapshot(files, backup.r2Key);
    if (manifest.organizationId !== backup.organizationId)
      throw new DamagedFile("This snapshot belongs to another organization.");
    let cursor = backup.cursor as unknown as StageCursor | null;
    if (backup.rehearsalStatus === "pending" || !cursor) {
      cursor = { ...firstStageCursor(manifest), token: newToken() };
      try {
        await client.batch(
          [
            {
              sql: `UPDATE backups SET rehearsal_status = 'running', cursor = ?, manifest = coalesce(manifest, ?)
                WHERE id = ? AND status = 'ready' AND rehearsal_status IS ?`,
              args: [JSON.stringify(cursor), JSON.stringify(manifest), backup.id, backup.rehearsalStatus],
            },
            abortUnlessOwned("backups", backup.id, cursor.token as string),
            ...(await createStaging(client, "rehearsal", manifest)),
          ],
          "write",
        );
      } catch (error) {
        if (lostToAnotherRun(error)) return "lost";
        throw error;
      }
    }
    const reached = await advanceStaging(client, files, backup.r2Key, manifest, "rehearsal", home, cursor, budget);
    if (reached.phase !== "staged") return "progress";
    const ledger = await checkLedger(
      client,
      "rehearsal",
      manifest.tables.map((t) => t.name),
    );
    const problem = ledgerProblem(ledger);
    if (problem) throw new RehearsalFailed(problem, { cause: ledger });
    await finish(db, backup, manifest, {
      passed: true,
      message: `Restored into staging tables: ${manifest.tables.length} tables, ${manifest.rows} rows, every checksum equal${ledger ? ", the ledger balances" : ""}.`,
      tables: manifest.tables.length,
      rows: manifest.rows,
      ledger,
    });
    return "done";
  } catch (error) {
    if (lostToAnotherRun(error)) return "lost";
    if (!(error instanceof DamagedFile || error instanceof StagedCopyDiffers || error instanceof RehearsalFailed))
      throw error;
    report(new RehearsalFailed(`Rehearsal of backup ${backup.id} failed: ${error.message}`, { cause: error }));
    await finish(db, backup, null, {
      passed: false,
      message: error.message,
      ledger: error instanceof RehearsalFailed ? (error.cause as LedgerFindings) : undefined,
    });
    return "done";
  }
}

async function finish(db: Database, backup: RehearsalRow, manifest: Manifest | null, result: RehearsalResult) {
  const client = db.$client as Client;
  await dropStaging(client, "rehearsal");
  const now = Date.now();
  await client.batch(
    [
      {
        sql: `UPDATE backups SET rehearsal_status = ?, rehearsed_at = ?, rehearsal = ?, cursor = NULL
          WHERE id = ? AND rehearsal_status IN ('pending', 'running')`,
        args: [result.passed ? "passed" : "failed", now, JSON.stringify(result), backup.id],
      },
      {
        sql: `INSERT INTO activity_log (id, at, user_id, location_id, action, entity, entity_id, summary)
          SELECT ?, ?, NULL, NULL, 'rehearse_backup', 'backup', ?, ?
          WHERE EXISTS (SELECT 1 FROM backups WHERE id = ? AND rehearsed_at = ? AND rehearsal_status = ?)`,
        args: [
          uuidv7(),
          now,
          backup.id,
          JSON.stringify({ passed: result.passed, message: result.message, rows: manifest?.rows ?? null }),
          backup.id,
          now,
          result.passed ? "passed" : "failed",
        ],
      },
    ],
    "write",
  );
}
