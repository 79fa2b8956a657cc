// A vial's history on its page: one row per event, newest first, with who, when and what (units,
// service, provider, patient reference, reason, note, witness). Rows come formatted from the loader.
import type { ShownInstant } from "~/ui/dates";
import { Time } from "~/ui/dates";
import { CELL, DataRow, DataTable } from "~/ui/table";

export interface HistoryRow {
  id: string;
  at: ShownInstant | null;
  what: string;
  who: string;
  units: string | null;
  serviceName: string | null;
  provider: string | null;
  patientRef: string | null;
  /** When the units were used, if not when they were recorded. */
  usedAt: ShownInstant | null;
  reason: string | null;
  note: string | null;
  witnessName: string | null;
}

export function VialHistory({ rows }: { rows: readonly HistoryRow[] }) {
  return (
    <section aria-labelledby="history-title" className="flex flex-col gap-3">
      <h2 id="history-title" className="font-semibold text-lg">
        History
      </h2>
      <DataTable
        caption="History of this vial"
        columns={[{ label: "What", title: true }, { label: "When", key: true }, "Units", "Who", "Details"]}
        rowCount={rows.length}
        empty="Nothing recorded for this vial yet."
      >
        {rows.map((r) => {
          const details: [string, string | null][] = [
            ["Patient", r.patientRef],
            ["Service", r.serviceName],
            ["Provider", r.provider],
            ["Reason", r.reason],
            ["Note", r.note],
            ["Witness", r.witnessName],
          ];
          return (
            <DataRow key={r.id}>
              <td className={`${CELL} font-medium`}>{r.what}</td>
              <td className={`${CELL} whitespace-nowrap`}>
                <Time at={r.at} />
                {r.usedAt && (
                  <div className="text-slate-500 text-xs">
                    Used <Time at={r.usedAt} />
                  </div>
                )}
              </td>
              <td className={`${CELL} whitespace-nowrap tabular-nums`}>{r.units ?? "—"}</td>
              <td className={CELL}>{r.who}</td>
              <td className={`${CELL} text-slate-700`}>
                {details.some(([, value]) => value) ? (
                  <dl className="flex flex-col gap-0.5">
                    {details.map(([term, value]) =>
                      value ? (
                        <div key={term}>
                          <dt className="inline text-slate-500">{term}: </dt>
                          <dd className="inline">{value}</dd>
                        </div>
                      ) : null,
                    )}
                  </dl>
                ) : (
                  "—"
                )}
              </td>
            </DataRow>
          );
        })}
      </DataTable>
    </section>
  );
}
