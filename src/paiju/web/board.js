// Drawing a view's `table` display block (docs/architecture.md): the seats round the board, the centre, a
// hand's result table and a log line.  The live table page and the replay viewer both draw with these, so a
// game looks the same at the table and in its replay.

import { renderCard, renderCards, richText } from "./cards.js";
import { h, scoreClass, signed } from "./dom.js";
import { eventLabel, t, tx } from "./i18n.js";

const BACKS_SHOWN = 8;

/** A seat's name from the table's seat list (the lobby's table object). */
export function seatLabel(seats, i) {
  const seat = seats?.[i];
  if (!seat) return t("seat_n", { n: i + 1 });
  if (seat.player) return seat.player.nickname;
  if (seat.bot) return t("bot_n", { n: i + 1 });
  return t("empty_seat");
}

function positions(n, anchor) {
  // Relative seat r (1 = the next to act after you) → where it sits on a wide screen.
  const byCount = { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };
  const list = byCount[n];
  return (seat) => {
    const r = (seat - anchor + n) % n;
    if (list) return list[r];
    return r === 0 ? "bottom" : "top";
  };
}

/**
 * The board for `view`.  opts: {seats (the table's seat list), mine (your seat or null), anchor (the seat drawn
 * at the bottom), deciding (Set of seats), deadlines ({seat: time}), decorate(el, card, index) for your own
 * hand's cards, handSize(i) → "lg" | "md"}.
 */
export function drawBoard(view, opts) {
  const table = view.table;
  const style = table.card_style;
  const seats = table.seats || [];
  const anchor = opts.anchor ?? opts.mine ?? 0;
  const pos = positions(seats.length, anchor);
  const order = seats.map((x, i) => i).sort((a, b) => ((a - anchor + seats.length) % seats.length) - ((b - anchor + seats.length) % seats.length));
  return h("div", { class: ["board", `n${seats.length}`] },
    order.map((i) => drawSeat(view, seats[i], i, style, pos(i), opts)),
    h("div", { class: "center-area" }, drawCenter(table, style)));
}

function drawSeat(view, seat, i, style, where, opts) {
  const isMe = i === opts.mine;
  const isDeciding = opts.deciding?.has(i);
  const total = view.totals?.[i];
  const info = opts.seats?.[i];
  const hand = seat.hand;
  let handEl;
  if (Array.isArray(hand)) {
    const size = isMe ? "lg" : "md";
    handEl = h("div", { class: ["hand", isMe ? "own" : "shown", style === "french" ? "overlap" : null], dataset: { count: hand.length } },
      hand.map((c, k) => {
        const el = renderCard(c, style, { size });
        if (isMe && opts.decorate) opts.decorate(el, c, k);
        return el;
      }));
  } else {
    const n = seat.hand_count ?? 0;
    handEl = h("div", { class: "hand hidden", dataset: { count: n } },
      n ? h("span", { class: "backs" }, Array.from({ length: Math.min(n, BACKS_SHOWN) }, () => renderCard("??", style, { size: "sm" })))
        : null,
      h("span", { class: "hand-count" }, t("cards_count", { n })));
  }
  const deadline = opts.deadlines?.[String(i)];
  return h("section", {
    class: ["seat", `pos-${where}`, isMe ? "me" : null, isDeciding ? "deciding" : null,
      info && info.connected === false && info.player ? "offline" : null],
    dataset: { seat: i }, "aria-label": seatLabel(opts.seats, i),
  },
  h("div", { class: "seat-head" },
    h("span", { class: "seat-name" }, seatLabel(opts.seats, i)),
    isMe ? h("span", { class: "you-badge" }, t("you")) : null,
    seat.role ? h("span", { class: "role" }, tx(seat.role)) : null,
    info?.bot ? h("span", { class: "bot-badge", title: t("bot") }, "AI") : null,
    info && info.player && info.connected === false ? h("span", { class: "offline-badge" }, t("offline")) : null,
    isDeciding ? h("span", { class: "deciding-dot" }) : null,
    deadline ? h("span", { class: "seat-clock", dataset: { deadline: String(deadline) } }) : null,
    h("span", { class: "spacer" }),
    typeof total === "number" ? h("span", { class: ["seat-total", scoreClass(total)], title: t("total") }, signed(total)) : null),
  seat.note ? h("div", { class: "seat-note" }, tx(seat.note)) : null,
  handEl,
  (seat.groups || []).length ? h("div", { class: "groups" }, seat.groups.map((g) => h("span", { class: "group" },
    g.label ? h("span", { class: "group-label" }, tx(g.label)) : null,
    renderCards(g.cards, style, { size: "sm" })))) : null,
  // French cards played out are few and matter (升级's trick): drawn larger than a mahjong river.
  (seat.discards || []).length ? h("div", { class: "discards", title: t("discards") },
    renderCards(seat.discards, style, { size: style === "french" ? "md" : "sm" })) : null,
  );
}

