// Rated or casual (issue 34): one badge, the same words on the lobby's list, at the table, in a replay and in a
// player's history, so a person learns one meaning.  The room says `rated` on every table object: "rated" (the
// match books points), "casual" (it books nothing), "open" (rated if people fill every seat; decided at the
// start).  docs/server.md, "Rated and casual".

import { h } from "./dom.js";
import { t } from "./i18n.js";

const KINDS = new Set(["rated", "casual", "open"]);

/** The room's `rated` value as one of "rated", "casual", "open"; booleans (a replay's, a history's) too. */
export function ratedKind(value) {
  if (value === true) return "rated";
  if (value === false) return "casual";
  return KINDS.has(value) ? value : null;
}

/** A small badge saying rated / casual / rated if filled by people; null when the room did not say. */
export function ratedBadge(value, id = null) {
  const kind = ratedKind(value);
  if (!kind) return null;
  return h("span", { class: ["rated-badge", kind], id, dataset: { rated: kind }, title: t(`rated_${kind}_hint`) },
    t(`rated_${kind}`));
}
