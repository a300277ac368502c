// A table: the waiting room before the start, then the game drawn from the view's `table` display block.
// Nothing here knows a particular game: seats, hands, groups, discards, center items, info lines,
// selections and results all come from the block described in docs/architecture.md; a few optional view
// keys that several games share (a trick, a drawn tile, the last discard, a claim) are drawn when present
// (docs/web.md, "Optional view keys").

import { api, ApiError, player, token, wsUrl } from "./api.js";
import { drawBoard, eventLine, resultReveal, resultTable, seatBadges } from "./board.js";
import { cardsInAction, cardText, renderCard, richText } from "./cards.js";
import { fill, h, scoreClass, signed } from "./dom.js";
import { addReportButtons, Bubbles, openReport, openSeries, phraseBar, phrases, roomNumberBox } from "./friends.js";
import { errorText, lang, listOf, t, tx, verbLabel } from "./i18n.js";
import { flyAway, flyIn, lift, reducedMotion } from "./motion.js";
import { avatar } from "./avatar.js";
import { eventText } from "./events.js";
import { guidePanel } from "./guide.js";
import { botName, say, seatName, useSeats } from "./names.js";
import { onPrefChange, pref, setPref } from "./prefs.js";
import { ratedBadge } from "./rated.js";
import { ratingChanges } from "./ratings.js";
import { openHistoryPanel, ScoreHistory } from "./history.js";
import { openRulesPanel } from "./rules.js";
import { cue } from "./sound.js";
import { TrickTable } from "./trick.js";

