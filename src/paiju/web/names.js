// One place that names a seat, and one place that turns a game's {zh, en} text into what a person reads.
//
// A seat is named by the person in it (their nickname) or, for a bot, by the bot's name; never by a number
// counted from 0.  Texts written by the games may refer to a seat as `{seat:N}` (N counted from 0): every
// such placeholder is replaced here by that seat's name (docs/web.md, "Seats inside game texts").

import { lang, t, tx } from "./i18n.js";

// Bots' names, by seat: the same names in both languages (the English ones are their pinyin).
const BOT_NAMES = {
  zh: ["阿福", "阿禄", "阿寿", "阿喜", "阿财", "阿旺", "阿吉", "阿康"],
  en: ["Afu", "Alu", "Ashou", "Axi", "Acai", "Awang", "Aji", "Akang"],
};

let seatsOf = () => null; // the table's seats as the lobby API describes them (set by the table page)

/** The table page tells where the seats are: `fn()` returns the table info's `seats` list (or null). */
export function useSeats(fn) {
  seatsOf = fn || (() => null);
}

export function botName(i) {
  const names = BOT_NAMES[lang()] || BOT_NAMES.zh;
  return names[i % names.length] + (i >= names.length ? String(Math.floor(i / names.length) + 1) : "");
}

/** The name of seat `i` (in `seats`, a table's seat list, or the table on screen): its person's nickname, the
 * bot's name, or "empty". */
export function seatName(i, seats = null) {
  const seat = (seats || seatsOf() || [])[i];
  if (!seat) return t("seat_n", { n: Number(i) + 1 });
  if (typeof seat.name === "string" && seat.name) return seat.name; // a server that names seats itself
  if (seat.player) return seat.player.nickname;
  if (seat.bot) return botName(Number(i));
  return t("empty_seat");
}

/** Replace every `{seat:N}` in a text by that seat's name (`namer(N)`, the table on screen's by default). */
export function withSeatNames(text, namer = seatName) {
  return String(text ?? "").replace(/\{seat:(\d+)\}/g, (_m, n) => namer(Number(n)));
}

/** A game's text ({zh, en} pair, or a plain string) in the chosen language, seats named. */
export function say(pair, namer = seatName) {
  return withSeatNames(tx(pair), namer);
}
