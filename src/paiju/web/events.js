// One log line per public event.  An event that carries `text: {zh, en}` (written by the game's display code)
// is shown as that text; otherwise a readable line is made here from the event's type and its usual fields
// (seat, cards, winner, from, ...), every seat named by its person's or bot's name.

import { renderCards, richText } from "./cards.js";
import { listOf, t, tMaybe } from "./i18n.js";
import { say, seatName } from "./names.js";

const KONG_KIND = { concealed: "ev_kong_concealed", added: "ev_kong_added" };
const TRUMP = { S: "♠", H: "♥", C: "♣", D: "♦" };

function namesOf(seat, namer) {
  if (Array.isArray(seat)) return listOf(seat.map((x) => namesOf(x, namer)));
  return typeof seat === "number" ? namer(seat) : "";
}

function cardsOf(ev) {
  const shown = [];
  for (const key of ["cards", "card", "tile", "played"]) {
    const v = ev[key];
    if (typeof v === "string") shown.push(v);
    else if (Array.isArray(v) && v.every((c) => typeof c === "string")) shown.push(...v);
    if (shown.length) break;
  }
  return shown;
}

/** The text of an event, without its cards; `namer(seat)` names the seats (the table on screen's by default). */
export function eventText(ev, namer = seatName) {
  if (ev.text) return say(ev.text, namer);
  const who = (seat) => namesOf(seat, namer);
  const type = String(ev.type || "");
  const vars = { ...ev, who: who(ev.seat ?? ev.winner ?? ev.seats ?? ev.dealer ?? ev.banker) };
  switch (type) {
    case "draw":
      return t(ev.replacement ? "ev_draw_replacement" : "ev_draw", vars);
    case "kong":
      return t(KONG_KIND[String(ev.kind || "").replace(/^kong_/, "")] || "ev_kong", vars)
        + (typeof ev.from === "number" ? t("ev_from", { who: who(ev.from) }) : "");
    case "pung": case "peng": case "chi":
      return t(`ev_${type}`, vars) + (typeof ev.from === "number" ? t("ev_from", { who: who(ev.from) }) : "");
    case "win":
      return t(ev.how === "self" ? "ev_win_self" : (ev.seats || []).length > 1 ? "ev_win_many" : "ev_win", { who: who(ev.seats) })
        + (typeof ev.from === "number" ? t("ev_from", { who: who(ev.from) }) : "");
    case "trick":
      return t("ev_trick", { who: who(ev.winner), points: ev.points ?? 0 });
    case "trump":
      return t("ev_trump", { who: who(ev.dealer), trump: TRUMP[ev.trump] || t("no_trump") });
    case "hand_start":
      return t("ev_hand_start", { ...vars, who: who(ev.dealer) });
    case "deal":
      return t("ev_deal", { ...vars, who: who(ev.banker) });
    case "answer":
      return t("ev_answer", { ...vars, target: who(ev.target) });
    case "settle": case "settlement": case "hand_end":
      return t("ev_settled");
    case "match_end": case "match_over":
      return t("ev_match_end");
    case "calls":
      return t("ev_calls") + (ev.calls || []).map((c) => `${who(c.seat)} ${c.call}`).join("，");
    case "responses":
      return t("ev_responses") + (ev.responses || []).map((c) => `${who(c.seat)} ${c.response}`).join("，");
    default: {
      const known = tMaybe(`ev_${type}`, vars);
      if (known != null) return known;
      return t("ev_other", { who: vars.who, what: type.replace(/_/g, " ") }).trim();
    }
  }
}

/** One log line: the text, then the event's cards drawn small. */
export function eventLine(ev, style, namer = seatName) {
  const text = eventText(ev, namer);
  const cards = ev.text ? [] : cardsOf(ev);
  return [richText(text, style), cards.length ? " " : null,
    cards.length ? renderCards(cards, style, { size: "xs" }) : null];
}
