// npm run bench — on the demo data, per page: the first visit's weight (gzip bytes of HTML, JS, CSS),
// database round trips and server time (scripts/bench/demo.ts).
// npm run bench -- --large [--data-dir .data-large] [--runs 30] [--out <file>] [--compare <file>]
// — on the large data set: p50/p95 server time, round trips, HTML size and every statement's query
// plan beside issue #12's budgets, written as JSON (scripts/bench/large.ts).
// npm run bench -- --backup [--data-dir .data-large] [--phases snapshot,rehearsal,restore] — the
// snapshot, rehearsal and restore through the jobs worker: time, runs, peak memory (scripts/bench/backup.ts).
// npm run bench -- --imports [--rows 500000] [--chunk-bytes N] — a generated 500,000-row Square file
// imported through the jobs worker's engine on a fresh demo database: rows/s, peak memory (scripts/bench/imports.ts).
// npm run bench -- --navigation [--as <email>] [--json <file>] — issue #25: for every screen, the bytes a
// client-side navigation receives on a throttled 400 kbps profile and its time; first-visit JavaScript
// of the sign-in page and the dashboard (scripts/bench/navigation.ts).
// Either takes --no-build to reuse build/, and --runs N for the measured requests per page (demo: 7).
import { runBackupBench } from "./bench/backup";
import { runBackupBenchInNode } from "./bench/backup-node";
import { runDemoBench } from "./bench/demo";
import { runImportsBench } from "./bench/imports";
import { runLargeBench } from "./bench/large";
import { runNavigationBench } from "./bench/navigation";

const argv = process.argv.slice(2);
try {
  if (argv.includes("--imports")) await runImportsBench(argv);
  else if (argv.includes("--navigation")) await runNavigationBench(argv);
  else if (argv.includes("--backup"))
    await (argv.includes("--in-node") ? runBackupBenchInNode(argv) : runBackupBench(argv));
  else await (argv.includes("--large") ? runLargeBench(argv) : runDemoBench(argv));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
