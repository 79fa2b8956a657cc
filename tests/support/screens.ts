// Loaders and actions as the worker runs them, for integration tests: a real signed-in session
// (sign-in, signed cookie, session row), the location-choice cookie, and the requests pages send.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { saveLocationChoice } from "../../app/access/location-choice.server";
import { ORGANIZATION } from "../../app/access/permissions";
import { commitSessionCookie, getSessionUser } from "../../app/auth/session.server";
import { signIn } from "../../app/auth/sign-in.server";
import type { Database } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";

export const TEST_ENV = { SESSION_SECRET: "test-secret" } as Env;
const ORIGIN = "http://clinic.test";

/** Signs `name`@demo.clinic (or `name` when it is an email) in: the session user and the cookie a browser would send. */
export async function signedIn(db: Database, name: string, env: Env = TEST_ENV) {
  const result = await signIn(db, {
    email: name.includes("@") ? name : `${name}@demo.clinic`,
    password: DEMO_PASSWORD,
    userAgent: "vitest",
  });
  if (!result.ok) throw new Error(result.message);
  const cookie = (await commitSessionCookie(env, new Request(`${ORIGIN}/`), result.token)).split(";")[0] ?? "";
  const user = await getSessionUser(env, db, new Request(`${ORIGIN}/`, { headers: { Cookie: cookie } }));
  if (!user) throw new Error("signed out");
  return { user, cookie };
}

/** `cookie` plus the choice of where to work: a location id, organization mode, or none (the default). */
export async function withLocationChoice(cookie: string, where?: string | typeof ORGANIZATION): Promise<string> {
  if (!where) return cookie;
  const choice = await saveLocationChoice(
    where === ORGANIZATION
      ? { selectedLocationId: null, isOrganizationMode: true }
      : { selectedLocationId: where, isOrganizationMode: false },
  );
  return `${cookie}; ${choice.split(";")[0]}`;
}

export const loadContext = (db: Database, env: Env = TEST_ENV) => ({ env, db, ctx: {} }) as unknown as AppLoadContext;

export const pageRequest = (path: string, cookie: string) =>
  new Request(`${ORIGIN}${path}`, { headers: { Cookie: cookie } });

/** A form post from the app's own pages; a list value repeats its field (checkboxes). */
export function formRequest(path: string, cookie: string, form: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) {
    for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
  }
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
}

/** What a loader or action answered or threw, read the same way either way. */
export interface Outcome {
  status: number;
  /** Its data (a plain object, or `data(...)`'s). */
  data?: unknown;
  /** Where a redirect goes. */
  location?: string;
  /** The cookie it sets. */
  cookie?: string;
  /** The Response itself, when it answered one (a download, a redirect). */
  response?: Response;
}

/** Runs a loader or action and reads what it answered or threw: its status, data, redirect and cookie. */
export async function outcome(work: () => Promise<unknown>): Promise<Outcome> {
  let answer: unknown;
  try {
    answer = await work();
  } catch (thrown) {
    answer = thrown;
  }
  if (answer instanceof Response)
    return {
      status: answer.status,
      location: answer.headers.get("Location") ?? undefined,
      cookie: answer.headers.get("Set-Cookie") ?? undefined,
      response: answer,
    };
  if (answer && typeof answer === "object" && (answer as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = answer as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, data };
  }
  return { status: 200, data: answer };
}
