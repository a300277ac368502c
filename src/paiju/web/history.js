// The match's score history, hand by hand, one click away at the table (issue 12).
//
// Built from what the client already receives: every view carries the latest hand's settlement
// (`table.last_result`, with `scores` per seat) and the match `totals`; each new settlement is one row, with the
// totals as they stood right after it.  The rows are kept per table in sessionStorage, so a reload of the page
// keeps them; a person who sits down in the middle of a match sees the hands from the one before they came.

import { h, scoreClass, signed } from "./dom.js";
import { t } from "./i18n.js";
import { say } from "./names.js";
import { seatLabel } from "./board.js";

const KEY = "paiju.history.";
const MAX_ROWS = 200;

export class ScoreHistory {
  constructor(tableId) {
    this.key = KEY + tableId;
    this.rows = [];
    try { this.rows = JSON.parse(sessionStorage.getItem(this.key) || "[]"); } catch { this.rows = []; }
    if (!Array.isArray(this.rows)) this.rows = [];
  }

  /** Note the view's settlement if it is a new one; true when a row was added. */
  note(view) {
    const last = view?.table?.last_result;
    if (!last || !Array.isArray(last.scores)) return false;
    const id = JSON.stringify([last.title, last.scores, last.lines?.length ?? 0]);
    if (this.rows.some((r) => r.id === id)) return false;
    this.rows.push({ id, title: last.title, scores: last.scores.slice(), totals: (view.totals || []).slice() });
    if (this.rows.length > MAX_ROWS) this.rows.splice(0, this.rows.length - MAX_ROWS);
    try { sessionStorage.setItem(this.key, JSON.stringify(this.rows)); } catch { /* kept until reload */ }
    return true;
  }
}

/** The history as a table: a row per hand (its points, the running totals beneath), the match totals last. */
export function historyTable(rows, { n, seats, mine, totals }) {
  const cols = Array.from({ length: n }, (_, i) => i);
  return h("table", { class: "result-table history-table" },
    h("thead", {}, h("tr", {}, h("th", {}, t("hand_col")),
      cols.map((i) => h("th", { class: i === mine ? "me" : null }, seatLabel(seats, i))))),
    h("tbody", {}, rows.map((row, k) => h("tr", { dataset: { hand: String(k + 1) } },
      h("th", { class: "line-text" }, row.title ? say(row.title) : t("hand_n", { n: k + 1 })),
      cols.map((i) => h("td", { class: ["num", scoreClass(row.scores[i])] }, signed(row.scores[i] ?? 0),
        row.totals?.length ? h("span", { class: "running" }, signed(row.totals[i] ?? 0)) : null))))),
    Array.isArray(totals) ? h("tfoot", {}, h("tr", { class: "totals-row" }, h("th", {}, t("totals")),
      cols.map((i) => h("td", { class: ["num", scoreClass(totals[i])] }, signed(totals[i]))))) : null);
}

/** The history in a panel over the table; Escape, the backdrop or "close" closes it.  Returns the closer. */
export function openHistoryPanel(rows, opts) {
  document.getElementById("history-panel")?.remove();
  const close = () => { panel.remove(); document.removeEventListener("keydown", onKey, true); };
  const onKey = (e) => { if (e.key === "Escape") { e.stopPropagation(); close(); } };
  const body = rows.length ? historyTable(rows, opts) : h("p", { class: "muted", id: "history-empty" }, t("history_empty"));
  const panel = h("div", {
    class: "modal-backdrop", id: "history-panel", onclick: (e) => { if (e.target === e.currentTarget) close(); },
  }, h("div", { class: "modal history-modal", role: "dialog", "aria-modal": "true", "aria-labelledby": "history-title" },
    h("div", { class: "rules-modal-head" }, h("h2", { id: "history-title" }, t("score_history")),
      h("span", { class: "spacer" }),
      h("button", { class: "small", id: "history-close", onclick: close }, t("close"))),
    h("div", { class: "result-scroll" }, body)));
  document.body.appendChild(panel);
  document.addEventListener("keydown", onKey, true);
  panel.querySelector("#history-close").focus({ preventScroll: true });
  return close;
}
