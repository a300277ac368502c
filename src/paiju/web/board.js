// Drawing a view: the seats round the board, the middle (center items, info lines, the trick), a hand's
// result table.  The live table draws with these; so can any page that shows a view (a replay), so a game
// looks the same everywhere.  Nothing here knows a particular game: the `table` display block
// (docs/architecture.md) and the optional view keys of docs/web.md are all it reads.

import { cardName, renderCard, renderCards, richText } from "./cards.js";
import { h, scoreClass, signed } from "./dom.js";
import { t } from "./i18n.js";
import { avatar } from "./avatar.js";
import { say, seatName } from "./names.js";
import { sidePoints } from "./trick.js";

export { eventLine } from "./events.js";

const BACKS_SHOWN = 8;
const CROWDED = 30; // a hand of more cards than this overlaps more, so it keeps to fewer rows

/** A seat's name, from `seats` (a table's seat list) when given, else from the table on screen. */
export function seatLabel(seats, i) {
  return seatName(i, seats);
}

export function positions(n, anchor) {
  // Relative seat r (1 = the next to act after you) → where it sits on a wide screen.
  const byCount = { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };
  const list = byCount[n];
  return (seat) => {
    const r = (seat - anchor + n) % n;
    if (list) return list[r];
    return r === 0 ? "bottom" : "top";
  };
}

/** The labels beside a seat's name: you, its role, AI or 托管 (autoplay: the bot plays for the person, who can
 * take the seat back at any moment), and 离开 (left on purpose) or 掉线 (connection lost). */
export function seatBadges(info, { role = null, isMe = false } = {}) {
  const autoplay = info?.player && info.replaced === "autoplay";
  return [
    isMe ? h("span", { class: "you-badge" }, t("you")) : null,
    role ? h("span", { class: "role" }, say(role)) : null,
    autoplay ? h("span", { class: "autoplay-badge", title: t("autoplay_hint") }, t("autoplay"))
      : info?.bot ? h("span", { class: "bot-badge", title: t("bot") }, "AI") : null,
    !autoplay && info?.bot && info.strength
      ? h("span", { class: "strength-badge", dataset: { strength: info.strength }, title: t("bot_strength") },
        t(`strength_${info.strength}`)) : null,
    info?.player && info.replaced === "left"
      ? h("span", { class: "left-badge", title: t("left_hint") }, t("left"))
      : info?.player && (info.replaced === "disconnected" || (!info.bot && info.connected === false))
        ? h("span", { class: "offline-badge", title: t("offline_hint") }, t("offline")) : null,
  ];
}

/**
 * The board for `view`.  opts: {seats (the table's seat list), mine (your seat or null), anchor (the seat drawn
 * at the bottom), deciding (Set of seats), deadlines ({seat: time}), decorate(el, card, index) for your own
 * hand's cards, drawn (the card to set apart at the right of your hand), trick (what `TrickTable.display()`
 * gives), previousTrick (for the "last trick" button), onLastTrick()}.
 */
export function drawBoard(view, opts = {}) {
  const table = view.table;
  const style = table.card_style;
  const seats = table.seats || [];
  const anchor = opts.anchor ?? opts.mine ?? 0;
  const pos = positions(seats.length, anchor);
  const order = seats.map((x, i) => i).sort((a, b) => ((a - anchor + seats.length) % seats.length) - ((b - anchor + seats.length) % seats.length));
  const trick = opts.trick || null;
  const showTrick = trick && (trick.plays.length || trick.leader != null || (view.tricks || []).length);
  return h("div", { class: ["board", `n${seats.length}`, trick ? "with-trick" : null] },
    order.map((i) => drawSeat(view, seats[i], i, style, pos(i), opts)),
    h("div", { class: "center-area" }, drawCenter(table, style), showTrick ? drawTrick(view, trick, style, pos, opts) : null));
}

// Your own hand in the order drawn: the card just drawn (`drawn`) set apart at the right.
function handOrder(hand, drawn) {
  const items = hand.map((c, k) => ({ card: c, index: k, drawn: false }));
  if (typeof drawn === "string") {
    const at = hand.lastIndexOf(drawn);
    if (at >= 0) {
      const [item] = items.splice(at, 1);
      items.push({ ...item, drawn: true });
    }
  }
  return items;
}

