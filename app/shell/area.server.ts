import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { actorHere } from "~/access/door.server";
import { type AreaPath, area } from "./areas";

/** Loader of a screen not built yet: it still checks the area's permission, like the real one will. */
export function comingSoonLoader(path: AreaPath) {
  const { permission } = area(path);
  return async (args: LoaderFunctionArgs) => {
    await actorHere(args, permission);
    return null;
  };
}
