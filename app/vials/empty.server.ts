// Emptying an open vial: in use → empty; any units still in it are booked as WASTE (./end.server).
import { type EndAddress, endVial } from "./end.server";
import { EmptyBody } from "./forms";
import { emptyRefusal } from "./rules";
import { vialVerb } from "./verb.server";

export const emptyVial = vialVerb<typeof EmptyBody, EndAddress, object>(EmptyBody, (db, actor, input, options = {}) =>
  endVial(
    db,
    actor,
    input,
    { verb: "empty", action: "empty_vial", state: "empty", from: ["in_use"], movement: "WASTE", refusal: emptyRefusal },
    options,
  ),
);
