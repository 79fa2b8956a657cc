// npm run bench — on the demo data, per page: the first visit's weight (gzip bytes of HTML, JS, CSS),
// database round trips and server time (scripts/bench/demo.ts). --no-build reuses build/.
import { runDemoBench } from "./bench/demo";

try {
  await runDemoBench(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
