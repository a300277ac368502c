// Playing with friends: the room number and its share box, quick phrases shown as bubbles over the seats, the
// report button on every seat, and the series score sheet (战绩).  Phones' in-app browsers lack pop-ups and
// often the clipboard: nothing here opens a window, and every copy has a text box to long-press as fallback.

import { api, ApiError, player } from "./api.js";
import { fill, h, scoreClass, signed } from "./dom.js";
import { errorText, t, tx } from "./i18n.js";
import { botName } from "./names.js";

// ---- the room number and sharing ----------------------------------------------------------------------

/** The link and words people paste into the group chat: the game's name, the number, the link. */
export function shareText(info, gameName) {
  const q = info.invite ? `?invite=${encodeURIComponent(info.invite)}` : "";
  const url = info.number ? `${location.origin}/r/${info.number}${q}` : `${location.origin}/t/${encodeURIComponent(info.id)}${q}`;
  return { url, text: t("share_text", { game: gameName, number: info.number || info.id }) };
}

/** Copy `text`, or say it could not be copied (the caller shows the text to long-press instead). */
async function copy(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch { /* refused: fall back to the box */ }
  return false;
}

/** The room number with its share button; the share box below shows what was shared, selected, to copy by hand.
 * `ui` ({shown, status}) outlives redraws. */
export function roomNumberBox(info, gameName, ui) {
  if (!info?.number && !info?.id) return null;
  const { url, text } = shareText(info, gameName);
  const whole = `${text} ${url}`;
  const box = h("textarea", { id: "share-text", class: "share-text", readonly: true, rows: 2, hidden: !ui.shown }, whole);
  const status = h("span", { class: "muted", id: "share-status", role: "status" }, ui.status || "");
  const say = (words) => {
    ui.status = words;
    const el = document.getElementById("share-status");
    if (el) el.textContent = words;
  };
  const button = h("button", {
    class: "small primary", id: "share", type: "button",
    onclick: async () => {
      ui.shown = true;
      box.hidden = false;
      box.focus();
      box.select();
      if (navigator.share) { // the phone's own share sheet (WeChat, QQ, …) where the browser has one
        try { await navigator.share({ title: gameName, text, url }); say(""); return; } catch { /* closed or refused */ }
      }
      say((await copy(whole)) ? t("copied") : t("copy_by_hand"));
    },
  }, t("share"));
  return h("div", { class: "room-number", id: "room-number-box" },
    info.number ? h("span", { class: "room-number-label" }, t("room_number"),
      h("strong", { id: "room-number", class: "room-number-value" }, info.number)) : null,
    button, status, box);
}

/** The page `/r/<number>`: find the table and go there. */
export function showRoomByNumber(ctx, number, invite) {
  let alive = true;
  fill(ctx.main, h("div", { class: "center-page muted" }, t("connecting")));
  api.room(number, invite).then((table) => {
    if (!alive) return;
    const q = invite ? `?invite=${encodeURIComponent(invite)}` : table.invite ? `?invite=${encodeURIComponent(table.invite)}` : "";
    history.replaceState(null, "", `/t/${encodeURIComponent(table.id)}${q}`);
    ctx.navigate(`/t/${encodeURIComponent(table.id)}${q}`);
  }).catch((e) => {
    if (!alive) return;
    fill(ctx.main, h("div", { class: "center-page" },
      h("p", { id: "room-error" }, e instanceof ApiError ? errorText(e.error) : e.message),
      h("button", { class: "primary", onclick: () => ctx.navigate("/") }, t("back_to_lobby"))));
  });
  return { destroy() { alive = false; }, rerender() {} };
}

// ---- quick phrases --------------------------------------------------------------------------------------

let catalogue = null;

/** The server's phrases and whether free text is on: `{phrases: [{id, zh, en}], chat_max_length}`. */
export function phrases() {
  if (!catalogue) catalogue = api.phrases().catch(() => { catalogue = null; return { phrases: [], chat_max_length: 0 }; });
  return catalogue;
}

/** The phrase button and its panel (a seated person's); `send(msg)` sends over the table's socket. */
export function phraseBar(state, send, rerender) {
  const data = state.catalogue;
  if (!data) return null;
  const toggle = h("button", {
    class: "small", id: "phrase-toggle", type: "button", "aria-expanded": state.open ? "true" : "false",
    onclick: () => { state.open = !state.open; rerender(); },
  }, t("quick_phrases"));
  if (!state.open) return h("div", { class: "phrase-bar" }, toggle);
  const say = (msg) => { if (send(msg)) { state.open = false; rerender(); } };
  let chat = null;
  if (data.chat_max_length > 0) {
    const input = h("input", { id: "chat-text", maxlength: data.chat_max_length, placeholder: t("chat_placeholder"), autocomplete: "off" });
    chat = h("form", {
      class: "chat-form", onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) say({ type: "chat", text: input.value }); },
    }, input, h("button", { class: "small", type: "submit", id: "chat-send" }, t("send")));
  }
  return h("div", { class: "phrase-bar open" }, toggle,
    h("div", { class: "phrase-panel", id: "phrase-panel", role: "group" },
      data.phrases.map((p) => h("button", {
        class: "phrase", type: "button", dataset: { phrase: p.id }, onclick: () => say({ type: "phrase", phrase: p.id }),
      }, tx(p))), chat));
}