function drawCenter(table, style) {
  return [
    (table.center || []).map((item) => h("div", { class: "center-item" },
      item.label ? h("span", { class: "center-label" }, tx(item.label)) : null,
      centerCards(item.cards || [], style))),
    (table.info || []).length ? h("ul", { class: "info-lines" }, table.info.map((line) => h("li", {}, tx(line)))) : null,
  ];
}

function centerCards(cards, style) {
  if (!cards.length) return null;
  // A long face-down pile (a kitty, a wall) is a short stack and a count, not a row of backs.
  if (cards.length > BACKS_SHOWN && cards.every((c) => c === "??")) {
    return h("span", { class: "hand hidden center-pile", dataset: { count: cards.length } },
      h("span", { class: "backs" }, Array.from({ length: BACKS_SHOWN }, () => renderCard("??", style, { size: "sm" }))),
      h("span", { class: "hand-count" }, t("cards_count", { n: cards.length })));
  }
  return renderCards(cards, style, { size: "md" });
}

/** A hand's settlement (`last_result`) as a table: one line per item, a column per seat; totals when given. */
export function resultTable(last, { n, seats, mine, totals, style }) {
  const cols = Array.from({ length: n }, (_, i) => i);
  const lines = last?.lines || [];
  return h("table", { class: "result-table" },
    h("thead", {}, h("tr", {}, h("th", {}, t("item")), cols.map((i) => h("th", { class: i === mine ? "me" : null }, seatLabel(seats, i))))),
    h("tbody", {}, lines.map((line) => {
      // A line that moves no points (a 息 count, a note) reads as text across the whole row.
      const pts = Array.isArray(line.points) && line.points.some((p) => typeof p === "number" && p !== 0) ? line.points : null;
      return h("tr", { class: pts ? null : "text-line" },
        h("td", { class: "line-text", colspan: pts ? null : n + 1 }, richText(tx(line), style)),
        pts ? cols.map((i) => h("td", { class: ["num", scoreClass(pts[i])] }, signed(pts[i]))) : null);
    })),
    h("tfoot", {},
      Array.isArray(last?.scores) ? h("tr", {}, h("th", {}, t("scores")),
        cols.map((i) => h("td", { class: ["num", scoreClass(last.scores[i])] }, signed(last.scores[i])))) : null,
      Array.isArray(totals) ? h("tr", { class: "totals-row" }, h("th", {}, t("totals")),
        cols.map((i) => h("td", { class: ["num", scoreClass(totals[i])] }, signed(totals[i])))) : null),
  );
}

/** One event as a log line: who, what, and the cards it names. */
export function eventLine(ev, style, seatName) {
  if (ev.text) return tx(ev.text);
  const who = typeof ev.seat === "number" ? `${seatName(ev.seat)}: ` : "";
  const what = ev.label ? tx(ev.label) : ev.action ?? eventLabel(ev.type);
  const shown = [ev.cards, ev.card, ev.tile].flat().filter((c) => typeof c === "string");
  const cards = shown.length ? renderCards(shown, style, { size: "xs" }) : null;
  return [who, richText(String(what ?? ""), style), " ", cards];
}
