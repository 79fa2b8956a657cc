// npm run db:seed — writes the demo organization into an empty database. It refuses a database
// that is not on this machine unless told explicitly with --allow-remote.
import { isLocalDatabase, seedDemoIfEmpty } from "./lib/database";

const url = process.env.DATABASE_URL ?? "http://127.0.0.1:8080";
if (!isLocalDatabase(url) && !process.argv.includes("--allow-remote")) {
  console.error(
    `Refusing to seed demo data into ${url}: it is not a local database. ` +
      "If you really want demo users with a known password there, run again with --allow-remote.",
  );
  process.exit(1);
}
const seeded = await seedDemoIfEmpty(url, process.env.DATABASE_AUTH_TOKEN);
console.log(seeded ? "Demo data written." : "The database already has an organization; nothing written.");
