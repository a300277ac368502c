// The replay viewer ("/replay/<table id>[?step=n]"): a finished match step by step and hand by hand, every
// hand face up (the server's omniscient view of the finished game), each step's text and events, each hand's
// settlement.  Drawn with the same board as the live table (board.js).  Keys: ← → one step, Shift + ← → one
// hand, Home / End.  The address always names the step shown, so it can be shared as it is.

import { api, ApiError } from "./api.js";
import { drawBoard, eventLine, resultTable, seatLabel } from "./board.js";
import { say, useSeats } from "./names.js";
import { richText } from "./cards.js";
import { fill, h, toast } from "./dom.js";
import { ratedBadge } from "./rated.js";
import { t, tx } from "./i18n.js";

const CHUNK = 20; // views fetched per request (the server allows 40)

export function showReplay(ctx, tableId, invite, startStep) {
  const s = { index: null, step: 0, views: new Map(), loading: new Set(), error: null, openHand: null };
  let alive = true;
  useSeats(() => s.index?.table?.seats || null); // {seat:N} in the games' texts names this table's seats

  async function load() {
    try {
      s.index = await api.replay(tableId, invite);
      s.step = Math.max(0, Math.min(Number.isFinite(startStep) ? startStep : 0, s.index.total));
    } catch (e) {
      s.error = e instanceof ApiError && e.status === 409 ? t("not_finished_yet") : e.message;
      if (e instanceof ApiError && e.status === 403) s.error = t("need_invite");
    }
    await ensure(s.step);
  }

  async function ensure(n) {
    if (!s.index || s.views.has(n)) { render(); return; }
    const from = Math.floor(n / CHUNK) * CHUNK;
    const to = Math.min(from + CHUNK - 1, s.index.total);
    if (s.loading.has(from)) return;
    s.loading.add(from);
    try {
      const { views } = await api.replayViews(tableId, from, to, invite);
      for (const [k, v] of Object.entries(views)) s.views.set(Number(k), v);
    } catch (e) {
      toast(e.message);
    } finally {
      s.loading.delete(from);
    }
    if (alive) render();
  }

  function go(n) {
    if (!s.index) return;
    s.step = Math.max(0, Math.min(n, s.index.total));
    const q = new URLSearchParams(location.search);
    q.set("step", String(s.step));
    history.replaceState(null, "", `${location.pathname}?${q}`);
    ensure(s.step);
    const ahead = Math.min(s.index.total, s.step + CHUNK); // the next chunk before it is needed
    if (!s.views.has(ahead)) ensure(ahead);
  }

  function handOf(n) {
    const hands = s.index?.hands || [];
    return hands.findIndex((x) => n >= x.first - 1 && n <= x.last);
  }

  function stepHand(delta) {
    const hands = s.index.hands;
    const k = handOf(s.step);
    if (delta < 0) { // back to the start of this hand, or of the one before when already there
      const here = hands[k];
      go(here && s.step > here.first - 1 ? here.first - 1 : (hands[k - 1]?.first ?? 1) - 1);
    } else { // on to the end of this hand (its settlement), or of the next when already there
      const here = hands[k];
      go(here && s.step < here.last ? here.last : (hands[k + 1]?.last ?? s.index.total));
    }
  }

  function seatName(i) {
    return seatLabel(s.index?.table?.seats, i);
  }

  function shareUrl() {
    const q = new URLSearchParams();
    if (invite) q.set("invite", invite);
    q.set("step", String(s.step));
    return `${location.origin}/replay/${encodeURIComponent(tableId)}?${q}`;
  }

  async function share() {
    const url = shareUrl();
    try {
      await navigator.clipboard.writeText(url);
      toast(t("share_copied"), "info");
    } catch { // no clipboard (an in-app browser): the address, selected, to long-press (no pop-up either)
      s.shareUrl = url;
      render();
      const box = document.getElementById("replay-share-url");
      if (box) { box.focus(); box.select(); }
    }
  }

  function render() {
    if (!alive) return;
    if (s.error) {
      fill(ctx.main, h("div", { class: "center-page" }, h("p", {}, s.error),
        h("button", { class: "primary", onclick: () => ctx.navigate("/") }, t("back_to_lobby"))));
      return;
    }
    if (!s.index) { fill(ctx.main, h("div", { class: "center-page muted" }, t("connecting"))); return; }
    const game = tx(s.index.table.display) || s.index.table.game;
    document.title = `${t("replay_of", { game })} · ${t("app")}`;
    const view = s.views.get(s.step);
    const total = s.index.total;
    const hands = s.index.hands;
    const k = handOf(s.step);
    const step = s.step > 0 ? s.index.steps[s.step - 1] : null;
    const style = view?.table?.card_style;
    const hand = hands[k];
    const atHandEnd = hand && s.step === hand.last && hand.result;
    fill(ctx.main, h("div", { class: "table-page replay-page in-game" },
      h("div", { class: "top-bar" },
        h("button", { class: "link back", onclick: () => ctx.navigate("/") }, "‹ ", t("back_to_lobby")),
        h("span", { class: "top-game" }, t("replay_of", { game })),
        ratedBadge(s.index.table.rated, "replay-rated"), // a casual match is marked casual (issue 34)
        view?.table?.phase ? h("span", { class: "phase" }, say(view.table.phase, seatName)) : null,
        h("span", { class: "spacer" }),
        h("button", { class: "small", id: "replay-series",
          onclick: () => ctx.navigate(`/series/${encodeURIComponent(tableId)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`) },
        t("series")),
        h("button", { class: "small", id: "replay-share", onclick: share }, t("share"))),
      s.shareUrl ? h("input", { class: "share-text", id: "replay-share-url", readonly: true, value: s.shareUrl }) : null,
      view ? drawBoard(view, { seats: s.index.table.seats, mine: null, anchor: 0, deciding: new Set(view.deciding || []) })
        : h("div", { class: "board loading muted" }, t("connecting")),
      h("div", { class: "controls replay-controls", id: "replay-controls", dataset: { step: String(s.step), total: String(total) } },
        h("div", { class: "replay-buttons" },
          h("button", { class: "small", id: "replay-prev-hand", title: t("prev_hand"), disabled: s.step === 0, onclick: () => stepHand(-1) }, "◀◀"),
          h("button", { class: "small", id: "replay-prev", title: t("prev_step"), disabled: s.step === 0, onclick: () => go(s.step - 1) }, "◀"),
          h("span", { class: "replay-pos", id: "replay-pos" }, s.step === 0 ? t("start_pos") : t("step_of", { n: s.step, total }),
            hands.length ? ` · ${t("hand_of", { k: Math.max(k, 0) + 1, n: hands.length })}` : ""),
          h("button", { class: "small", id: "replay-next", title: t("next_step"), disabled: s.step === total, onclick: () => go(s.step + 1) }, "▶"),
          h("button", { class: "small", id: "replay-next-hand", title: t("next_hand"), disabled: s.step === total, onclick: () => stepHand(1) }, "▶▶")),
        h("input", { type: "range", min: "0", max: String(total), value: String(s.step), id: "replay-slider", "aria-label": t("step_of", { n: s.step, total }),
          oninput: (e) => go(Number(e.target.value)) }),
        h("div", { class: "replay-step", id: "replay-step" }, step
          ? [h("strong", {}, `${seatName(step.seat)}: `), richText(say(step, seatName) || step.action, style),
            (step.events || []).length ? h("ul", { class: "replay-events" }, step.events.map((ev) => h("li", {}, eventLine(ev, style, seatName)))) : null]
          : h("span", { class: "muted" }, t("start_pos"))),
        h("p", { class: "muted small-print" }, t("replay_keys"))),
      atHandEnd ? h("section", { class: "card-panel", id: "replay-hand-result" },
        h("h2", {}, say(hand.result.title, seatName) || t("result")),
        h("div", { class: "result-scroll" }, resultTable(hand.result, { n: s.index.table.seats.length, seats: s.index.table.seats, mine: null, totals: view?.totals, style })))
        : null,
      h("details", { class: "card-panel", id: "replay-hands", open: false },
        h("summary", {}, t("hand_results")),
        hands.map((x) => h("div", { class: "replay-hand" },
          h("button", { class: "link", dataset: { hand: String(x.hand) }, onclick: () => go(x.last) },
            x.result ? say(x.result.title, seatName) : t("hand_of", { k: x.hand, n: hands.length })),
          x.result ? resultTable(x.result, { n: s.index.table.seats.length, seats: s.index.table.seats, mine: null, style }) : null))),
    ));
  }

  function onKey(e) {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (!s.index) return;
    if (e.key === "ArrowRight") { e.preventDefault(); if (e.shiftKey) stepHand(1); else go(s.step + 1); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); if (e.shiftKey) stepHand(-1); else go(s.step - 1); }
    else if (e.key === "Home") { e.preventDefault(); go(0); }
    else if (e.key === "End") { e.preventDefault(); go(s.index.total); }
  }
  document.addEventListener("keydown", onKey);

  render();
  load();
  return {
    destroy() { alive = false; useSeats(null); document.removeEventListener("keydown", onKey); },
    rerender: render,
  };
}