const MAX_LOG = 80;
const CARD_BUTTONS_MAX = 3; // card-clickable actions also get buttons when there are this few
const PING_EVERY_MS = 10_000; // the client asks the server for a pong this often ...
const PONG_WAIT_MS = 5_000; // ... and takes the connection for dead when none comes back in this time
const STRENGTHS = ["easy", "normal", "strong"]; // the bot strengths every game offers (docs/protocol.md, POST /bots)
const FINGER = 32; // px: the narrowest card a finger can aim at; a narrower one is enlarged first (the loupe)
const touchScreen = () => matchMedia("(pointer: coarse)").matches || matchMedia("(hover: none)").matches;

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
    confirming: null, // {action, label} waiting for "confirm before playing"
    decisionKey: null, // what the current decision is, to notice a new one
    loupe: null, // {index, scroll}: the part of your hand enlarged by a touch, around card `index`
  };
  let alive = true;
  let ws = null;
  let retry = 0;
  let retryTimer = null;
  let pingSent = 0; // when the unanswered ping went out (ms), 0 when answered
  let pongTimer = null;
  let drawn = null; // what the last render put on the table, to animate what arrives
  const tricks = new TrickTable(() => render());
  const scoreHistory = new ScoreHistory(tableId);
  const bubbles = new Bubbles(() => render()); // quick phrases over the seats
  const talk = { open: false, catalogue: null };
  const shareUi = { shown: false, status: "" };
  phrases().then((c) => { talk.catalogue = c; if (alive) render(); });
  const tick = setInterval(updateCountdown, 250);
  const pinger = setInterval(ping, PING_EVERY_MS);
  useSeats(() => s.info?.seats || null);
  const offPrefs = onPrefChange(() => render());

  // Seats as a list in the chosen language, each by its name ("甲、乙、丙").  Not `seats.map(seatName)`:
  // map's second argument, the index, would be taken for seatName's list of seats.
  function namesOf(seats) {
    return listOf(seats.map((i) => seatName(i)));
  }

  // ---- data ------------------------------------------------------------------------------------
  async function loadInfo() {
    try {
      s.info = await api.table(tableId, invite);
      if (s.info?.escape) s.escape = s.info.escape; // what leaving mid-match costs here (the leave prompt)
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

  // ---- the websocket ---------------------------------------------------------------------------
  function connect() {
    if (!alive || s.notFound) return;
    clearTimeout(retryTimer);
    s.conn = s.seq == null ? "connecting" : "reconnecting";
    renderConn();
    const usedToken = token();
    const sock = new WebSocket(wsUrl(tableId, invite));
    ws = sock;
    sock.onopen = () => {
      retry = 0;
      s.conn = "open";
      renderConn();
      ping();
      if (s.seq != null) send({ type: "resume", since: s.seq });
    };
    sock.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      onMessage(msg);
    };
    sock.onclose = (e) => {
      if (ws !== sock) return; // a socket we already gave up on
      ws = null;
      stopPongWait();
      if (!alive) return;
      if (e.code === 4404 || e.code === 4403) { s.notFound = true; s.closeReason = e.reason; render(); return; }
      if (e.code === 4409 || e.code === 4401) { comeBackWithNewToken(usedToken, e.code, 0); return; }
      if (s.notFound) return;
      if (s.conn === "connecting" && retry >= 3) loadInfo(); // never got in: is the table still there?
      reconnectLater(e.code === 4503 ? retryHint(e.reason) : null);
    };
  }

  // The session this socket opened with was replaced (4409: a registration or login, here or in another tab)
  // or ended (4401).  The tab that asked stores the new token just after the server has closed this socket,
  // so wait for it (up to 3 s), then come back with it, keeping the seat; an ended session with no new token
  // means a new nickname (docs/protocol.md, close codes).
  function comeBackWithNewToken(used, code, waited) {
    if (!alive) return;
    const now = token();
    if (now && now !== used) { retry = 0; connect(); return; }
    if (waited >= 3000 || (code === 4401 && !now)) {
      if (code === 4401) ctx.sessionExpired(); else { retry = 0; connect(); }
      return;
    }
    retryTimer = setTimeout(() => comeBackWithNewToken(used, code, waited + 100), 100);
  }

  // 4503: the table is moving to another worker (one died); the server says when to try again
  // (docs/protocol.md).  Its hint, with a little jitter so a room's clients do not all come back at once.
  function retryHint(reason) {
    try {
      const ms = JSON.parse(reason || "{}").retry_after_ms;
      return typeof ms === "number" && ms >= 0 ? Math.min(10000, ms) : null;
    } catch { return null; }
  }

  function reconnectLater(hintMs = null) {
    s.conn = "reconnecting";
    renderConn();
    const delay = hintMs != null ? hintMs * (1 + 0.25 * Math.random()) : Math.min(5000, 400 * 2 ** retry);
    retry += 1;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, delay);
  }

  // A connection can die without closing (a sleeping laptop, a lost network): a ping not answered in time
  // says so; the socket is dropped and a new one resumes from the last update.
  function ping() {
    if (!ws || ws.readyState !== WebSocket.OPEN || pingSent) return;
    pingSent = Date.now();
    ws.send(JSON.stringify({ type: "ping" }));
    clearTimeout(pongTimer);
    pongTimer = setTimeout(connectionDead, PONG_WAIT_MS);
  }

  function stopPongWait() {
    clearTimeout(pongTimer);
    pingSent = 0;
  }

  function connectionDead() {
    const dead = ws;
    ws = null;
    stopPongWait();
    if (dead) {
      dead.onopen = dead.onmessage = dead.onclose = null;
      try { dead.close(4000, "no pong"); } catch { /* already gone */ }
    }
    if (!alive) return;
    retry = 0;
    reconnectLater();
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
        setView(msg, [], true);
        render();
        break;
      case "update":
        if (msg.since != null) { // the answer to a resume: every event after `since`
          const fresh = msg.since !== s.logSeq;
          if (!fresh) pushLog(msg.events);
          s.logSeq = Math.max(s.logSeq ?? 0, msg.seq);
          s.seq = Math.max(s.seq ?? 0, msg.seq);
          setView(msg, msg.events || [], fresh);
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
        setView(msg, msg.events || [], false);
        render();
        break;
      case "table": {
        const paused = !!s.info?.pause;
        noteDepartures(s.info, msg.table);
        // the broadcast is the same for every watcher, so it never carries a private table's invite: keep ours
        s.info = s.info?.invite && !msg.table.invite ? { ...msg.table, invite: s.info.invite } : msg.table;
        // the pause between hands is over: the next hand's clock runs, so the result panel gives way
        if (paused && !s.info.pause && s.resultOpen && !s.view?.finished) s.resultOpen = false;
        render();
        break;
      }
      case "rematch": // who asked for the next match; once everyone has, it has started: go there
        s.rematch = msg;
        if (msg.next && msg.confirmed.includes(mySeat())) ctx.navigate(`/t/${encodeURIComponent(msg.next)}`);
        else render();
        break;
      case "phrase":
      case "chat":
        bubbles.add(msg);
        render();
        break;
      case "hint": // the strong bot's choice for this decision (casual tables only): marked, never played for you
        s.asking = false;
        if (msg.seq === s.seq) {
          s.hinted = msg;
          const table = s.view?.table;
          const controls = table && mySeat() != null ? classify(table, mySeat()) : null;
          if (controls?.select && controls.selectActions.some((e) => e.action === msg.action)) {
            markCards(table, mySeat(), msg.action); // selected, ready to send, and outlined as the hint
            s.hintedCards = new Set(s.selection);
          }
        }
        render();
        break;
      case "error":
        s.asking = false;
        ctx.toast(errorText(msg));
        render(); // the refused choice can be made again
        break;
      case "pong":
        if (typeof msg.time === "number" && pingSent) {
          const now = Date.now();
          s.clockOffset = msg.time - (pingSent + now) / 2000;
        }
        stopPongWait();
        break;
      default:
        break;
    }
  }

  // Someone gave up their seat during play (left, was kicked, or never came back): a log line tells everyone at
  // the table, as for any move.  The room says so only in the table object, so the line is made here.
  function noteDepartures(before, after) {
    if (!before?.seats || !after?.seats || after.status !== "playing") return;
    const gone = [];
    for (const seat of after.seats) {
      const was = before.seats[seat.seat];
      if (!seat.player || !was || was.replaced === seat.replaced) continue;
      if (["left", "kicked", "disconnected"].includes(seat.replaced)) gone.push({ type: seat.replaced, seat: seat.seat });
    }
    if (gone.length) pushLog(gone);
  }

  function pushLog(events) {
    for (const ev of events || []) s.log.push(ev);
    if (s.log.length > MAX_LOG) s.log.splice(0, s.log.length - MAX_LOG);
  }

  function myHand() {
    const seat = mySeat();
    return seat == null ? null : s.view?.table?.seats?.[seat]?.hand ?? null;
  }

  function setView(msg, events, fresh) {
    const wasDeciding = s.legal.length > 0;
    if ("seat" in msg) s.seat = msg.seat;
    s.deadlines = msg.deadlines || {};
    const before = JSON.stringify([s.legal, myHand()]);
    if ("view" in msg) s.view = msg.view;
    // A paced step (升级's deal) goes on by itself: the room passes for you at its end, so only a bid is a
    // choice, and the step's short clock is not yours to watch.
    s.window = msg.window || null;
    const legal = msg.legal || [];
    s.legal = s.window === "pace" ? legal.filter((e) => e.action !== "pass") : legal;
    s.deadline = s.window === "pace" ? null : msg.deadline ?? null;
    if (JSON.stringify([s.legal, myHand()]) !== before) { // a new decision or a changed hand: start afresh
      s.selection.clear();
      s.hintIndex = 0;
      s.loupe = null;
    }
    if (s.confirming && !s.legal.some((e) => e.action === s.confirming.action)) s.confirming = null;
    tricks.update(s.view, events, fresh);
    scoreHistory.note(s.view);
    const last = s.view?.table?.last_result;
    const key = last ? JSON.stringify(last) : null;
    if (key && key !== s.resultKey) {
      if (s.resultKey !== null || s.log.length || msg.type === "update") {
        s.resultOpen = true;
        if (!fresh) cue("over");
      }
      s.resultKey = key;
    }
    if (s.view?.finished && !s.finalShown) {
      s.finalShown = true;
      s.resultOpen = true;
    }
    if (!wasDeciding && s.legal.length && !s.resultOpen) cue(isClaim() ? "claim" : "turn");
  }

  // Who decides, as the view says; nobody while the table waits between hands.
  function deciding() {
    return s.info?.pause ? [] : s.view?.deciding || [];
  }

  // A decision that is not public (the others do not learn you may act) is a claim window.
  function isClaim() {
    const mine = mySeat();
    return !!s.view?.claim || (mine != null && !(s.view?.deciding || []).includes(mine));
  }

  function act(action) {
    const entry = s.legal.find((e) => e.action === action);
    if (pref("confirm") && !(s.confirming && s.confirming.action === action)) {
      s.confirming = { action, label: entry ? say(entry) : action };
      render();
      document.getElementById("confirm-yes")?.focus({ preventScroll: true });
      return;
    }
    s.confirming = null;
    // `seq`: the state this was chosen on; if the bot (autoplay) or the clock moved first, the room refuses it
    if (send({ type: "act", action, seq: s.seq })) {
      // Until the server answers, keep the same choice from being sent twice.
      for (const b of ctx.main.querySelectorAll("#controls button, .seat.me .hand .card, #hand-loupe .card")) b.classList.add("pending");
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
      ctx.toast(e instanceof ApiError ? errorText(e.error) : e.message);
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
    const trick = playing ? tricks.display() : null;
    const leaving = trickLeaving(trick);
    const strip = document.querySelector("#hand-loupe .loupe-cards");
    if (strip && s.loupe) s.loupe.scroll = strip.scrollLeft; // where the person swiped it: kept across redraws
    fill(ctx.main, h("div", { class: ["table-page", playing ? "in-game" : "waiting"] },
      renderTopBar(),
      playing ? renderGame(trick) : renderWaiting(),
    ));
    if (playing) drawLoupe();
    if (leaving) flyAway(leaving.cards, ctx.main.querySelector(`.board .seat[data-seat="${leaving.winner}"]`));
    animateArrivals(trick);
    bubbles.draw(ctx.main);
    addReportButtons(ctx.main, s.info?.seats, mySeat(), (seat) => openReport(tableId, seat, invite, ctx.toast));
    renderResult();
    updateCountdown();
    renderConn();
    if (focused && !document.getElementById("result-panel")) {
      const again = ctx.main.querySelector(focused);
      if (again) again.focus({ preventScroll: true });
    }
    keepDecisionInView();
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

  // When a new decision comes (or the language changes under it, or the trick to follow replaces the finished
  // one held on the table), scroll (if needed) so your hand and the action bar are both in view — with the trick
  // you must follow above them when all three fit.
  function keepDecisionInView() {
    const shown = ctx.main.querySelector("#trick")?.dataset.kind ?? "";
    const key = s.legal.length ? `${s.seq}:${s.legal.length}:${lang()}:${shown}` : null; // another language: other sizes
    if (key === s.decisionKey) return;
    s.decisionKey = key;
    if (!key || document.getElementById("result-panel")) return;
    const bar = document.getElementById("controls");
    if (!bar) return;
    const header = document.querySelector(".site-header");
    const topLimit = header && getComputedStyle(header).position !== "static" ? header.getBoundingClientRect().bottom : 0;
    const room = window.innerHeight - topLimit;
    const span = (els) => {
      const rs = els.filter(Boolean).map((e) => e.getBoundingClientRect());
      return { top: Math.min(...rs.map((r) => r.top)) - 8, bottom: Math.max(...rs.map((r) => r.bottom)) + 8 };
    };
    const hand = ctx.main.querySelector(".seat.me .hand");
    const trick = ctx.main.querySelector("#trick .trick-grid");
    let want = span([trick, hand, bar]);
    if (want.bottom - want.top > room) want = span([hand, bar]);
    let dy = 0;
    if (want.bottom - want.top <= room) {
      if (want.bottom > window.innerHeight) dy = want.bottom - window.innerHeight;
      else if (want.top < topLimit) dy = want.top - topLimit;
    } else {
      dy = bar.getBoundingClientRect().bottom + 8 - window.innerHeight; // too tall: the bar, the hand's lower rows
    }
    if (dy) window.scrollBy({ top: dy, behavior: "instant" });
  }

  function renderTopBar() {
    const phase = s.view?.table?.phase;
    const game = s.info?.game || s.view?.game;
    return h("div", { class: "top-bar" },
      h("button", { class: "link back", onclick: () => ctx.navigate("/") }, "‹ ", t("back_to_lobby")),
      h("span", { class: "top-game" }, gameName()),
      s.info?.number ? h("span", { class: "top-number muted", id: "top-number" }, t("room_n", { n: s.info.number })) : null,
      ratedBadge(s.info?.rated, "table-rated"), // rated, casual, or rated if filled by people (issue 34)
      phase ? h("span", { class: "phase", id: "phase" }, say(phase)) : null,
      h("span", { class: "spacer" }),
      h("span", { class: "conn", id: "conn", role: "status", "aria-live": "polite" }),
      game ? h("button", { class: "small", id: "rules-open", onclick: () => openRulesPanel(game, gameName()) }, t("rules")) : null,
      s.view?.table ? h("button", {
        class: "small", id: "history-open", title: t("history_hint"),
        onclick: () => openHistoryPanel(scoreHistory.rows, {
          n: s.view.table.seats?.length || s.view.totals?.length || 0, seats: s.info?.seats, mine: mySeat(),
          totals: s.view.totals,
        }),
      }, t("score_history")) : null,
      s.info?.status === "finished"
        ? h("button", { class: "small", id: "top-replay", onclick: () => ctx.navigate(replayPath()) }, t("replay"))
        : null,
      s.info && s.info.status !== "waiting"
        ? h("button", { class: "small", id: "series-open", onclick: () => openSeries(tableId, invite, ctx.toast) }, t("series"))
        : null,
      s.view && s.info?.status === "playing" && mySeat() != null
        ? s.leaving // asked on the page itself: in-app browsers may block confirm()
          ? h("span", { class: "leave-confirm", id: "leave-confirm", role: "group" },
            h("span", {}, leaveQuestion()),
            h("button", { class: "small danger", id: "leave-yes", onclick: () => { s.leaving = false; lobbyCall(() => api.leave(tableId)); } },
              t("leave")),
            h("button", { class: "small", id: "leave-no", onclick: () => { s.leaving = false; render(); } }, t("cancel")))
          : h("button", {
            class: "small", id: "leave-game", title: t("leave_game_hint"),
            onclick: () => { s.leaving = true; render(); },
          }, t("leave"))
        : null,
    );
  }

  // What leaving costs, said before you leave: a rated match books the escape by the table's rule (its words
  // come with the table, `escape`); a casual one books nothing.
  function leaveQuestion() {
    if (s.info?.rated === "casual") return t("leave_game_confirm_casual");
    return s.escape ? t("leave_game_confirm_escape", { penalty: tx(s.escape) }) : t("leave_game_confirm");
  }

  function gameName() {
    const d = s.info?.display;
    return d ? say(d) : (s.info?.game || s.view?.game || "");
  }

  function renderConn() {
    const el = document.getElementById("conn");
    if (!el) return;
    el.className = `conn ${s.conn}`;
    el.textContent = s.conn === "open" ? "" : t(s.conn === "connecting" ? "connecting" : "reconnecting");
  }

  // 准备 (issue 38): at a table that waits for ready, each person presses it; the creator may ask someone who
  // has not, once their ready time is up, to leave.  The page redraws when the first such time comes.
  function readyParts(x, mine, status) {
    const rd = s.info?.ready;
    if (!rd || status !== "waiting" || !x.player || x.bot) return [null, null];
    const isReady = rd.seats.includes(x.seat);
    const badge = isReady ? h("span", { class: "badge ready-badge", dataset: { seat: String(x.seat) } }, t("ready_badge")) : null;
    if (x.seat === mine) {
      return [badge, h("button", { class: ["small", isReady ? null : "primary"], id: "ready",
        onclick: () => lobbyCall(() => api.ready(tableId, !isReady)) }, t(isReady ? "ready_undo" : "ready_press"))];
    }
    const me = player();
    if (isReady || !me || s.info.owner !== me.id) return [badge, null];
    const left = Math.ceil((rd.sat_at?.[String(x.seat)] ?? 0) + rd.seconds - Date.now() / 1000 - (s.clockOffset || 0));
    if (left > 0) {
      clearTimeout(s.kickTimer);
      s.kickTimer = setTimeout(() => render(), Math.min(left, 60) * 1000);
    }
    return [badge, h("button", { class: "small kick-seat", dataset: { seat: String(x.seat) }, disabled: left > 0,
      title: left > 0 ? t("kick_in", { s: left }) : null,
      onclick: () => lobbyCall(() => api.kickUnready(tableId, x.seat)) }, left > 0 ? t("kick_in", { s: left }) : t("kick_unready"))];
  }

  function renderWaiting() {
    const seats = s.info?.seats || [];
    const mine = mySeat();
    const full = seats.length > 0 && seats.every((x) => x.player || x.bot);
    const rd = s.info?.ready;
    const othersReady = !rd || seats.every((x) => !x.player || x.bot || x.seat === mine || rd.seats.includes(x.seat));
    const inviteUrl = s.info?.invite ? `${location.origin}/t/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(s.info.invite)}` : null;
    const status = s.info?.status || "waiting";
    const quick = status === "waiting" && s.info?.quick_deadline;
    return h("div", { class: "card-panel waiting-room" },
      h("h2", {}, t("waiting_room"), s.info?.number ? null : h("span", { class: "muted" }, ` #${tableId}`)),
      s.info ? roomNumberBox(s.info, gameName(), shareUi) : null,
      quick ? h("p", { class: "quick-wait muted", id: "quick-wait" }, t("quick_wait_pre"),
        h("span", { id: "quick-countdown", dataset: { deadline: String(s.info.quick_deadline) } }), t("quick_wait_post")) : null,
      h("ul", { class: "seat-list" }, seats.map((x) => [x, readyParts(x, mine, status)]).map(([x, [readyBadge, readyButton]]) => h("li", { class: "seat-row", dataset: { seat: x.seat } },
        h("span", { class: "seat-no" }, t("seat_n", { n: x.seat + 1 })),
        h("span", { class: ["seat-who", x.player ? "person" : x.bot ? "bot" : "empty"] },
          x.player ? avatar(x.player.id, 20, x.player.nickname) : null,
          x.player ? x.player.nickname : x.bot ? botName(x.seat) : t("empty_seat"),
          seatBadges(x, { isMe: x.seat === mine }), readyBadge),
        readyButton,
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
        h("select", { id: "bot-strength", "aria-label": t("bot_strength"), title: t("bot_strength"), disabled: full,
          onchange: (e) => { s.botStrength = e.target.value; } },
        STRENGTHS.map((name) => h("option", { value: name, selected: name === (s.botStrength || "normal") },
          t(`strength_${name}`)))),
        h("button", { id: "fill-bots", disabled: full,
          onclick: () => lobbyCall(() => api.fillBots(tableId, s.botStrength || "normal")) }, t("fill_bots")),
        h("button", { id: "start", class: "primary", disabled: !full || !othersReady,
          title: !full ? t("need_full") : othersReady ? null : t("need_ready"),
          onclick: () => lobbyCall(() => api.start(tableId)) }, t("start"))) : h("p", { class: "muted" }, t(`status_${status}`)),
      rd && status === "waiting" ? h("p", { class: "muted small-print", id: "ready-hint" }, t("ready_hint", { s: rd.seconds })) : null,
      mine != null ? phraseBar(talk, send, render) : null,
    );
  }

  function renderGame(trick) {
    const table = s.view.table;
    const style = table.card_style;
    const mine = mySeat();
    const controls = classify(table, mine);
    const board = drawBoard(s.view, {
      seats: s.info?.seats, mine, deciding: new Set(deciding()), deadlines: s.deadlines,
      decorate: (el, card, k) => decorateHandCard(el, card, k, controls),
      drawn: s.legal.length ? s.view.drawn : null,
      trick, previousTrick: tricks.previous(),
      onLastTrick: () => { tricks.showLast = trick?.kind !== "last"; render(); },
      onAutoplay: s.info?.status === "playing" ? (on) => send({ type: "autoplay", on }) : null,
      handOver: !!s.info?.pause || !!s.view.finished, // the last result is this hand's: its winning card shows
    });
    return [
      s.info?.status === "closed" ? h("p", { class: "closed-banner", id: "closed-banner", role: "status" }, t("table_closed")) : null,
      board,
      renderControls(table, style, controls, mine), // right under your hand: nothing between them
      guidePanel({
        game: s.info?.game || "", rerender: render, finished: !!s.view.finished,
        solo: mine != null && (s.info?.seats || []).every((x) => x.seat === mine || !x.player),
        phase: table.phase ? say(table.phase) : "", deciding: s.legal.length > 0,
        labels: s.legal.map((e) => say(e) || e.action),
        happened: s.log.length ? eventText(s.log[s.log.length - 1]) : "",
      }),
      mine != null && s.info?.status !== "closed" ? phraseBar(talk, send, render) : null,
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

  // `inLoupe`: the enlarged copy of the card (drawLoupe), which chooses at the first touch.
  function decorateHandCard(el, card, index, controls, inLoupe = false) {
    el.dataset.index = String(index);
    // A touch on a card too narrow for a finger enlarges that part of the hand instead of choosing.
    const tap = (choose) => () => {
      if (!inLoupe && touchScreen() && tapWidth(el) < FINGER) {
        s.loupe = { index, scroll: null };
        render();
        return;
      }
      if (inLoupe && s.loupe) s.loupe.index = index;
      choose();
    };
    if (controls.select) {
      el.classList.add("selectable");
      if (s.selection.has(index)) el.classList.add("selected");
      if (s.hinted?.seq === s.seq && s.hintedCards?.has(index)) el.classList.add("hinted");
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", inLoupe ? "-1" : "0");
      el.setAttribute("aria-pressed", s.selection.has(index) ? "true" : "false");
      const toggle = () => {
        if (s.selection.has(index)) s.selection.delete(index);
        else s.selection.add(index);
        s.confirming = null;
        render();
      };
      el.addEventListener("click", tap(toggle));
      if (!inLoupe) el.addEventListener("keydown", (e) => { if (e.key === " ") { e.preventDefault(); toggle(); } });
      return;
    }
    const entry = controls.byCard.get(card);
    if (entry) {
      el.classList.add("playable");
      if (s.confirming?.action === entry.action) el.classList.add("confirming");
      if (s.hinted?.seq === s.seq && s.hinted.action === entry.action) el.classList.add("hinted");
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", inLoupe ? "-1" : "0");
      el.dataset.action = entry.action;
      el.title = say(entry);
      el.addEventListener("click", tap(() => act(entry.action)));
      if (!inLoupe) {
        el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(entry.action); } });
      }
    } else if (controls.tapVerb) {
      el.classList.add("unplayable");
    }
  }

  // How wide a target a card of your hand is: the widest stretch of it no other card lies over, sampled along
  // its middle (in an overlapped hand the next card covers most of it, and a selected card, raised, covers the
  // start of the one after).
  function tapWidth(el) {
    const r = el.getBoundingClientRect();
    const y = r.top + Math.min(r.height / 2, 24);
    let run = 0;
    let widest = 0;
    for (let x = Math.ceil(r.left); x < r.right; x += 1) {
      run = document.elementFromPoint(x, y)?.closest(".card") === el ? run + 1 : 0;
      widest = Math.max(widest, run);
    }
    return widest;
  }

  // The loupe: the whole hand again, at full size and side by side in a strip you can swipe, laid over the row
  // that was touched and scrolled to the touched card; a touch there chooses.  Closed by its ×, Esc, or a new
  // decision.
  function drawLoupe() {
    if (!s.loupe) return;
    const mine = mySeat();
    const handEl = ctx.main.querySelector(".seat.me .hand.own");
    const touched = handEl?.querySelector(`.card[data-index="${s.loupe.index}"]`);
    const hand = mine == null ? null : s.view?.table?.seats?.[mine]?.hand;
    if (!s.legal.length || !touched || !Array.isArray(hand)) { s.loupe = null; return; }
    const table = s.view.table;
    const controls = classify(table, mine);
    const order = [...handEl.querySelectorAll(".card")].map((c) => Number(c.dataset.index));
    const cards = order.map((k) => {
      const el = renderCard(hand[k], table.card_style, { size: "lg" });
      decorateHandCard(el, hand[k], k, controls, true);
      return el;
    });
    const strip = h("div", { class: "loupe-cards" }, cards);
    const seatEl = handEl.closest(".seat");
    const box = h("div", { class: "hand-loupe", id: "hand-loupe", role: "group", "aria-label": t("loupe_hint") },
      strip,
      h("button", {
        class: "small loupe-close", title: t("loupe_close"), "aria-label": t("loupe_close"),
        onclick: () => { s.loupe = null; render(); },
      }, "×"));
    seatEl.appendChild(box);
    box.style.top = `${touched.getBoundingClientRect().top - seatEl.getBoundingClientRect().top - 8}px`;
    if (s.loupe.scroll != null) {
      strip.scrollLeft = s.loupe.scroll;
    } else { // the touched card in the middle
      const at = cards[order.indexOf(s.loupe.index)].getBoundingClientRect();
      const box = strip.getBoundingClientRect();
      strip.scrollLeft += at.left + at.width / 2 - (box.left + box.width / 2);
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

  // A claim window names what you may claim: whose discard, which tile (view.claim = {tile, from, robbing}).
  function claimPrompt(style) {
    const claim = s.view.claim;
    if (!claim || typeof claim.tile !== "string") return null;
    const tile = cardText(claim.tile, style);
    const name = typeof claim.from === "number" ? seatName(claim.from) : "";
    const [before, after] = t(claim.robbing ? "claim_prompt_rob" : "claim_prompt", { name, tile: "\u0000" }).split("\u0000");
    return h("div", { class: "claim-prompt", id: "claim-prompt", dataset: { tile: claim.tile } },
      h("span", { class: "claim-text" },
        before, h("span", { class: ["card-text", tile?.red ? "red" : null] }, tile ? tile.text : claim.tile), after),
      renderCard(claim.tile, style, { size: "sm", extra: "claim-tile" }),
      h("span", { class: "muted" }, t("claim_choose")));
  }

  function renderControls(table, style, controls, mine) {
    const mineDecides = s.legal.length > 0;
    const deciders = deciding().filter((i) => i !== mine);
    let status;
    if (mineDecides) status = h("span", { class: "turn-now" }, t("your_turn"));
    else if (s.view.finished) status = h("span", {}, t("match_over"));
    else if (s.info?.pause) status = h("span", { class: "muted" }, t("between_hands"));
    else if (deciders.length) status = h("span", { class: "muted" }, t("waiting_for", { names: namesOf(deciders) }));
    else status = h("span", { class: "muted" }, mine == null ? t("spectating") : t("waiting_others"));

    const parts = [];
    if (mineDecides) parts.push(claimPrompt(style));
    const hinted = s.hinted && s.hinted.seq === s.seq ? s.hinted : null;
    if (mineDecides && s.info?.hints) {
      parts.push(h("div", { class: "hint-bar" },
        h("button", { class: "small", id: "ask-hint", disabled: s.asking || !!hinted, title: t("ask_hint_title"),
          onclick: () => { if (send({ type: "hint" })) { s.asking = true; render(); } } }, t("ask_hint")),
        hinted ? h("span", { class: "hint-says", id: "hint-says", dataset: { action: hinted.action } },
          richText(t("hint_says", { what: say(hinted) || hinted.action }), style)) : null));
    }
    if (mineDecides && s.window === "pace") {
      parts.push(h("div", { class: "select-bar", id: "bid-hint" }, h("span", { class: "select-hint muted" }, t("bid_any_time"))));
    }
    if (s.confirming) {
      parts.push(h("div", { class: "confirm-bar", id: "confirm-bar" },
        h("span", { class: "confirm-q" }, richText(t("confirm_q", { what: s.confirming.label }), style)),
        h("button", { class: "primary", id: "confirm-yes", onclick: () => act(s.confirming.action) }, t("confirm_yes")),
        h("button", { id: "confirm-no", onclick: () => { s.confirming = null; render(); } }, t("cancel"))));
    }
    if (controls.select && mine != null) {
      const sel = controls.select;
      const hand = table.seats?.[mine]?.hand || [];
      const { cards, known } = selectionAction(table, mine, controls);
      const okCount = cards.length >= (sel.min ?? 1) && cards.length <= (sel.max ?? hand.length);
      parts.push(h("div", { class: "select-bar" },
        h("span", { class: "select-hint muted" }, sel.min === sel.max
          ? t("select_hint_exact", { n: sel.min }) : t("select_hint", { min: sel.min ?? 1, max: sel.max ?? hand.length })),
        h("span", { class: "select-count", id: "select-count" }, t("selected_n", { n: cards.length })),
        h("button", { class: "small", id: "select-clear", disabled: !cards.length, onclick: () => { s.selection.clear(); s.confirming = null; render(); } }, t("clear")),
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
        class: ["action", k === 0 && !many ? "first" : null, hinted?.action === entry.action ? "hinted" : null],
        dataset: { action: entry.action },
        title: entry.action, onclick: () => act(entry.action),
      }, k < 9 ? h("kbd", {}, String(k + 1)) : null, richText(say(entry) || entry.action, style)))));

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
    const list = controls.selectActions;
    if (!list.length) return;
    const entry = list[s.hintIndex % list.length];
    s.hintIndex += 1;
    markCards(table, mine, entry.action);
    render();
  }

  /** Select the cards of `action` in my hand (the selection shown before sending). */
  function markCards(table, mine, action) {
    const hand = table.seats?.[mine]?.hand || [];
    s.selection.clear();
    s.confirming = null;
    const used = new Set();
    for (const c of cardsInAction(action, table.card_style)) {
      const k = hand.findIndex((x, idx) => x === c && !used.has(idx));
      if (k >= 0) { used.add(k); s.selection.add(k); }
    }
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
    const lines = s.log.slice(-30).reverse().map((ev) => h("li", {}, eventLine(ev, style)));
    return h("details", {
      class: "log", id: "log", open: pref("logOpen"),
      ontoggle: (e) => { if (e.target.open !== pref("logOpen")) setPref("logOpen", e.target.open); },
    }, h("summary", {}, t("log")), h("ol", {}, lines));
  }

  // ---- motion: cards that arrive fly in from their seat; a finished trick flies to its winner ------------
  function tableCards(trick) {
    const out = { trick: trick ? trick.kind === "live" ? new Map(trick.plays.map(([seat, c]) => [seat, c.join(" ")])) : null : null, discards: new Map() };
    for (const [i, seat] of (s.view?.table?.seats || []).entries()) out.discards.set(i, (seat.discards || []).length);
    return out;
  }

  // The finished trick drawn last time, when it leaves the table now: its cards fly to the winner.
  function trickLeaving(trick) {
    const old = drawn?.shownTrick;
    if (!old || old.kind !== "done" || old.winner == null) return null;
    const same = (a, b) => a && b && a.kind === b.kind && a.winner === b.winner && JSON.stringify(a.plays) === JSON.stringify(b.plays);
    if (same(old, trick)) return null;
    const cards = lift([...ctx.main.querySelectorAll("#trick .trick-cards .card")]);
    return cards.length ? { cards, winner: old.winner } : null;
  }

  function animateArrivals(trick) {
    const now = s.view?.table ? tableCards(trick) : null;
    const before = drawn;
    drawn = now ? { ...now, shownTrick: trick } : null;
    if (!before || !now || reducedMotion()) return;
    const seatEl = (i) => ctx.main.querySelector(`.board .seat[data-seat="${i}"] .hand`)
      || ctx.main.querySelector(`.board .seat[data-seat="${i}"]`);
    if (now.trick) {
      for (const [seat, cards] of now.trick) {
        if (before.trick && before.trick.get(seat) === cards) continue;
        if (!before.trick && before.shownTrick?.kind !== "done" && before.shownTrick != null) continue;
        flyIn([...ctx.main.querySelectorAll(`#trick .trick-slot[data-seat="${seat}"] .card`)], seatEl(seat));
      }
    }
    for (const [seat, n] of now.discards) {
      const was = before.discards.get(seat) ?? n;
      if (n > was && n - was <= 4) {
        const els = [...ctx.main.querySelectorAll(`.board .seat[data-seat="${seat}"] .discards .card`)].slice(was - n);
        flyIn(els, seatEl(seat));
      }
    }
  }

  // ---- the result panel ---------------------------------------------------------------------------
  function renderResult() {
    document.getElementById("result-panel")?.remove();
    const last = s.view?.table?.last_result;
    if (!s.resultOpen || (!last && !s.view?.finished)) return;
    if (tricks.holding()) return; // the hand's last trick is on the table first (a redraw follows)
    const n = s.view.table.seats?.length || (last?.scores?.length ?? 0);
    const close = () => { s.resultOpen = false; document.getElementById("result-panel")?.remove(); render(); };
    const final = s.view.finished;
    const style = s.view.table.card_style;
    const table = last ? resultTable(last, {
      n, seats: s.info?.seats, mine: mySeat(), totals: s.view.totals, style,
      roles: (s.view.table.seats || []).map((x) => x.role),
    }) : null;
    const reveal = last ? resultReveal(last, { seats: s.info?.seats, style }) : null;
    const panel = h("div", { class: "modal-backdrop", id: "result-panel", onclick: (e) => { if (e.target === e.currentTarget) close(); } },
      h("div", { class: "modal result", role: "dialog", "aria-modal": "true", "aria-labelledby": "result-title" },
        h("h2", { id: "result-title" }, final ? t("match_over") : t("result"),
          last?.title ? h("span", { class: "result-title" }, say(last.title)) : null),
        h("div", { class: "result-scroll" }, reveal, table),
        final && s.info?.rated === "rated" ? ratingChanges(tableId, s.info?.seats) : null,
        final ? rematchBar() : null,
        final ? null : pauseBar(),
        h("div", { class: "form-actions" },
          final ? h("button", { onclick: () => ctx.navigate("/") }, t("back_to_lobby")) : null,
          final ? h("button", { id: "open-replay", onclick: () => ctx.navigate(replayPath()) }, t("replay")) : null,
          pauseButton(close) || h("button", { class: "primary", id: "result-close", onclick: close },
            final ? t("close") : t("continue")))));
    document.body.appendChild(panel);
    panel.querySelector("#result-close")?.focus({ preventScroll: true });
    updateCountdown();
  }

  // Between two hands the room holds the table (docs/protocol.md, "Between hands"): the next hand starts when
  // every person has pressed continue, or when the pause runs out; both are in view on the result panel.
  function pauseBar() {
    const p = s.info?.pause;
    if (!p) return null;
    const waiting = (p.waiting || []).filter((x) => x !== mySeat());
    return h("p", { class: "pause-bar", id: "pause-status", dataset: { until: String(p.until) } },
      h("span", { class: "pause-clock", id: "pause-clock" }),
      waiting.length ? h("span", { class: "muted" }, " · ", t("waiting_for", { names: namesOf(waiting) })) : null);
  }

  function pauseButton(close) {
    const p = s.info?.pause;
    const mine = mySeat();
    if (!p || mine == null || s.view?.finished) return null;
    const seat = s.info?.seats?.[mine];
    if (!seat || seat.bot) return null;
    const done = (p.ready || []).includes(mine);
    return h("button", {
      class: done ? null : "primary", id: "result-close", disabled: done,
      onclick: () => { send({ type: "continue" }); if (done) close(); },
    }, done ? t("ready_waiting") : t("continue"));
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
      others.length ? t("rematch_asked", { names: namesOf(others) }) : "",
      t("rematch_waiting", { names: namesOf(r.waiting) })].filter(Boolean).join(" · ") : "";
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
    const pc = document.getElementById("pause-clock");
    if (pc) pc.textContent = t("next_hand_in", { s: Math.max(0, Math.ceil(Number(pc.parentElement.dataset.until) - now0)) });
    const quick = document.getElementById("quick-countdown");
    if (quick) quick.textContent = String(Math.max(0, Math.ceil(Number(quick.dataset.deadline) - now0)));
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
      if (s.loupe) { s.loupe = null; render(); return; }
      if (s.confirming) { s.confirming = null; render(); return; }
      if (s.selection.size) { s.selection.clear(); render(); }
      return;
    }
    if (["result-panel", "rules-panel", "history-panel"].some((id) => document.getElementById(id))) return;
    if (s.confirming && e.key === "Enter") {
      e.preventDefault();
      act(s.confirming.action);
      return;
    }
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
      clearInterval(pinger);
      clearTimeout(retryTimer);
      clearTimeout(pongTimer);
      tricks.reset();
      bubbles.reset();
      offPrefs();
      useSeats(null);
      document.removeEventListener("keydown", onKey);
      document.getElementById("result-panel")?.remove();
      document.getElementById("rules-panel")?.remove();
      document.getElementById("history-panel")?.remove();
      document.getElementById("report-panel")?.remove();
      document.getElementById("series-panel")?.remove();
      document.title = t("app");
      if (ws) ws.close(1000);
    },
    rerender: render,
  };
}
