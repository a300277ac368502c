// A player's record (standing per game, the ledger as a history of matches) and each game's leaderboard.

import { accountPanel } from "./account.js";
import { api, ApiError, player } from "./api.js";
import { avatar } from "./avatar.js";
import { fill, h, scoreClass, signed } from "./dom.js";
import { lang, listOf, t, tx } from "./i18n.js";
import { ratedBadge } from "./rated.js";
import { deltaText, ratingPanel, ratingText } from "./ratings.js";

let gamesCache = null;

async function games() {
  if (!gamesCache) gamesCache = await api.games();
  return gamesCache;
}

function gameName(list, name) {
  const g = (list || []).find((x) => x.name === name);
  return g ? tx(g.display) : name;
}

function when(at) {
  if (!at) return "";
  return new Date(at * 1000).toLocaleString(lang() === "zh" ? "zh-CN" : "en-GB",
    { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
}

function link(ctx, path, ...children) {
  return h("a", { href: path, onclick: (e) => { e.preventDefault(); ctx.navigate(path); } }, ...children);
}

/** A player's page ("/players/<id>", and "/me" for your own with the account panel). */
export function showProfile(ctx, playerId, own) {
  const state = { data: null, entries: [], next: null, error: null, games: null, session: null };
  let alive = true;

  async function load() {
    try {
      const [list, data, session] = await Promise.all([games(), api.player(playerId), own ? api.session() : null]);
      if (!alive) return;
      // the history: ledger entries and casual matches (which book nothing) in one order (issue 34)
      Object.assign(state, { games: list, data, entries: data.history ?? data.ledger,
        next: data.history ? data.history_next : data.next, session });
    } catch (e) {
      if (own && e instanceof ApiError && e.status === 401) { ctx.sessionExpired(); return; }
      state.error = e.message;
    }
    render();
  }

  async function more() {
    try {
      const data = await api.history(playerId, state.next);
      state.entries = state.entries.concat(data.history);
      state.next = data.next;
    } catch (e) {
      ctx.toast(e.message);
    }
    render();
  }

  function entryRow(e) {
    const m = e.match;
    const reason = t(`reason_${e.reason}`) === `reason_${e.reason}` ? e.reason : t(`reason_${e.reason}`);
    const voided = (e.note?.void || []).map((v) => v.hand);
    let detail = null;
    if (m && m.private && !m.seats) detail = h("span", { class: "muted" }, t("private_match"));
    else if (m && m.seats) {
      detail = h("span", { class: "match-seats" }, m.seats.map((s, i) => h("span", {
        class: ["seat-chip", s.player && s.player.id === playerId ? "me" : s.player && !s.replaced ? "person" : "bot"],
      }, s.player ? (s.player.id === playerId ? s.player.nickname
        : link(ctx, `/players/${encodeURIComponent(s.player.id)}`, s.player.nickname)) : t("bot"),
      Array.isArray(m.scores) ? ` ${signed(m.scores[i])}` : "")));
    }
    return h("tr", { class: "ledger-row", dataset: { table: e.table || "", reason: e.reason } },
      h("td", { class: "muted nowrap" }, when(e.at)),
      h("td", {}, gameName(state.games, e.game)),
      h("td", {}, e.casual ? null : reason, e.casual || m?.rated === false ? ratedBadge(false) : null, voided.length ? h("div", { class: "muted small-print" }, t("voided_hands", { hands: listOf(voided) })) : null),
      h("td", {}, detail),
      h("td", { class: ["num", e.points == null ? "muted" : scoreClass(e.points)] }, e.points == null ? "—" : signed(e.points)),
      h("td", { class: "num" }, e.balance == null ? "" : String(e.balance)),
      h("td", { class: ["num", "rating-delta", e.rating ? scoreClass(e.rating.delta) : "muted"] }, e.rating ? deltaText(e.rating.delta) : ""),
      h("td", {}, e.table && m && m.status === "finished" && m.seats
        ? h("button", { class: "small replay-link", onclick: () => ctx.navigate(`/replay/${encodeURIComponent(e.table)}`) }, t("replay"))
        : null));
  }

  function render() {
    if (!alive) return;
    if (state.error) { fill(ctx.main, h("div", { class: "center-page muted" }, state.error)); return; }
    if (!state.data) { fill(ctx.main, h("div", { class: "center-page muted" }, t("connecting"))); return; }
    const p = state.data.player;
    document.title = `${p.nickname} · ${t("profile")} · ${t("app")}`;
    const standing = Object.entries(state.data.standing || {});
    fill(ctx.main, h("div", { class: "profile-page" },
      h("h1", { class: "profile-name", id: "profile-name" }, avatar(p.id, 40, p.nickname), p.nickname),
      own ? accountPanel(ctx, state.session, () => ctx.navigate("/")) : null,
      own ? h("p", { class: "my-data" }, // a plain link (the session cookie goes with it): works in in-app browsers
        h("a", { href: "/api/me/data", download: "paiju-data.json", id: "my-data" }, t("my_data")), " ",
        h("span", { class: "muted" }, t("my_data_hint"))) : null,
      h("section", { class: "card-panel" },
        h("h2", {}, t("standing")),
        standing.length ? h("table", { class: "result-table standing-table", id: "standing" },
          h("thead", {}, h("tr", {}, [t("game"), t("score"), t("base"), t("matches")].map((x) => h("th", {}, x)))),
          h("tbody", {}, standing.map(([game, st]) => h("tr", { dataset: { game } },
            h("td", {}, link(ctx, `/leaderboard?game=${encodeURIComponent(game)}`, gameName(state.games, game))),
            h("td", { class: "num" }, String(st.score)), h("td", { class: "num" }, String(st.base)),
            h("td", { class: "num" }, String(st.matches))))))
          : h("p", { class: "muted" }, t("no_history"))),
      ratingPanel(state.data, (game) => gameName(state.games, game)),
      h("section", { class: "card-panel" },
        h("h2", {}, t("history")),
        state.entries.length ? h("div", { class: "result-scroll" }, h("table", { class: "result-table ledger-table", id: "ledger" },
          h("thead", {}, h("tr", {}, [t("when"), t("game"), t("reason"), "", t("points"), t("balance"), t("rating"), ""].map((x) => h("th", {}, x)))),
          h("tbody", {}, state.entries.map(entryRow)))) : h("p", { class: "muted" }, t("no_history")),
        state.next ? h("div", { class: "form-actions" }, h("button", { id: "ledger-more", onclick: more }, t("more"))) : null),
      h("p", { class: "muted small-print" }, t("points_no_cash"))));
  }

  render();
  load();
  return { destroy() { alive = false; }, rerender: render };
}

/** "/leaderboard?game=<game>": the ranking of one game, paged. */
export function showLeaderboard(ctx, initialGame) {
  const me = player();
  const sort = new URLSearchParams(location.search).get("sort") === "rating" ? "rating" : "score";
  const state = { games: null, game: initialGame, rows: [], next: null, error: null, sort };
  const path = () => `/leaderboard?game=${encodeURIComponent(state.game)}${state.sort === "rating" ? "&sort=rating" : ""}`;
  let alive = true;

  async function load() {
    try {
      state.games = await games();
      if (!state.game || !state.games.some((g) => g.name === state.game)) state.game = state.games[0]?.name;
      const { data, next } = await api.leaderboard(state.game, state.sort);
      if (!alive) return;
      state.rows = data;
      state.next = next;
      state.error = null;
    } catch (e) {
      state.error = e.message;
    }
    render();
  }

  async function more() {
    try {
      const { data, next } = await api.page(state.next);
      state.rows = state.rows.concat(data);
      state.next = next;
    } catch (e) {
      ctx.toast(e.message);
    }
    render();
  }

  function render() {
    if (!alive) return;
    document.title = `${t("leaderboard")} · ${t("app")}`;
    if (!state.games) { fill(ctx.main, h("div", { class: "center-page muted" }, state.error || t("connecting"))); return; }
    fill(ctx.main, h("div", { class: "leaderboard-page" },
      h("h1", {}, t("leaderboard")),
      h("div", { class: "tabs", role: "tablist" }, state.games.map((g) => h("button", {
        class: ["tab", g.name === state.game ? "selected" : null], role: "tab", dataset: { game: g.name },
        "aria-selected": g.name === state.game ? "true" : "false",
        onclick: () => {
          state.game = g.name;
          history.replaceState(null, "", path());
          load();
        },
      }, tx(g.display)))),
      h("div", { class: "tabs board-sort", role: "tablist" }, ["score", "rating"].map((k) => h("button", {
        class: ["tab", k === state.sort ? "selected" : null], role: "tab", id: `sort-${k}`,
        "aria-selected": k === state.sort ? "true" : "false",
        onclick: () => { state.sort = k; history.replaceState(null, "", path()); load(); },
      }, t(k === "rating" ? "sort_rating" : "sort_score")))),
      h("section", { class: "card-panel" },
        state.rows.length ? h("table", { class: "result-table leaderboard", id: "leaderboard" },
          h("thead", {}, h("tr", {}, (state.sort === "rating" ? [t("rank"), t("player"), t("rating"), t("matches")]
            : [t("rank"), t("player"), t("score"), t("base"), t("matches")]).map((x) => h("th", {}, x)))),
          h("tbody", {}, state.rows.map((r) => h("tr", { class: me && r.player.id === me.id ? "me" : null, dataset: { player: r.player.id } },
            h("td", { class: "num" }, String(r.rank)),
            h("td", {}, avatar(r.player.id, 18, r.player.nickname), link(ctx, `/players/${encodeURIComponent(r.player.id)}`, r.player.nickname)),
            ...(r.rating && state.sort === "rating" ? [h("td", { class: "num rating-value" }, ratingText(r.rating)),
              h("td", { class: "num" }, String(r.rating.matches))]
              : [h("td", { class: "num" }, String(r.score)), h("td", { class: "num" }, String(r.base)),
                h("td", { class: "num" }, String(r.matches))])))))
          : h("p", { class: "muted" }, state.error || t("no_ranking")),
        state.next ? h("div", { class: "form-actions" }, h("button", { id: "board-more", onclick: more }, t("more"))) : null),
      h("p", { class: "muted small-print" }, t("points_no_cash"))));
  }

  render();
  load();
  return { destroy() { alive = false; }, rerender: render };
}
