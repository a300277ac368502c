// Card faces for the three card styles of the `table` display block, drawn with CSS and text only.
//   french: AS 10H KD, jokers BJ (大王) SJ (小王)
//   tile:   1m..9m 万, 1p..9p 筒, 1s..9s 条, 1z..7z 东南西北白发中
//   paper:  x1..x10 小字 一…十, d1..d10 大字 壹…拾 (二七十 / 贰柒拾 in red)
// "??" is a card back in every style.  To add a style, add a parser below and its CSS in style.css.

import { h } from "./dom.js";
import { lang } from "./i18n.js";

const SUIT_SYMBOL = { S: "♠", H: "♥", C: "♣", D: "♦" };
const SUIT_ZH = { S: "黑桃", H: "红桃", C: "梅花", D: "方块" };
const SUIT_EN = { S: "spades", H: "hearts", C: "clubs", D: "diamonds" };

const CN_NUM = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十"];
const CN_BIG = ["", "壹", "贰", "叁", "肆", "伍", "陆", "柒", "捌", "玖", "拾"];
const TILE_SUIT = { m: "万", p: "筒", s: "条" };
const TILE_SUIT_EN = { m: "characters", p: "dots", s: "bamboo" };
const HONOURS = ["", "东", "南", "西", "北", "白", "发", "中"];
const HONOURS_EN = ["", "East", "South", "West", "North", "White", "Green", "Red"];
const PAPER_RED = new Set([2, 7, 10]);

const FRENCH_RE = /^(10|[2-9AJQK]|T)([SHCD])$/i;
const TILE_RE = /^([0-9])([mpsz])$/;
const PAPER_RE = /^([xd])(10|[1-9])$/;

/** Describe a card string: {kind, red, label, ...}; null when it is not a card of this style. */
export function parseCard(code, style) {
  if (code === "??") return { kind: "back" };
  if (style === "french") {
    if (code === "BJ") return { kind: "joker", big: true, red: true };
    if (code === "SJ") return { kind: "joker", big: false, red: false };
    const m = FRENCH_RE.exec(code);
    if (!m) return null;
    const rank = m[1].toUpperCase() === "T" ? "10" : m[1].toUpperCase();
    const suit = m[2].toUpperCase();
    return { kind: "french", rank, suit, red: suit === "H" || suit === "D" };
  }
  if (style === "tile") {
    const m = TILE_RE.exec(code);
    if (!m) return null;
    const n = Number(m[1]);
    if (m[2] === "z") return n >= 1 && n <= 7 ? { kind: "honour", n } : null;
    return { kind: "suited", n: n === 0 ? 5 : n, suit: m[2], red5: n === 0 };
  }
  if (style === "paper") {
    const m = PAPER_RE.exec(code);
    if (!m) return null;
    const n = Number(m[2]);
    return { kind: "paper", big: m[1] === "d", n, red: PAPER_RED.has(n) };
  }
  return null;
}

export function isCard(code, style) {
  return code !== "??" && parseCard(code, style) !== null;
}

/** A name a screen reader (and a hover title) can use. */
export function cardName(code, style) {
  const c = parseCard(code, style);
  const zh = lang() === "zh";
  if (!c) return code;
  switch (c.kind) {
    case "back": return zh ? "背面" : "face down";
    case "joker": return zh ? (c.big ? "大王" : "小王") : (c.big ? "big joker" : "small joker");
    case "french": return zh ? `${SUIT_ZH[c.suit]}${c.rank}` : `${c.rank} of ${SUIT_EN[c.suit]}`;
    case "honour": return zh ? HONOURS[c.n] : HONOURS_EN[c.n];
    case "suited": return zh ? `${CN_NUM[c.n]}${TILE_SUIT[c.suit]}` : `${c.n} ${TILE_SUIT_EN[c.suit]}`;
    case "paper": return zh ? (c.big ? CN_BIG[c.n] : CN_NUM[c.n]) : `${c.big ? "big" : "small"} ${c.n}`;
    default: return code;
  }
}

/**
 * One card element.  `size` is "lg" (your hand), "md" or "sm" (others, groups, discards).
 * The card string stays in data-card so clicks and tests can find it.
 */
