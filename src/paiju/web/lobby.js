// The lobby: the games, open tables, and a create-table form generated from each game's options schema.

import { api, ApiError, player } from "./api.js";
import { fill, h } from "./dom.js";
import { errorText, t, tx } from "./i18n.js";
import { avatar } from "./avatar.js";
import { botName } from "./names.js";
import { ratedBadge } from "./rated.js";

const WINDOW_DEFAULTS = { turn_seconds: 30, claim_seconds: 10 };
const SELECTED_KEY = "paiju.lobby.game";
const FEW_OPTIONS = 6; // more rule options than this start folded: the defaults are the rule page

export function showLobby(ctx) {
  const me = player();
  const state = {
    games: null,
    tables: [],
    next: null, // the cursor of the lobby's next page, or null when every table is shown
    paged: false, // pages after the first are shown: the list waits for "refresh" instead of refreshing itself
    selected: sessionStorage.getItem(SELECTED_KEY),
    values: {}, // game -> {option: value} as typed, kept across language switches
    error: null,
    errorOption: null,
    loadError: null,
    busy: false,
    number: "", // the room number being typed
    joinError: null,
  };
  let alive = true;
  let timer = null;

  async function load() {
    try {
      const [games, tables] = await Promise.all([state.games ? state.games : api.games(), api.tables()]);
      if (!alive) return;
      state.games = games;
      state.tables = Array.isArray(tables) ? tables : (tables?.tables ?? []);
      state.next = tables?.next ?? null;
      state.paged = false;
      state.loadError = null;
      if (!state.selected || !games.some((g) => g.name === state.selected)) state.selected = games[0]?.name ?? null;
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) { ctx.sessionExpired(); return; }
      state.loadError = e.message;
    }
    if (alive) render();
  }

  function gameOf(name) {
    return state.games?.find((g) => g.name === name) ?? null;
  }

  function render() {
    if (!alive) return;
    document.title = `${t("lobby")} · ${t("app")}`;
    if (!state.games) {
      fill(ctx.main, h("div", { class: "center-page muted" }, state.loadError || t("connecting")));
      return;
    }
    fill(ctx.main, h("div", { class: "lobby" },
      renderFriends(),
      h("section", { class: "lobby-games" },
        h("p", { class: "tagline muted" }, t("tagline")),
        h("h2", {}, t("games")),
        h("div", { class: "game-list", role: "list" }, state.games.map(renderGame))),
      h("section", { class: "lobby-tables" },
        h("div", { class: "section-head" },
          h("h2", {}, t("open_tables")),
          h("button", { class: "link", onclick: load }, t("refresh"))),
        renderTables()),
      h("section", { class: "lobby-create" }, renderCreate()),
    ));
  }

  // With friends: type the room number someone sent; or quick match, one button per game.
  function renderFriends() {
    const input = h("input", {
      id: "room-number-input", name: "number", inputmode: "numeric", autocomplete: "off", maxlength: 9,
      placeholder: t("room_number_placeholder"), value: state.number, "aria-label": t("join_by_number"),
      oninput: (e) => { state.number = e.target.value; },
    });
    return h("section", { class: "lobby-friends card-panel" },
      h("form", {
        class: "join-number", id: "join-number-form",
        onsubmit: async (e) => {
          e.preventDefault();
          const n = state.number.replace(/[\s#]/g, "");
          if (!n) return;
          try {
            const table = await api.room(n);
            ctx.navigate(`/t/${encodeURIComponent(table.id)}`);
          } catch (err) {
            if (err instanceof ApiError && err.status === 401) { ctx.sessionExpired(); return; }
            state.joinError = err instanceof ApiError ? errorText(err.error) : err.message;
            render();
          }
        },
      },
      h("label", { class: "join-label", for: "room-number-input" }, t("join_by_number")),
      input,
      h("button", { class: "primary", type: "submit", id: "join-number" }, t("join"))),
      state.joinError ? h("p", { class: "form-error", role: "alert", id: "join-error" }, state.joinError) : null,
      h("div", { class: "quick-list" },
        h("span", { class: "quick-label" }, t("quick_match")),
        state.games.map((g) => h("button", {
          class: "quick small", type: "button", dataset: { game: g.name }, disabled: state.busy,
          onclick: () => quick(g),
        }, tx(g.display) || g.name))));
  }

  async function quick(g) {
    state.busy = true;
    render();
    try {
      const table = await api.quick(g.name);
      state.busy = false;
      ctx.navigate(`/t/${encodeURIComponent(table.id)}`);
    } catch (e) {
      state.busy = false;
      if (e instanceof ApiError && e.status === 401) { ctx.sessionExpired(); return; }
      state.joinError = e instanceof ApiError ? errorText(e.error) : e.message;
      render();
    }
  }

  function renderGame(g) {
    const seats = g.min_seats === g.max_seats ? t("seats_exact", { n: g.min_seats })
      : t("seats_range", { min: g.min_seats, max: g.max_seats });
    const count = state.tables.filter((tb) => tb.game === g.name).length;
    return h("button", {
      class: ["game-tile", g.name === state.selected ? "selected" : null],
      role: "listitem", dataset: { game: g.name },
      onclick: () => {
        state.selected = g.name;
        sessionStorage.setItem(SELECTED_KEY, g.name);
        state.error = null;
        state.errorOption = null;
        render();
      },
    },
    h("span", { class: "game-name" }, tx(g.display) || g.name),
    h("span", { class: "game-meta" }, seats, count ? ` · ${t("game_n_tables", { n: count })}` : ""));
  }

  function renderTables() {
    if (!state.tables.length) return h("p", { class: "muted" }, t("no_tables"));
    return h("div", {}, renderTableList(), state.next
      ? h("button", { class: "link", id: "more-tables", disabled: state.busy, onclick: more }, t("more_tables"))
      : null);
  }

  // The lobby comes a page at a time (the room may hold thousands of tables): the next page is added below.
  async function more() {
    if (!state.next) return;
    try {
      const page = await api.tables(null, state.next);
      if (!alive) return;
      const seen = new Set(state.tables.map((tb) => tb.id));
      state.tables = state.tables.concat((page.tables ?? []).filter((tb) => !seen.has(tb.id)));
      state.next = page.next ?? null;
      state.paged = true;
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) { ctx.sessionExpired(); return; }
      state.loadError = e.message;
    }
    refillTables();
  }

  function refillTables() {
    const list = ctx.main.querySelector(".lobby-tables");
    if (!list) return;
    // Re-render only the list so a half-typed form keeps its focus.
    fill(list, h("div", { class: "section-head" },
      h("h2", {}, t("open_tables")), h("button", { class: "link", onclick: load }, t("refresh"))),
    renderTables());
  }

  function renderTableList() {
    return h("ul", { class: "table-list" }, state.tables.map((tb) => {
      const g = gameOf(tb.game);
      const seats = tb.seats || [];
      const taken = seats.filter((s) => s.player || s.bot).length;
      return h("li", { class: "table-row", dataset: { table: tb.id } },
        h("span", { class: "table-game" }, g ? tx(g.display) : tb.game),
        h("span", { class: "table-id muted" }, tb.number ? t("room_n", { n: tb.number }) : `#${tb.id}`),
        h("span", { class: "table-seats" }, seats.map((s) => h("span", {
          class: ["seat-chip", s.player ? "person" : s.bot ? "bot" : "empty"],
        }, s.player ? avatar(s.player.id, 16, s.player.nickname) : null,
        s.player ? s.player.nickname : s.bot ? botName(s.seat) : t("empty_seat")))),
        h("span", { class: "table-status muted" }, `${taken}/${seats.length} · ${t(`status_${tb.status || "waiting"}`)}`),
        ratedBadge(tb.rated),
        h("button", { class: "primary small", onclick: () => ctx.navigate(`/t/${encodeURIComponent(tb.id)}`) },
          tb.status === "waiting" || seats.some((x) => x.player && me && x.player.id === me.id) ? t("join") : t("watch")));
    }));
  }

  function formState(g) {
    if (!state.values[g.name]) state.values[g.name] = { rules: {}, table: {}, private: false, casual: false };
    return state.values[g.name];
  }

  function tableOptions(g) {
    // The card room lists the decision windows apart from the rules (a rule may share a name with them).
    if (Array.isArray(g.table_options) && g.table_options.length) return g.table_options;
    return Object.entries(WINDOW_DEFAULTS).map(([name, def]) => ({
      name, type: "float", default: def, zh: null, en: null, min: 0, max: 3600, choices: null,
    }));
  }

  function renderCreate() {
    const g = gameOf(state.selected);
    if (!g) return null;
    const values = formState(g);
    const rules = g.options || [];
    const windows = tableOptions(g);
    const error = state.error ? h("p", { class: "form-error", role: "alert", id: "create-error" }, state.error) : null;
    return h("form", {
      class: "card-panel create-form", id: "create-form", novalidate: true,
      onsubmit: (e) => { e.preventDefault(); submit(g, rules, windows); },
    },
    h("div", { class: "form-head" },
      h("h2", {}, t("create_table"), " · ", tx(g.display)),
      h("a", {
        class: "rules-link", id: "rules-link", href: `/rules/${encodeURIComponent(g.name)}`,
        onclick: (e) => { e.preventDefault(); ctx.navigate(`/rules/${encodeURIComponent(g.name)}`); },
      }, t("rules"))),
    rules.length ? h("details", {
      class: "rules", open: rules.length <= FEW_OPTIONS || values.rulesOpen || (state.errorOption && state.errorScope !== "table"),
      ontoggle: (e) => { values.rulesOpen = e.target.open; },
    },
    h("summary", {}, t("rule_options"), h("span", { class: "muted" }, ` (${rules.length})`),
      h("span", { class: "muted summary-hint" }, t("defaults_hint"))),
    h("fieldset", {}, rules.map((o) => field(o, values.rules, "opt", state.errorScope !== "table")))) : null,
    h("fieldset", {},
      h("legend", {}, t("windows")),
      windows.map((o) => field({ ...o, zh: o.zh || t(o.name), en: o.en || t(o.name), window: true }, values.table, "win",
        state.errorScope === "table")),
      h("label", { class: "check" },
        h("input", {
          type: "checkbox", name: "private", id: "opt-private", checked: values.private,
          onchange: (e) => { values.private = e.target.checked; },
        }),
        h("span", {}, t("private_table"))),
      h("label", { class: "check", title: t("rated_casual_hint") },
        h("input", {
          type: "checkbox", name: "casual", id: "opt-casual", checked: values.casual,
          onchange: (e) => { values.casual = e.target.checked; },
        }),
        h("span", {}, t("casual_choice")))),
    error,
    h("div", { class: "form-actions" },
      h("button", {
        type: "button", class: "link",
        onclick: () => { delete state.values[g.name]; state.error = null; state.errorOption = null; render(); },
      }, t("defaults")),
      h("button", { type: "submit", class: "primary", id: "create-submit", disabled: state.busy }, t("create"))));
  }

  function field(o, values, prefix, mayBeInvalid) {
    const value = o.name in values ? values[o.name] : o.default;
    const label = tx({ zh: o.zh, en: o.en }) || o.name;
    const invalid = mayBeInvalid && state.errorOption === o.name;
    const id = `${prefix}-${o.name}`;
    const set = (v) => { values[o.name] = v; };
    let input;
    if (o.type === "bool") {
      return h("label", { class: ["check", invalid ? "invalid" : null] },
        h("input", { type: "checkbox", id, name: o.name, checked: !!value, onchange: (e) => set(e.target.checked) }),
        h("span", {}, label));
    }
    if (o.choices && o.choices.length) {
      input = h("select", { id, name: o.name, onchange: (e) => set(o.choices[Number(e.target.value)]) },
        o.choices.map((c, i) => h("option", { value: String(i), selected: c === value },
          o.choice_labels ? tx(o.choice_labels[i]) : choiceLabel(c))));
    } else if (o.type === "int" || o.type === "float") {
      input = h("input", {
        type: "number", id, name: o.name, inputmode: o.type === "int" ? "numeric" : "decimal",
        step: o.type === "int" ? "1" : "any", min: o.window ? 0 : o.min ?? null, max: o.max ?? null, value: String(value ?? ""),
        oninput: (e) => set(e.target.value === "" ? null : Number(e.target.value)),
      });
    } else if (o.type === "str") {
      input = h("input", { type: "text", id, name: o.name, value: value ?? "", oninput: (e) => set(e.target.value) });
    } else {
      const text = value && typeof value === "object" && "__json" in value ? value.__json : JSON.stringify(value ?? null);
      input = h("input", {
        type: "text", id, name: o.name, value: text, title: t("options_json_hint"),
        oninput: (e) => set({ __json: e.target.value }),
      });
    }
    const range = o.window && o.min ? h("span", { class: "range muted", title: t("window_hint", { min: o.min }) },
      `0 · ${o.min}–${o.max ?? ""}`)
      : o.min != null || o.max != null ? h("span", { class: "range muted" }, `${o.min ?? ""}–${o.max ?? ""}`) : null;
    return h("label", { class: ["field", invalid ? "invalid" : null], for: id },
      h("span", { class: "field-label" }, label, range), input);
  }

  function choiceLabel(c) {
    if (c && typeof c === "object") return tx(c);
    if (c === true) return t("yes");
    if (c === false) return t("no");
    return String(c);
  }

  async function submit(g, rules, windows) {
    const values = formState(g);
    const config = {};
    try {
      for (const o of rules) {
        if (!(o.name in values.rules)) continue;
        const v = values.rules[o.name];
        config[o.name] = v && typeof v === "object" && "__json" in v ? JSON.parse(v.__json) : v;
      }
    } catch (e) {
      state.error = e.message;
      render();
      return;
    }
    const body = { game: g.name, config, private: !!values.private };
    if (values.casual) body.rated = false; // casual: the match books nothing (left out: rated if people fill it)
    for (const o of windows) if (o.name in values.table) body[o.name] = values.table[o.name];
    // A window is 0 (untimed) or at least its minimum: a person needs time to decide.
    const short = windows.find((o) => o.min && typeof body[o.name] === "number" && body[o.name] !== 0 && body[o.name] < o.min);
    if (short) {
      state.error = `${t("err_window_too_short")} (${tx({ zh: short.zh, en: short.en }) || short.name})`;
      state.errorOption = short.name;
      state.errorScope = "table";
      render();
      return;
    }
    state.busy = true;
    state.error = null;
    state.errorOption = null;
    render();
    try {
      const table = await api.createTable(body);
      state.busy = false;
      const q = table.invite ? `?invite=${encodeURIComponent(table.invite)}` : "";
      ctx.navigate(`/t/${encodeURIComponent(table.id)}${q}`);
    } catch (e) {
      state.busy = false;
      if (e instanceof ApiError && e.status === 401) { ctx.sessionExpired(); return; }
      state.error = e instanceof ApiError ? errorText(e.error) : e.message;
      state.errorOption = e.option;
      state.errorScope = windows.some((o) => o.name === e.option) && !(e.option in config) ? "table" : "rules";
      render();
    }
  }

  load();
  timer = setInterval(() => { if (!state.busy) refreshTables(); }, 5000);

  async function refreshTables() {
    if (state.paged) return; // a person reading further pages: keep the list still until they refresh
    try {
      const tables = await api.tables();
      if (!alive || state.paged) return;
      const next = Array.isArray(tables) ? tables : (tables?.tables ?? []);
      if (JSON.stringify(next) !== JSON.stringify(state.tables)) {
        state.tables = next;
        state.next = tables?.next ?? null;
        refillTables();
      }
    } catch { /* the next tick retries */ }
  }

  return {
    destroy() { alive = false; clearInterval(timer); },
    rerender: render,
  };
}
