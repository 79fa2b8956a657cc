// npm run db:migrate — applies db/migrations to DATABASE_URL (local server, file:, Turso or sqld).
import { migrateDatabase } from "./lib/database";

const url = process.env.DATABASE_URL ?? "http://127.0.0.1:8080";
await migrateDatabase(url, process.env.DATABASE_AUTH_TOKEN);
console.log(`Migrations applied to ${new URL(url).origin === "null" ? url : new URL(url).host}`);