export function renderCard(code, style, { size = "md", extra = null } = {}) {
  const c = parseCard(code, style) ?? { kind: "unknown" };
  const base = ["card", `style-${style}`, `size-${size}`];
  if (extra) base.push(extra);
  const attrs = { dataset: { card: code }, title: cardName(code, style), "aria-label": cardName(code, style) };
  switch (c.kind) {
    case "back":
      return h("span", { ...attrs, class: [...base, "back"] });
    case "joker":
      return h("span", { ...attrs, class: [...base, "face", "joker", c.big ? "red" : "black"] },
        h("span", { class: "jk-word" }, c.big ? "大" : "小"),
        h("span", { class: "jk-word" }, "王"),
        h("span", { class: "jk-star" }, "★"));
    case "french":
      return h("span", { ...attrs, class: [...base, "face", c.red ? "red" : "black"] },
        h("span", { class: "corner" },
          h("span", { class: "rank" }, c.rank),
          h("span", { class: "suit" }, SUIT_SYMBOL[c.suit])),
        h("span", { class: "pip" }, SUIT_SYMBOL[c.suit]));
    case "suited":
      return h("span", { ...attrs, class: [...base, "face", `tile-${c.suit}`, c.red5 ? "red5" : null] },
        h("span", { class: "t-num" }, CN_NUM[c.n]),
        h("span", { class: "t-suit" }, TILE_SUIT[c.suit]));
    case "honour":
      return h("span", { ...attrs, class: [...base, "face", "honour", `honour-${c.n}`] },
        h("span", { class: "t-honour" }, HONOURS[c.n]));
    case "paper":
      return h("span", { ...attrs, class: [...base, "face", c.red ? "red" : "black", c.big ? "big" : "small"] },
        h("span", { class: "p-char" }, c.big ? CN_BIG[c.n] : CN_NUM[c.n]));
    default:
      return h("span", { ...attrs, class: [...base, "face", "unknown"] }, code);
  }
}

/** A row of cards. */
export function renderCards(codes, style, opts = {}) {
  return h("span", { class: ["cards", opts.rowClass] }, (codes || []).map((c) => renderCard(c, style, opts)));
}

/** The card strings inside an action ("play AS AS" → ["AS", "AS"]). */
export function cardsInAction(action, style) {
  return action.split(/\s+/).slice(1).filter((tok) => isCard(tok, style));
}

const TILE_SUIT_SHORT = { m: "Char", p: "Dot", s: "Bam" };

/**
 * A short inline name for a card inside text (buttons, logs, prompts), in the chosen language: A♦; 五万 or
 * 5 Char; 东 or East; 壹 or big 1.  Red where the card is red.
 */
export function cardText(code, style) {
  const c = parseCard(code, style);
  if (!c || c.kind === "back") return null;
  const zh = lang() === "zh";
  switch (c.kind) {
    case "french": return { text: `${c.rank}${SUIT_SYMBOL[c.suit]}`, red: c.red };
    case "joker": return { text: zh ? (c.big ? "大王" : "小王") : (c.big ? "Big Joker" : "Small Joker"), red: c.big };
    case "suited": return { text: zh ? `${CN_NUM[c.n]}${TILE_SUIT[c.suit]}` : `${c.n} ${TILE_SUIT_SHORT[c.suit]}`, red: c.suit === "m" };
    case "honour": return { text: zh ? HONOURS[c.n] : HONOURS_EN[c.n], red: c.n === 7 };
    case "paper": return { text: zh ? (c.big ? CN_BIG[c.n] : CN_NUM[c.n]) : `${c.big ? "big" : "small"} ${c.n}`, red: c.red };
    default: return null;
  }
}

/**
 * Text with the card strings in it drawn as inline card names ("头 AD 5S" → "头 A♦ 5♠"), so labels the
 * engine writes in card notation read naturally.  Returns a list of strings and spans for `h`.
 */
export function richText(text, style) {
  const out = [];
  for (const part of String(text).split(/(\s+|[,，、·|()（）:：])/)) {
    const card = part && cardText(part, style);
    if (card) out.push(h("span", { class: ["card-text", card.red ? "red" : null] }, card.text));
    else if (part) out.push(part);
  }
  return out;
}
