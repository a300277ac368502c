// A table: the waiting room before the start, then the game drawn from the view's `table` display block.
// Nothing here knows a particular game: seats, hands, groups, discards, center items, info lines,
// selections and results all come from the block described in docs/architecture.md.

import { api, ApiError, player, wsUrl } from "./api.js";
import { drawBoard, eventLine, resultTable, seatLabel } from "./board.js";
import { cardsInAction, richText } from "./cards.js";
import { fill, h, scoreClass, signed } from "./dom.js";
import { t, tx, verbLabel } from "./i18n.js";

const MAX_LOG = 80;
const CARD_BUTTONS_MAX = 3; // card-clickable actions also get buttons when there are this few

export function showTable(ctx, tableId, invite) {
  const me = player();
  const s = {
    info: null, // the table as the lobby API describes it: seats, status, config, invite
    view: null,
    legal: [],
    deadline: null,
    seq: null,
    logSeq: null, // the seq up to which the log holds every event
    seat: undefined, // our seat as the server last said (null: spectator)
    deadlines: {}, // public deadlines of the seats on turn
    selection: new Set(), // indexes into your hand
    hintIndex: 0,
    resultKey: null, // the last_result already shown
    resultOpen: false,
    finalShown: false,
    log: [],
    conn: "connecting",
    notFound: false,
    clockOffset: 0, // server time − local time, seconds
  };
  let alive = true;
  let ws = null;
  let retry = 0;
  let retryTimer = null;
  let pingSent = 0;
  const tick = setInterval(updateCountdown, 250);

  // ---- data ------------------------------------------------------------------------------------
  async function loadInfo() {
    try {
      s.info = await api.table(tableId, invite);
      render();
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) { ctx.sessionExpired(); return false; }
      if (e instanceof ApiError && (e.status === 404 || e.status === 403)) {
        s.notFound = true;
        s.closeReason = e.status === 403 ? t("need_invite") : null;
        render();
        return false;
      }
      ctx.toast(e.message);
    }
    return true;
  }

  function mySeat() {
    if (s.seat !== undefined && s.view) return s.seat; // what the server says our viewer is
    if (s.view && typeof s.view.viewer === "number" && s.view.viewer >= 0) return s.view.viewer;
    const seats = s.info?.seats || [];
    const mine = seats.find((x) => x.player && me && x.player.id === me.id && x.replaced !== "left");
    return mine ? mine.seat : null;
  }

  function seatName(i) {
    return seatLabel(s.info?.seats, i);
  }

  // ---- the websocket ---------------------------------------------------------------------------
  function connect() {
    if (!alive || s.notFound) return;
    s.conn = s.seq == null ? "connecting" : "reconnecting";
    renderConn();
    ws = new WebSocket(wsUrl(tableId, invite));
    ws.onopen = () => {
      retry = 0;
      s.conn = "open";
      renderConn();
      pingSent = Date.now() / 1000;
      send({ type: "ping" });
      if (s.seq != null) send({ type: "resume", since: s.seq });
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      onMessage(msg);
    };
    ws.onclose = (e) => {
      ws = null;
      if (!alive) return;
      if (e.code === 4404 || e.code === 4403) { s.notFound = true; s.closeReason = e.reason; render(); return; }
      if (s.notFound) return;
      if (s.conn === "connecting" && retry >= 3) loadInfo(); // never got in: is the table still there?
      s.conn = "reconnecting";
      renderConn();
      const delay = Math.min(5000, 400 * 2 ** retry);
      retry += 1;
      retryTimer = setTimeout(connect, delay);
    };
  }

  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(msg));
      return true;
    }
    ctx.toast(t("reconnecting"));
    return false;
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "snapshot":
        if (msg.table) s.info = msg.table;
        // A first snapshot, or one from before what we hold (a restart rebuilt the table): start the log anew.
        // Otherwise keep it: the `resume` sent on reconnecting brings the events missed in between.
        if (s.seq == null || msg.seq < (s.logSeq ?? 0)) {
          s.log = [];
          s.logSeq = msg.seq;
        }
        s.seq = msg.seq ?? s.seq;
        setView(msg);
        render();
        break;
      case "update":
        if (msg.since != null) { // the answer to a resume: every event after `since`
          if (msg.since === s.logSeq) pushLog(msg.events);
          s.logSeq = Math.max(s.logSeq ?? 0, msg.seq);
          s.seq = Math.max(s.seq ?? 0, msg.seq);
          setView(msg);
          render();
          break;
        }
        if (s.seq != null && msg.seq <= s.seq) return; // already have it
        if (s.seq != null && msg.seq > s.seq + 1) {
          send({ type: "resume", since: s.seq }); // a gap: ask for what we missed
          return;
        }
        if (s.logSeq == null || msg.seq === s.logSeq + 1) pushLog(msg.events);
        s.logSeq = msg.seq;
        s.seq = msg.seq;
        setView(msg);
        render();
        break;
      case "table":
        s.info = msg.table;
        render();
        break;
      case "rematch": // who asked for the next match; once everyone has, it has started: go there
        s.rematch = msg;
        if (msg.next && msg.confirmed.includes(mySeat())) ctx.navigate(`/t/${encodeURIComponent(msg.next)}`);
        else render();
        break;
      case "error":
        ctx.toast(errorText(msg));
        render(); // the refused choice can be made again
        break;
      case "pong":
        if (typeof msg.time === "number" && pingSent) {
          const now = Date.now() / 1000;
          s.clockOffset = msg.time - (pingSent + now) / 2;
        }
        break;
      default:
        break;
    }
  }

  function pushLog(events) {
    for (const ev of events || []) s.log.push(ev);
    if (s.log.length > MAX_LOG) s.log.splice(0, s.log.length - MAX_LOG);
  }

  function myHand() {
    const seat = mySeat();
    return seat == null ? null : s.view?.table?.seats?.[seat]?.hand ?? null;
  }

  function setView(msg) {
    if ("seat" in msg) s.seat = msg.seat;
    s.deadlines = msg.deadlines || {};
    const before = JSON.stringify([s.legal, myHand()]);
    if ("view" in msg) s.view = msg.view;
    s.legal = msg.legal || [];
    s.deadline = msg.deadline ?? null;
    if (JSON.stringify([s.legal, myHand()]) !== before) { // a new decision or a changed hand: start afresh
      s.selection.clear();
      s.hintIndex = 0;
    }
    const last = s.view?.table?.last_result;
    const key = last ? JSON.stringify(last) : null;
    if (key && key !== s.resultKey) {
      if (s.resultKey !== null || s.log.length || msg.type === "update") s.resultOpen = true;
      s.resultKey = key;
    }
    if (s.view?.finished && !s.finalShown) {
      s.finalShown = true;
      s.resultOpen = true;
    }
  }

  function errorText(msg) {
    const key = `err_${msg.code}`;
    const label = t(key) === key ? t("err_generic") : t(key);
    return msg.message ? `${label}: ${msg.message}` : label;
  }

  function act(action) {
    if (send({ type: "act", action })) {
      // Until the server answers, keep the same choice from being sent twice.
      for (const b of ctx.main.querySelectorAll("#controls button, .seat.me .hand .card")) b.classList.add("pending");
    }
  }

  // ---- lobby actions at the table ------------------------------------------------------------------
  async function lobbyCall(fn) {
    try {
      const out = await fn();
      if (out && out.seats) s.info = out;
      else await loadInfo();
      render();
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) { ctx.sessionExpired(); return; }
      ctx.toast(e.message);
    }
  }

  // ---- drawing ---------------------------------------------------------------------------------
  function render() {
    if (!alive) return;
    if (s.notFound) {
      fill(ctx.main, h("div", { class: "center-page" },
        h("p", {}, s.closeReason || t("not_found")),
        h("button", { class: "primary", onclick: () => ctx.navigate("/") }, t("back_to_lobby"))));
      return;
    }
    const playing = s.view && s.view.table;
    const focused = focusKey(document.activeElement);
    fill(ctx.main, h("div", { class: ["table-page", playing ? "in-game" : "waiting"] },
      renderTopBar(),
      playing ? renderGame() : renderWaiting(),
    ));
    renderResult();
    updateCountdown();
    if (focused && !document.getElementById("result-panel")) {
      const again = ctx.main.querySelector(focused);
      if (again) again.focus({ preventScroll: true });
    }
    // A background tab shows in its title that the table waits for you.
    const gameTitle = gameName() || t("table");
    document.title = `${s.legal.length ? `● ${t("your_turn")} · ` : ""}${gameTitle} · ${t("app")}`;
  }

  // Redrawing replaces the elements: keep the keyboard focus on the same card or button.
  function focusKey(el) {
    if (!el || !ctx.main.contains(el)) return null;
    if (el.dataset?.index != null) return `.seat.me .hand .card[data-index="${el.dataset.index}"]`;
    if (el.dataset?.action) return `[data-action="${CSS.escape(el.dataset.action)}"]`;
    if (el.id) return `#${CSS.escape(el.id)}`;
    return null;
  }

  function renderTopBar() {
    const phase = s.view?.table?.phase;
    return h("div", { class: "top-bar" },
      h("button", { class: "link back", onclick: () => ctx.navigate("/") }, "‹ ", t("back_to_lobby")),
      h("span", { class: "top-game" }, gameName()),
      phase ? h("span", { class: "phase", id: "phase" }, tx(phase)) : null,
      h("span", { class: "spacer" }),
      h("span", { class: "conn", id: "conn" }),
      s.info?.status === "finished"
        ? h("button", { class: "small", id: "top-replay", onclick: () => ctx.navigate(replayPath()) }, t("replay"))
        : null,
      s.view && s.info?.status === "playing" && mySeat() != null
        ? h("button", {
          class: "small", id: "leave-game", title: t("leave_game_hint"),
          onclick: () => { if (window.confirm(t("leave_game_confirm"))) lobbyCall(() => api.leave(tableId)); },
        }, t("leave"))
        : null,
    );
  }

  function gameName() {
    const d = s.info?.display;
    return d ? tx(d) : (s.info?.game || s.view?.game || "");
  }

  function renderConn() {
    const el = document.getElementById("conn");
    if (!el) return;
    el.className = `conn ${s.conn}`;
    el.textContent = s.conn === "open" ? "" : t(s.conn === "connecting" ? "connecting" : "reconnecting");
  }

  function renderWaiting() {
    const seats = s.info?.seats || [];
    const mine = mySeat();
    const full = seats.length > 0 && seats.every((x) => x.player || x.bot);
    const inviteUrl = s.info?.invite ? `${location.origin}/t/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(s.info.invite)}` : null;
    const status = s.info?.status || "waiting";
    return h("div", { class: "card-panel waiting-room" },
      h("h2", {}, t("waiting_room"), h("span", { class: "muted" }, ` #${tableId}`)),
      h("ul", { class: "seat-list" }, seats.map((x) => h("li", { class: "seat-row", dataset: { seat: x.seat } },
        h("span", { class: "seat-no" }, t("seat_n", { n: x.seat + 1 })),
        h("span", { class: ["seat-who", x.player ? "person" : x.bot ? "bot" : "empty"] },
          x.player ? x.player.nickname : x.bot ? t("bot") : t("empty_seat"),
          x.seat === mine ? h("span", { class: "you-badge" }, t("you")) : null,
          x.player && x.bot ? h("span", { class: "bot-badge" }, "AI") : null),
        status !== "waiting" ? null
          : x.seat === mine ? h("button", { class: "small", onclick: () => lobbyCall(() => api.leave(tableId)) }, t("leave"))
            : x.bot ? h("button", { class: "small remove-bot", title: t("remove_bot"), "aria-label": t("remove_bot"),
              onclick: () => lobbyCall(() => api.removeBot(tableId, x.seat)) }, "×")
              : !x.player ? h("button", { class: "small primary sit", onclick: () => lobbyCall(() => api.sit(tableId, x.seat, invite)) },
                mine == null ? t("sit") : t("move_here"))
                : null))),
      inviteUrl ? h("div", { class: "invite" },
        h("span", {}, t("invite_link")),
        h("input", { readonly: true, value: inviteUrl, onclick: (e) => e.target.select() }),
        h("button", {
          class: "small", onclick: async (e) => {
            try { await navigator.clipboard.writeText(inviteUrl); e.target.textContent = t("copied"); } catch { /* select it instead */ }
          },
        }, t("copy"))) : null,
      status === "waiting" ? h("div", { class: "form-actions" },
        h("button", { id: "fill-bots", disabled: full, onclick: () => lobbyCall(() => api.fillBots(tableId)) }, t("fill_bots")),
        h("button", { id: "start", class: "primary", disabled: !full, title: full ? null : t("need_full"),
          onclick: () => lobbyCall(() => api.start(tableId)) }, t("start"))) : h("p", { class: "muted" }, t(`status_${status}`)),
    );
  }

  function renderGame() {
    const table = s.view.table;
    const style = table.card_style;
    const mine = mySeat();
    const controls = classify(table, mine);
    const board = drawBoard(s.view, {
      seats: s.info?.seats, mine, deciding: new Set(s.view.deciding || []), deadlines: s.deadlines,
      decorate: (el, card, k) => decorateHandCard(el, card, k, controls),
    });
    return [
      board,
      renderControls(table, style, controls, mine),
      renderScoreboard(),
      renderLog(style),
    ];
  }

  // Which legal actions go where: card taps, the selection, or buttons.
  function classify(table, mine) {
    const style = table.card_style;
    const hand = mine != null ? table.seats?.[mine]?.hand || [] : [];
    const select = table.select && s.legal.length ? table.select : null;
    const out = { select, byCard: new Map(), buttons: [], selectActions: [], tapVerb: null };
    const inHand = new Set(hand);
    const singles = new Map(); // verb -> [{entry, card}]
    for (const entry of s.legal) {
      const verb = entry.action.split(/\s+/)[0];
      const cards = cardsInAction(entry.action, style);
      if (select && verb === select.verb) { out.selectActions.push(entry); continue; }
      if (cards.length === 1 && entry.action.split(/\s+/).length === 2 && inHand.has(cards[0])) {
        if (!singles.has(verb)) singles.set(verb, []);
        singles.get(verb).push({ entry, card: cards[0] });
      }
    }
    // The verb with the most one-card actions (at least two: one "pung 5m" in a claim window is a button,
    // not a trap in your hand) is played by tapping a card; the rest stay buttons.
    let best = null;
    if (!select) {
      for (const [verb, list] of singles) {
        if (list.length >= 2 && (!best || list.length > singles.get(best).length)) best = verb;
      }
    }
    out.tapVerb = best;
    const tapped = new Set();
    if (best) for (const { entry, card } of singles.get(best)) { out.byCard.set(card, entry); tapped.add(entry.action); }
    for (const entry of s.legal) {
      if (select && entry.action.split(/\s+/)[0] === select.verb) continue;
      if (tapped.has(entry.action) && tapped.size > CARD_BUTTONS_MAX) continue;
      out.buttons.push(entry);
    }
    return out;
  }

  function decorateHandCard(el, card, index, controls) {
    el.dataset.index = String(index);
    if (controls.select) {
      el.classList.add("selectable");
      if (s.selection.has(index)) el.classList.add("selected");
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
      el.setAttribute("aria-pressed", s.selection.has(index) ? "true" : "false");
      const toggle = () => {
        if (s.selection.has(index)) s.selection.delete(index);
        else s.selection.add(index);
        render();
      };
      el.addEventListener("click", toggle);
      el.addEventListener("keydown", (e) => { if (e.key === " ") { e.preventDefault(); toggle(); } });
      return;
    }
    const entry = controls.byCard.get(card);
    if (entry) {
      el.classList.add("playable");
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
      el.dataset.action = entry.action;
      el.title = tx(entry);
      el.addEventListener("click", () => act(entry.action));
      el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(entry.action); } });
    } else if (controls.tapVerb) {
      el.classList.add("unplayable");
    }
  }

  function selectedCards(hand) {
    return [...s.selection].sort((a, b) => a - b).map((k) => hand[k]).filter((c) => c != null);
  }

  function selectionAction(table, mine, controls) {
    const hand = table.seats?.[mine]?.hand || [];
    const cards = selectedCards(hand);
    const key = [...cards].sort().join(" ");
    const style = table.card_style;
    const match = controls.selectActions.find((e) => [...cardsInAction(e.action, style)].sort().join(" ") === key);
    return { cards, action: match ? match.action : `${controls.select.verb} ${cards.join(" ")}`, known: !!match };
  }

  function renderControls(table, style, controls, mine) {
    const mineDecides = s.legal.length > 0;
    const deciders = (s.view.deciding || []).filter((i) => i !== mine);
    let status;
    if (mineDecides) status = h("span", { class: "turn-now" }, t("your_turn"));
    else if (s.view.finished) status = h("span", {}, t("match_over"));
    else if (deciders.length) status = h("span", { class: "muted" }, t("waiting_for", { names: deciders.map(seatName).join("、") }));
    else status = h("span", { class: "muted" }, mine == null ? t("spectating") : t("waiting_others"));

    const parts = [];
    if (controls.select && mine != null) {
      const sel = controls.select;
      const hand = table.seats?.[mine]?.hand || [];
      const { cards, known } = selectionAction(table, mine, controls);
      const okCount = cards.length >= (sel.min ?? 1) && cards.length <= (sel.max ?? hand.length);
      parts.push(h("div", { class: "select-bar" },
        h("span", { class: "select-hint muted" }, sel.min === sel.max
          ? t("select_hint_exact", { n: sel.min }) : t("select_hint", { min: sel.min ?? 1, max: sel.max ?? hand.length })),
        h("span", { class: "select-count", id: "select-count" }, t("selected_n", { n: cards.length })),
        h("button", { class: "small", id: "select-clear", disabled: !cards.length, onclick: () => { s.selection.clear(); render(); } }, t("clear")),
        controls.selectActions.length ? h("button", { class: "small", id: "select-hint", onclick: () => hint(table, mine, controls) }, t("hint")) : null,
        h("button", {
          class: ["primary", known ? "known" : null], id: "select-send", disabled: !okCount,
          onclick: () => act(selectionAction(table, mine, controls).action),
        }, `${t("send")} · ${verbLabel(sel.verb)}`)));
    } else if (controls.tapVerb && controls.byCard.size) {
      parts.push(h("div", { class: "select-bar" }, h("span", { class: "select-hint muted" }, t("tap_to_play"))));
    }
    const many = controls.buttons.length > 12;
    parts.push(h("div", { class: ["actions", many ? "many" : null], role: "group" },
      controls.buttons.map((entry, k) => h("button", {
        class: ["action", k === 0 && !many ? "first" : null], dataset: { action: entry.action },
        title: entry.action, onclick: () => act(entry.action),
      }, k < 9 ? h("kbd", {}, String(k + 1)) : null, richText(tx(entry) || entry.action, style)))));

    return h("div", {
      class: ["controls", mineDecides ? "active" : null], id: "controls",
      // The state a script (or a test) needs to act like a person: what is legal and which update this is.
      dataset: {
        legal: JSON.stringify(s.legal.map((e) => e.action)), seq: String(s.seq ?? ""),
        select: controls.select ? JSON.stringify(controls.select) : "",
      },
    },
    h("div", { class: "controls-status" }, status,
      h("span", { class: "spacer" }),
      h("span", { class: "countdown", id: "countdown" })),
    h("div", { class: "deadline-bar" }, h("span", { id: "deadline-fill" })),
    mineDecides ? parts : null,
    s.info?.seats && s.view.table.last_result && !s.resultOpen
      ? h("button", { class: "link result-again", id: "show-result", onclick: () => { s.resultOpen = true; renderResult(); } }, t("last_result"))
      : null);
  }

  function hint(table, mine, controls) {
    const hand = table.seats?.[mine]?.hand || [];
    const list = controls.selectActions;
    if (!list.length) return;
    const entry = list[s.hintIndex % list.length];
    s.hintIndex += 1;
    s.selection.clear();
    const used = new Set();
    for (const c of cardsInAction(entry.action, table.card_style)) {
      const k = hand.findIndex((x, idx) => x === c && !used.has(idx));
      if (k >= 0) { used.add(k); s.selection.add(k); }
    }
    render();
  }

  function renderScoreboard() {
    const totals = s.view.totals || [];
    if (!totals.length) return null;
    return h("div", { class: "scoreboard", id: "scoreboard" },
      h("span", { class: "scoreboard-title" }, t("totals")),
      totals.map((v, i) => h("span", { class: "score-cell" },
        h("span", { class: "score-name" }, seatName(i)),
        h("span", { class: ["score-value", scoreClass(v)] }, signed(v)))));
  }

  function renderLog(style) {
    if (!s.log.length) return null;
    const lines = s.log.slice(-30).reverse().map((ev) => h("li", {}, eventLine(ev, style, seatName)));
    return h("details", { class: "log" }, h("summary", {}, t("log")), h("ol", {}, lines));
  }

  // ---- the result panel ---------------------------------------------------------------------------
  function renderResult() {
    document.getElementById("result-panel")?.remove();
    const last = s.view?.table?.last_result;
    if (!s.resultOpen || (!last && !s.view?.finished)) return;
    const n = s.view.table.seats?.length || (last?.scores?.length ?? 0);
    const close = () => { s.resultOpen = false; document.getElementById("result-panel")?.remove(); render(); };
    const final = s.view.finished;
    const table = last ? resultTable(last, {
      n, seats: s.info?.seats, mine: mySeat(), totals: s.view.totals, style: s.view.table.card_style,
    }) : null;
    const panel = h("div", { class: "modal-backdrop", id: "result-panel", onclick: (e) => { if (e.target === e.currentTarget) close(); } },
      h("div", { class: "modal result", role: "dialog", "aria-modal": "true", "aria-labelledby": "result-title" },
        h("h2", { id: "result-title" }, final ? t("match_over") : t("result"),
          last?.title ? h("span", { class: "result-title" }, tx(last.title)) : null),
        h("div", { class: "result-scroll" }, table),
        final ? rematchBar() : null,
        h("div", { class: "form-actions" },
          final ? h("button", { onclick: () => ctx.navigate("/") }, t("back_to_lobby")) : null,
          final ? h("button", { id: "open-replay", onclick: () => ctx.navigate(replayPath()) }, t("replay")) : null,
          h("button", { class: "primary", id: "result-close", onclick: close }, final ? t("close") : t("continue")))));
    document.body.appendChild(panel);
    panel.querySelector("#result-close").focus({ preventScroll: true });
  }

  function replayPath() {
    return `/replay/${encodeURIComponent(tableId)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`;
  }

  // The next match at the same seats: each person confirms, bots always do (docs/protocol.md, "Rematch").
  function rematchBar() {
    const r = s.rematch;
    const mine = mySeat();
    const mineSeat = mine == null ? null : s.info?.seats?.[mine];
    const canAsk = mineSeat && mineSeat.player && !mineSeat.replaced;
    if (r?.next) {
      return h("p", { class: "rematch-bar" }, h("button", { class: "link", id: "rematch-next",
        onclick: () => ctx.navigate(`/t/${encodeURIComponent(r.next)}`) }, t("rematch_started")));
    }
    const asked = r && mine != null && r.confirmed.includes(mine);
    const others = r ? r.confirmed.filter((x) => x !== mine) : [];
    const waiting = r && r.confirmed.length ? [
      others.length ? t("rematch_asked", { names: others.map(seatName).join("、") }) : "",
      t("rematch_waiting", { names: r.waiting.map(seatName).join("、") })].filter(Boolean).join(" · ") : "";
    if (!canAsk) return waiting ? h("p", { class: "rematch-bar muted" }, waiting) : null;
    return h("div", { class: "rematch-bar" },
      h("button", {
        class: asked ? null : "primary", id: "rematch",
        onclick: () => lobbyCall(async () => {
          s.rematch = await api.rematch(tableId, !asked);
          if (s.rematch.next) ctx.navigate(`/t/${encodeURIComponent(s.rematch.next)}`);
        }),
      }, asked ? t("rematch_cancel") : t("rematch")),
      h("span", { class: "muted", id: "rematch-status" }, waiting));
  }

  // ---- the countdown -----------------------------------------------------------------------------
  function updateCountdown() {
    const now0 = Date.now() / 1000 + s.clockOffset;
    for (const c of ctx.main.querySelectorAll(".seat-clock")) {
      c.textContent = `${Math.max(0, Math.ceil(Number(c.dataset.deadline) - now0))}″`;
    }
    const el = document.getElementById("countdown");
    const bar = document.getElementById("deadline-fill");
    if (!el) return;
    if (s.deadline == null || !s.legal.length) {
      el.textContent = "";
      if (bar) bar.style.width = "0";
      return;
    }
    const now = Date.now() / 1000 + s.clockOffset;
    const left = Math.max(0, s.deadline - now);
    if (!s.deadlineTotal || s.deadlineFor !== s.deadline) {
      s.deadlineFor = s.deadline;
      s.deadlineTotal = Math.max(left, 1);
    }
    el.textContent = t("seconds_left", { s: Math.ceil(left) });
    el.classList.toggle("urgent", left <= 5);
    if (bar) {
      bar.style.width = `${Math.min(100, (100 * left) / s.deadlineTotal)}%`;
      bar.classList.toggle("urgent", left <= 5);
    }
  }

  // ---- keyboard ----------------------------------------------------------------------------------
  function onKey(e) {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement) return;
    if (e.key === "Escape") {
      if (s.resultOpen) { s.resultOpen = false; render(); return; }
      if (s.selection.size) { s.selection.clear(); render(); }
      return;
    }
    if (document.getElementById("result-panel")) return;
    if (/^[1-9]$/.test(e.key)) {
      const btn = ctx.main.querySelectorAll("#controls .actions button")[Number(e.key) - 1];
      if (btn) { e.preventDefault(); btn.click(); }
    } else if (e.key === "Enter") {
      const btn = document.getElementById("select-send");
      if (btn && !btn.disabled) { e.preventDefault(); btn.click(); }
    }
  }
  document.addEventListener("keydown", onKey);

  render();
  // The socket opens once the table is known to exist and to let us in (a private table needs its invite).
  loadInfo().then((ok) => { if (ok && alive) connect(); });

  return {
    destroy() {
      alive = false;
      clearInterval(tick);
      clearTimeout(retryTimer);
      document.removeEventListener("keydown", onKey);
      document.getElementById("result-panel")?.remove();
      document.title = t("app");
      if (ws) ws.close(1000);
    },
    rerender: render,
  };
}