const BUBBLE_MS = 4000;
const LINES_KEPT = 3;

/** Each seat's last few chat lines as the server signed them ({text, at, sig}): a report may point at one. */
const heard = new Map();

/** The chat lines seat `seat` said lately, newest first. */
export function linesOf(seat) {
  return heard.get(seat) || [];
}

/** What each seat said last, shown over the seat for a few seconds (kept across redraws). */
export class Bubbles {
  constructor(onChange) {
    this.bySeat = new Map();
    this.onChange = onChange;
    this.timers = new Set();
  }

  add(msg) {
    if (msg.type === "chat" && msg.sig) {
      heard.set(msg.seat, [{ text: msg.text, at: msg.at, sig: msg.sig }, ...linesOf(msg.seat)].slice(0, LINES_KEPT));
    }
    const text = msg.type === "chat" ? msg.text : tx(msg);
    const entry = { text, chat: msg.type === "chat", until: Date.now() + BUBBLE_MS };
    this.bySeat.set(msg.seat, entry);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.bySeat.get(msg.seat) === entry) { this.bySeat.delete(msg.seat); this.onChange(); }
    }, BUBBLE_MS);
    this.timers.add(timer);
  }

  /** Put the bubbles into the drawn seats (board seats and the waiting room's rows). */
  draw(root) {
    for (const [seat, b] of this.bySeat) {
      const el = root.querySelector(`.board .seat[data-seat="${seat}"]`) || root.querySelector(`.seat-row[data-seat="${seat}"]`);
      if (el) el.appendChild(h("div", { class: ["bubble", b.chat ? "chat" : null], role: "status", dataset: { seat: String(seat) } }, b.text));
    }
  }

  reset() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.bySeat.clear();
    heard.clear();
  }
}

// ---- reports --------------------------------------------------------------------------------------------

const REASONS = ["abuse", "cheating", "afk", "nickname", "other"];

/** A report button on every seat another person holds. */
export function addReportButtons(root, seats, mine, open) {
  const me = player();
  for (const s of seats || []) {
    if (!s.player || s.seat === mine || (me && s.player.id === me.id)) continue;
    const el = root.querySelector(`.board .seat[data-seat="${s.seat}"] .seat-head`) || root.querySelector(`.seat-row[data-seat="${s.seat}"]`);
    if (!el || el.querySelector(".report-seat")) continue;
    el.appendChild(h("button", {
      class: "report-seat icon-button", type: "button", title: t("report"), "aria-label": `${t("report")}: ${s.player.nickname}`,
      dataset: { seat: String(s.seat) }, onclick: (e) => { e.stopPropagation(); open(s); },
    }, "⚑"));
  }
}

/** The report form over the page (not a browser pop-up): a reason, a few words, send. */
export function openReport(tableId, seat, invite, toast) {
  document.getElementById("report-panel")?.remove();
  let reason = REASONS[0];
  const words = h("textarea", { id: "report-words", rows: 3, maxlength: 150, placeholder: t("report_words") });
  let line = null; // the chat line the report points at, if the reporter picks one
  const lines = linesOf(seat.seat);
  const error = h("p", { class: "form-error", role: "alert", id: "report-error" });
  const close = () => panel.remove();
  const panel = h("div", { class: "modal-backdrop", id: "report-panel", onclick: (e) => { if (e.target === e.currentTarget) close(); } },
    h("form", {
      class: "modal report", role: "dialog", "aria-modal": "true", "aria-labelledby": "report-title",
      onsubmit: async (e) => {
        e.preventDefault();
        const text = `${t(`report_${reason}`)}${words.value.trim() ? `: ${words.value.trim()}` : ""}`;
        try {
          await api.report(tableId, seat.seat, text, invite, line);
          close();
          toast(t("report_sent"), "info");
        } catch (err) {
          error.textContent = err instanceof ApiError ? errorText(err.error) : err.message;
        }
      },
    },
    h("h2", { id: "report-title" }, t("report_who", { name: seat.player?.nickname || botName(seat.seat) })),
    h("fieldset", { class: "report-reasons" }, REASONS.map((r, i) => h("label", { class: "check" },
      h("input", { type: "radio", name: "reason", value: r, checked: i === 0, onchange: () => { reason = r; } }),
      h("span", {}, t(`report_${r}`))))),
    lines.length ? h("fieldset", { class: "report-lines", id: "report-lines" },
      h("legend", {}, t("report_line")),
      [null, ...lines].map((l, i) => h("label", { class: "check" },
        h("input", { type: "radio", name: "line", value: String(i), checked: i === 0, onchange: () => { line = l; } }),
        h("span", { class: l ? "quoted-line" : "muted" }, l ? `“${l.text}”` : t("report_no_line"))))) : null,
    words, error,
    h("p", { class: "muted" }, t("report_hint")),
    h("div", { class: "form-actions" },
      h("button", { type: "button", id: "report-cancel", onclick: close }, t("cancel")),
      h("button", { type: "submit", class: "primary", id: "report-send" }, t("report_send")))));
  document.body.appendChild(panel);
  panel.querySelector("input[type=radio]").focus({ preventScroll: true });
}