function drawSeat(view, seat, i, style, where, opts) {
  const isMe = i === opts.mine;
  const isDeciding = opts.deciding?.has(i);
  const total = view.totals?.[i];
  const info = opts.seats?.[i];
  const trick = opts.trick || null;
  const hand = seat.hand;
  let handEl;
  if (Array.isArray(hand)) {
    handEl = h("div", {
      class: ["hand", isMe ? "own" : "shown", style === "french" ? "overlap" : null, hand.length > CROWDED ? "crowded" : null],
      dataset: { count: hand.length },
    },
    handOrder(hand, isMe ? opts.drawn : null).map(({ card, index, drawn }) => {
      const el = renderCard(card, style, { size: isMe ? "lg" : "md", extra: drawn ? "drawn" : null });
      if (drawn) el.title = `${t("drawn_tile")}: ${cardName(card, style)}`;
      if (isMe && opts.decorate) opts.decorate(el, card, index);
      return el;
    }));
  } else {
    const n = seat.hand_count ?? 0;
    handEl = h("div", { class: "hand hidden", dataset: { count: n } },
      n ? h("span", { class: "backs" }, Array.from({ length: Math.min(n, BACKS_SHOWN) }, () => renderCard("??", style, { size: "sm" })))
        : null,
      h("span", { class: "hand-count" }, t("cards_count", { n })));
  }
  const leads = trick && trick.kind === "live" && trick.leader === i;
  const last = view.last_discard;
  const discards = trick ? [] : seat.discards || []; // in a trick game the trick shows them
  const lastAt = last && last.seat === i ? discards.lastIndexOf(last.tile ?? last.card) : -1;
  const deadline = opts.deadlines?.[String(i)];
  return h("section", {
    class: ["seat", `pos-${where}`, isMe ? "me" : null, isDeciding ? "deciding" : null,
      info && info.player && ((info.replaced && info.replaced !== "autoplay") || info.connected === false) ? "offline" : null,
      info && info.player && info.replaced === "autoplay" ? "autoplay" : null],
    dataset: { seat: i }, "aria-label": seatLabel(opts.seats, i),
  },
  h("div", { class: "seat-head" },
    info?.player ? avatar(info.player.id, 20, info.player.nickname) : null,
    h("span", { class: "seat-name" }, seatLabel(opts.seats, i)),
    seatBadges(info, { role: seat.role && say(seat.role) ? seat.role : null, isMe }),
    opts.handOver ? winningCards(view.table.last_result).filter((w) => w.seat === i).map((w) => h("span", {
      class: "won-with-chip", dataset: { card: w.card }, title: t("won_with", { name: seatLabel(opts.seats, i) }),
    }, t("won_with_short"), renderCard(w.card, style, { size: "sm", extra: "won-with" }))) : null,
    isMe && opts.onAutoplay && info?.player && (!info.replaced || info.replaced === "autoplay")
      ? h("button", { class: ["small", "autoplay-toggle", info.replaced === "autoplay" ? "on" : null], id: "autoplay",
        "aria-pressed": info.replaced === "autoplay" ? "true" : "false",
        title: t(info.replaced === "autoplay" ? "autoplay_off_hint" : "autoplay_on_hint"),
        onclick: () => opts.onAutoplay(info.replaced !== "autoplay") },
      t(info.replaced === "autoplay" ? "autoplay_off" : "autoplay_on")) : null,
    leads ? h("span", { class: "lead-badge" }, t(trick.plays.length ? "lead_badge" : "to_lead")) : null,
    isDeciding ? h("span", { class: "deciding-dot" }) : null,
    deadline ? h("span", { class: "seat-clock", dataset: { deadline: String(deadline) } }) : null,
    h("span", { class: "spacer" }),
    typeof total === "number" ? h("span", { class: ["seat-total", scoreClass(total)], title: t("total") }, signed(total)) : null),
  seat.note && say(seat.note) ? h("div", { class: "seat-note" }, richText(say(seat.note), style)) : null,
  handEl,
  (seat.groups || []).length ? h("div", { class: "groups" }, seat.groups.map((g) => h("span", { class: "group" },
    g.label ? h("span", { class: "group-label" }, say(g.label)) : null,
    renderCards(g.cards, style, { size: "sm" })))) : null,
  // French cards played out are few and matter: drawn larger than a mahjong river.
  discards.length ? h("div", { class: "discards", title: t("discards") },
    h("span", { class: "cards" }, discards.map((c, k) => {
      const el = renderCard(c, style, { size: style === "french" ? "md" : "sm", extra: k === lastAt ? "last-discard" : null });
      if (k === lastAt) el.title = `${t("last_discard")}: ${cardName(c, style)}`;
      return el;
    }))) : null,
  );
}

