// GET /health: polled by the client every 30 s (spec section 7) and by uptime checks.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { sql } from "drizzle-orm";

const DATABASE_TIMEOUT_MS = 4_000;

export async function loader({ context }: LoaderFunctionArgs) {
  const database = await Promise.race([
    context.db.run(sql`select 1`).then(
      () => "ok" as const,
      () => "unavailable" as const,
    ),
    new Promise<"unavailable">((resolve) => setTimeout(() => resolve("unavailable"), DATABASE_TIMEOUT_MS)),
  ]);
  const ok = database === "ok";
  return Response.json(
    {
      status: ok ? "ok" : "degraded",
      database,
      version: context.env.APP_VERSION ?? "dev",
      time: new Date().toISOString(),
    },
    { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