// ---- the series score sheet ----------------------------------------------------------------------------

function seatTitle(seat) {
  return seat.player ? seat.player.nickname : seat.bot ? botName(seat.seat) : t("empty_seat");
}

/** The sheet as a table: a row per hand and per match, the running totals at the foot. */
export function seriesTable(sheet) {
  const seats = sheet.seats || [];
  const me = player();
  const cells = (scores, strong) => seats.map((s, i) => {
    const v = scores ? scores[i] : null;
    return h(strong ? "th" : "td", { class: ["num", typeof v === "number" ? scoreClass(v) : null] }, v == null ? "–" : signed(v));
  });
  const rows = [];
  sheet.matches.forEach((m, k) => {
    for (const hand of m.hands || []) {
      rows.push(h("tr", { class: "hand-row", dataset: { table: m.table, hand: String(hand.hand) } },
        h("td", {}, t("series_hand", { k: k + 1, n: hand.hand }), hand.title ? h("span", { class: "muted" }, ` ${tx(hand.title)}`) : null),
        cells(hand.scores, false)));
    }
    rows.push(h("tr", { class: ["match-row", m.scores ? null : "unfinished"], dataset: { table: m.table } },
      h("th", {}, t("series_match", { k: k + 1 }),
        m.scores ? null : h("span", { class: "muted" }, ` · ${t(`status_${m.status}`)}`)),
      cells(m.scores, true)));
  });
  return h("table", { class: "result-table series-table", id: "series-table", dataset: { played: String(sheet.played) } },
    h("thead", {}, h("tr", {}, h("th", {}, t("series_round")),
      seats.map((s) => h("th", { class: me && s.player?.id === me.id ? "me" : null }, seatTitle(s))))),
    h("tbody", {}, rows),
    h("tfoot", {}, h("tr", { class: "totals-row" }, h("th", {}, t("series_totals", { n: sheet.played })),
      seats.map((s, i) => h("td", { class: ["num", scoreClass(sheet.totals[i])], dataset: { seat: String(i) } }, signed(sheet.totals[i]))))));
}

/** The sheet over the table page. */
export async function openSeries(tableId, invite, toast) {
  let sheet;
  try { sheet = await api.series(tableId, invite); } catch (e) { toast(e instanceof ApiError ? errorText(e.error) : e.message); return; }
  document.getElementById("series-panel")?.remove();
  const close = () => panel.remove();
  const panel = h("div", { class: "modal-backdrop", id: "series-panel", onclick: (e) => { if (e.target === e.currentTarget) close(); } },
    h("div", { class: "modal", role: "dialog", "aria-modal": "true", "aria-labelledby": "series-title" },
      h("h2", { id: "series-title" }, t("series"), sheet.number ? h("span", { class: "muted" }, t("room_n", { n: sheet.number })) : null),
      h("div", { class: "result-scroll" }, seriesTable(sheet)),
      h("div", { class: "form-actions" }, h("button", { class: "primary", id: "series-close", onclick: close }, t("close")))));
  document.body.appendChild(panel);
  panel.querySelector("#series-close").focus({ preventScroll: true });
}

/** The page `/series/<table>`, reached from the history and the replay. */
export function showSeries(ctx, tableId, invite) {
  let alive = true;
  let sheet = null;
  let error = null;
  function render() {
    if (!alive) return;
    document.title = `${t("series")} · ${t("app")}`;
    if (!sheet) { fill(ctx.main, h("div", { class: "center-page muted" }, error || t("connecting"))); return; }
    fill(ctx.main, h("div", { class: "card-panel series-page" },
      h("div", { class: "top-bar" },
        h("button", { class: "link back", onclick: () => ctx.navigate("/") }, "‹ ", t("back_to_lobby")),
        h("span", { class: "top-game" }, `${t("series")} · ${tx(sheet.display) || sheet.game}`),
        sheet.number ? h("span", { class: "muted" }, t("room_n", { n: sheet.number })) : null),
      seriesTable(sheet),
      h("p", {}, sheet.matches.filter((m) => m.status === "finished").map((m, k) => h("button", {
        class: "link replay-link", dataset: { table: m.table },
        onclick: () => ctx.navigate(`/replay/${encodeURIComponent(m.table)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`),
      }, t("series_replay", { k: k + 1 }))))));
  }
  api.series(tableId, invite).then((s) => { sheet = s; render(); })
    .catch((e) => { error = e instanceof ApiError ? errorText(e.error) : e.message; render(); });
  render();
  return { destroy() { alive = false; }, rerender: render };
}