function drawCenter(table, style) {
  return [
    (table.center || []).map((item) => h("div", { class: "center-item" },
      item.label ? h("span", { class: "center-label" }, say(item.label)) : null,
      centerCards(item.cards || [], style))),
    (table.info || []).length ? h("ul", { class: "info-lines" }, table.info.map((line) => h("li", {}, richText(say(line), style)))) : null,
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

// The trick: each seat's play on its own side of the table, the leader and (once finished) the winner
// marked; the points each side has taken; the last finished trick one click away.
function drawTrick(view, trick, style, pos, opts) {
  const plays = new Map(trick.plays.map(([seat, cards]) => [seat, cards]));
  const n = view.table.seats?.length || 4;
  const finished = trick.kind !== "live";
  const sides = sidePoints(view);
  const name = (i) => seatLabel(opts.seats, i);
  return h("div", { class: ["trick-area", `trick-${trick.kind}`], id: "trick", dataset: { kind: trick.kind } },
    trick.kind === "last" ? h("div", { class: "trick-caption" }, t("last_trick")) : null,
    !trick.plays.length ? null : h("div", { class: "trick-grid" }, Array.from({ length: n }, (_, i) => i).map((i) => {
      const cards = plays.get(i);
      const won = finished && trick.winner === i;
      return h("div", {
        class: ["trick-slot", `slot-${pos(i)}`, won ? "winner" : null, trick.leader === i ? "leader" : null],
        dataset: { seat: i },
      },
      h("span", { class: "trick-who" }, name(i),
        trick.leader === i && cards ? h("span", { class: "lead-mark", title: t("leads") }, t("lead_badge")) : null,
        won ? h("span", { class: "win-mark" }, `★ ${t("trick_winner")}`) : null),
      cards ? renderCards(cards, style, { size: "md", rowClass: "trick-cards" }) : null);
    })),
    finished && trick.winner != null ? h("div", { class: "trick-result" },
      t("trick_won_by", { name: name(trick.winner) }), " · ", t("trick_points", { n: trick.points ?? 0 })) : null,
    h("div", { class: "trick-foot" },
      sides ? h("span", { class: "side-points", id: "side-points" }, `${t("sides_title")} · `, sides.map((side, k) => h("span", {
        class: ["side", side.attackers ? "attackers" : "defenders"], dataset: { points: side.points },
      }, k ? " · " : null, t(side.attackers ? "side_attackers" : "side_defenders",
        { names: side.seats.map(name).join("·"), n: side.points })))) : null,
      opts.onLastTrick ? h("button", {
        class: "small", id: "last-trick", disabled: !opts.previousTrick && trick.kind !== "last",
        title: opts.previousTrick ? null : t("no_last_trick"), onclick: opts.onLastTrick,
      }, trick.kind === "last" ? t("hide_last_trick") : t("last_trick")) : null));
}

/**
 * The tile or card that won a hand (issue 38), per winner: `[{seat, card}]` — 滑水's `wins[].tile` (the
 * discard won on, or the self-drawn tile; several winners of one discard each), 偎麻雀's `win.win_card` with
 * `winner`.  Empty where no single card wins (水鱼 compares hands; 升级 is won on points over many tricks).
 */
export function winningCards(last) {
  if (Array.isArray(last?.wins)) return last.wins.filter((w) => w.tile).map((w) => ({ seat: w.seat, card: w.tile }));
  if (last?.win?.win_card && typeof last.winner === "number") return [{ seat: last.winner, card: last.win.win_card }];
  return [];
}

// The winners' tiles, when the result carries them: `reveal: [{seat, cards, groups?}]` (the proposed shape),
// 滑水's `wins: [{seat, hand, melds}]` ("555m" per meld), or 偎麻雀's `win.groups` (the winning group is
// `win.win_group`).
function revealed(last) {
  if (Array.isArray(last?.reveal)) return last.reveal;
  if (Array.isArray(last?.win?.groups) && typeof last.winner === "number") {
    return [{ seat: last.winner, cards: [], groups: last.win.groups.map((g) => ({ cards: g.cards || [] })) }];
  }
  if (!Array.isArray(last?.wins)) return [];
  return last.wins.filter((w) => Array.isArray(w.hand)).map((w) => ({
    seat: w.seat, cards: w.hand,
    groups: (w.melds || []).map((m) => {
      const mm = /^(\d+)([a-z])$/.exec(String(m));
      return { cards: mm ? [...mm[1]].map((d) => d + mm[2]) : [String(m)] };
    }),
  }));
}

/** The winners' hands of a result, or null when it shows none. */
export function resultReveal(last, { seats, style }) {
  const shown = revealed(last);
  const won = winningCards(last);
  if (!shown.length && !won.length) return null;
  return h("div", { class: "result-reveal", id: "result-reveal" },
    won.length ? h("p", { class: "won-with-line", id: "won-with" }, won.map((w) => h("span", {
      class: "won-with-item", dataset: { seat: String(w.seat), card: w.card },
    }, t("won_with", { name: seatLabel(seats, w.seat) }), " ", renderCard(w.card, style, { size: "md", extra: "won-with" })))) : null,
    shown.length ? h("h3", {}, t("reveal_title")) : null,
    shown.map((r) => {
      // the winning card, once, in its winner's revealed hand: the loose tiles first, else its group
      const mark = won.find((w) => w.seat === r.seat)?.card;
      let marked = false;
      const cards = (codes, size) => h("span", { class: "cards" }, (codes || []).map((c) => {
        const hit = !marked && c === mark;
        if (hit) marked = true;
        return renderCard(c, style, { size, extra: hit ? "won-with" : null });
      }));
      const loose = cards(r.cards, "md");
      return h("div", { class: "reveal-row", dataset: { seat: r.seat } },
        h("span", { class: "reveal-name" }, seatLabel(seats, r.seat)),
        (r.groups || []).map((g) => h("span", { class: "group" }, cards(g.cards, "sm"))),
        loose);
    }));
}

/**
 * A hand's settlement (`last_result`) as a table: one line per item, a column per seat (its name and role);
 * the hand's scores, and the running totals when given.  opts: {n, seats, mine, totals, style, roles}.
 */
export function resultTable(last, { n, seats, mine, totals, style, roles = [] }) {
  const cols = Array.from({ length: n }, (_, i) => i);
  const lines = last?.lines || [];
  return h("table", { class: "result-table" },
    h("thead", {}, h("tr", {}, h("th", {}, t("item")), cols.map((i) => h("th", { class: i === mine ? "me" : null },
      seatLabel(seats, i), roles[i] && say(roles[i]) ? h("span", { class: "role small-role" }, say(roles[i])) : null)))),
    h("tbody", {}, lines.map((line) => {
      // A line that moves no points (a 息 count, a note) reads as text across the whole row.
      const pts = Array.isArray(line.points) && line.points.some((p) => typeof p === "number" && p !== 0) ? line.points : null;
      return h("tr", { class: pts ? null : "text-line" },
        h("td", { class: "line-text", colspan: pts ? null : n + 1 }, richText(say(line), style)),
        pts ? cols.map((i) => h("td", { class: ["num", scoreClass(pts[i])] }, signed(pts[i]))) : null);
    })),
    h("tfoot", {},
      Array.isArray(last?.scores) ? h("tr", {}, h("th", {}, t("scores")),
        cols.map((i) => h("td", { class: ["num", scoreClass(last.scores[i])] }, signed(last.scores[i])))) : null,
      Array.isArray(totals) ? h("tr", { class: "totals-row" }, h("th", {}, t("totals")),
        cols.map((i) => h("td", { class: ["num", scoreClass(totals[i])] }, signed(totals[i])))) : null),
  );
}
