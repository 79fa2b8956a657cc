// Emptying an open vial: in use → empty; any units still in it are booked as WASTE (./end.server).
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import type { Changed, ChangeOptions } from "./change.server";
import { type EndInput, endVial } from "./end.server";
import { emptyRefusal } from "./rules";

export function emptyVial(
  db: Database,
  actor: ScopedActor,
  input: EndInput,
  options: ChangeOptions = {},
): Promise<Changed<object>> {
  return endVial(
    db,
    actor,
    input,
    { verb: "empty", action: "empty_vial", state: "empty", from: ["in_use"], movement: "WASTE", refusal: emptyRefusal },
    options,
  );
}
