// A first game that teaches (issue 38): in a person's first solo match of each game (they alone among bots),
// a small panel under the table says what phase it is, what the buttons in front of them do, and what just
// happened, in words the room already has (the view's phase, the legal actions' labels, the log's last line).
// It can be closed for this game or for every game, it is done once that first match ends, and the rules page
// brings it back.  Kept per browser (localStorage), as the other preferences are.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "paiju.guide";

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    return saved && typeof saved === "object" ? saved : {};
  } catch {
    return {};
  }
}

function save(state) {
  try { localStorage.setItem(KEY, JSON.stringify(state)); } catch { /* kept for this page only */ }
}

/** Whether the guide shows for `game` (not finished there, not turned off). */
export function guideOn(game) {
  const st = load();
  return !st.off && !st[game];
}

/** The first match of `game` is over, or the person closed its guide. */
export function guideDone(game) {
  save({ ...load(), [game]: "done" });
}

/** Never show the guide again, in any game. */
export function guideOff() {
  save({ ...load(), off: true });
}

/** Show it again: for `game`, and no longer off everywhere (the rules page's button). */
export function guideAgain(game) {
  const st = load();
  delete st[game];
  delete st.off;
  save(st);
}

/**
 * The guide panel, or null.  `ctx`: {game, solo, phase (text), deciding, labels (what the buttons say),
 * happened (the last log line, text), finished, rerender}.
 */
export function guidePanel(ctx) {
  if (!ctx.solo || !guideOn(ctx.game)) return null;
  if (ctx.finished) {
    guideDone(ctx.game); // the first match is played: next time, no guide
    return h("div", { class: "guide card-panel", id: "guide", role: "note" },
      h("strong", {}, t("guide_title")), " ", t("guide_done"));
  }
  const lines = [
    h("p", { class: "guide-intro" }, t(`guide_intro_${ctx.game}`) === `guide_intro_${ctx.game}` ? t("guide_intro") : t(`guide_intro_${ctx.game}`)),
    ctx.phase ? h("p", { class: "guide-phase", id: "guide-phase" }, t("guide_phase", { phase: ctx.phase })) : null,
    ctx.deciding && ctx.labels.length
      ? h("p", { class: "guide-buttons", id: "guide-buttons" }, t("guide_buttons", { what: ctx.labels.slice(0, 6).join(" · ") }))
      : h("p", { class: "guide-wait", id: "guide-buttons" }, t("guide_wait")),
    ctx.happened ? h("p", { class: "guide-happened", id: "guide-happened" }, t("guide_happened", { what: ctx.happened })) : null,
    h("p", { class: "muted small-print" }, t("guide_tools")),
  ];
  return h("div", { class: "guide card-panel", id: "guide", role: "note", "aria-live": "polite" },
    h("div", { class: "guide-head" }, h("strong", {}, t("guide_title")), h("span", { class: "spacer" }),
      h("button", { class: "small", id: "guide-close", onclick: () => { guideDone(ctx.game); ctx.rerender(); } }, t("guide_close")),
      h("button", { class: "small link", id: "guide-off", onclick: () => { guideOff(); ctx.rerender(); } }, t("guide_never"))),
    lines);
}
