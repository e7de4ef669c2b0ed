// Each kind's drawing and sentences, by kind; any other kind falls back to the generic view.

import * as bigManitou from "./big-manitou.js";
import * as coyote from "./coyote.js";
import * as generic from "./generic.js";
import * as manitouIsland from "./manitou-island.js";
import * as tribu from "./tribu.js";
import * as windRiver from "./wind-river.js";

const KINDS = {
  coyote,
  "big-manitou": bigManitou,
  "manitou-island": manitouIsland,
  "wind-river": windRiver,
  tribu,
};

export function kindModule(kind) {
  return Object.hasOwn(KINDS, kind) ? KINDS[kind] : generic;
}

/** The drawing of a view; a drawing that fails on an unexpected shape falls back too. */
export function drawView(kind, view, context) {
  const module = kindModule(kind);
  try {
    return module.draw(view, context);
  } catch (error) {
    console.error(`the ${kind} drawing failed; showing the state as it is`, error);
    return generic.draw(view);
  }
}
