// Entry point: header, nickname on first visit, and the pages: lobby "/", a table "/t/<id>", log in "/login",
// your record "/me", a player's "/players/<id>", "/leaderboard", a replay "/replay/<id>".

import { showLogin } from "./account.js";
import { ApiError, forgetSession, player, request, startSession, token, updatePlayer } from "./api.js";
import { fill, h, icon, toast } from "./dom.js";
import { showRoomByNumber, showSeries } from "./friends.js";
import { showHost } from "./host.js";
import { lang, onLangChange, setLang, t } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { onPrefChange, pref, setPref } from "./prefs.js";
import { showReplay } from "./replay.js";
import { showRules } from "./rules.js";
import { showLeaderboard, showProfile } from "./scores.js";
import { showTable } from "./table.js";

const main = document.getElementById("main");
const header = document.getElementById("header");
let page = null; // the current page: {destroy(), rerender()}

function renderHeader() {
  const me = player();
  fill(header,
    h("a", { class: "brand", href: "/", onclick: (e) => { e.preventDefault(); navigate("/"); } },
      h("span", { class: "brand-mark" }, "牌"), h("span", { class: "brand-name" }, t("app"))),
    h("nav", { class: "site-nav" },
      h("a", { href: "/leaderboard", id: "nav-leaderboard", title: t("leaderboard"),
        onclick: (e) => { e.preventDefault(); navigate("/leaderboard"); } },
      icon("trophy"), h("span", { class: "nav-label" }, t("leaderboard")))),
    h("span", { class: "spacer" }),
    me ? h("a", { class: "me", id: "nav-me", href: "/me", title: t("my_profile"), onclick: (e) => { e.preventDefault(); navigate("/me"); } },
      me.nickname) : null,
    !me?.account ? h("a", { class: "nav-login", id: "nav-login", href: "/login", onclick: (e) => { e.preventDefault(); navigate("/login"); } },
      t("login_or_register")) : null,
    h("button", {
      class: "icon", id: "sound-toggle", "aria-pressed": pref("sound") ? "true" : "false",
      title: t(pref("sound") ? "sound_on" : "sound_off"), "aria-label": t(pref("sound") ? "sound_on" : "sound_off"),
      onclick: () => setPref("sound", !pref("sound")),
    }, icon(pref("sound") ? "sound" : "mute")),
    h("details", { class: "settings-menu", id: "settings" },
      h("summary", { title: t("settings"), "aria-label": t("settings") }, "⚙"),
      h("div", { class: "settings-box" },
        h("label", { class: "check" },
          h("input", { type: "checkbox", id: "pref-sound", checked: !!pref("sound"), onchange: (e) => setPref("sound", e.target.checked) }),
          h("span", {}, t("sound"))),
        h("label", { class: "check" },
          h("input", { type: "checkbox", id: "pref-confirm", checked: !!pref("confirm"), onchange: (e) => setPref("confirm", e.target.checked) }),
          h("span", {}, t("confirm_play"))))),
    h("button", {
      class: "lang", id: "lang-switch", "aria-label": "language / 语言",
      onclick: () => setLang(lang() === "zh" ? "en" : "zh"),
    }, t("lang_switch")),
  );
}

function askNickname() {
  if (page) page.destroy();
  page = null;
  const input = h("input", {
    id: "nickname", name: "nickname", maxlength: 24, required: true, autocomplete: "nickname",
    placeholder: t("nickname_placeholder"), value: player()?.nickname || "",
  });
  const error = h("p", { class: "form-error", role: "alert" });
  const form = h("form", {
    class: "card-panel nickname-form",
    onsubmit: async (e) => {
      e.preventDefault();
      const nickname = input.value.trim();
      if (!nickname) return;
      try {
        await startSession(nickname);
        renderHeader();
        route();
      } catch (err) {
        error.textContent = err.message;
      }
    },
  },
  h("p", { class: "tagline" }, h("span", { class: "brand-mark big" }, "牌"), t("tagline")),
  h("h1", {}, t("nickname_title")),
  h("p", { class: "muted" }, t("nickname_hint")),
  input, error,
  h("button", { class: "primary", type: "submit" }, t("enter")),
  h("button", { class: "link", type: "button", id: "to-login", onclick: () => navigate("/login") }, t("login_or_register")));
  fill(main, h("div", { class: "center-page" }, form));
  input.focus();
}

export function navigate(path) {
  if (path !== location.pathname + location.search) history.pushState(null, "", path);
  route();
}

/** Called by pages when the server no longer knows our token. */
export function sessionExpired() {
  forgetSession();
  renderHeader();
  askNickname();
}

function route() {
  if (page) page.destroy();
  page = null;
  renderHeader();
  const path = location.pathname;
  const query = new URLSearchParams(location.search);
  const ctx = { main, navigate, sessionExpired, toast, askNickname };
  // Pages anyone may read, with or without a session: replays, records, the leaderboard, the rules.
  let m = /^\/rules\/([^/]+)\/?$/.exec(path);
  if (m) { page = showRules(ctx, decodeURIComponent(m[1])); return; }
  m = /^\/replay\/([^/]+)\/?$/.exec(path);
  if (m) { page = showReplay(ctx, decodeURIComponent(m[1]), query.get("invite"), Number(query.get("step") ?? 0)); return; }
  m = /^\/players\/([^/]+)\/?$/.exec(path);
  if (m) { page = showProfile(ctx, decodeURIComponent(m[1]), player()?.id === decodeURIComponent(m[1])); return; }
  if (path === "/leaderboard") { page = showLeaderboard(ctx, query.get("game")); return; }
  m = /^\/series\/([^/]+)\/?$/.exec(path);
  if (m) { page = showSeries(ctx, decodeURIComponent(m[1]), query.get("invite")); return; }
  if (path === "/login") {
    page = showLogin(ctx, () => { renderHeader(); navigate(query.get("next") || "/"); });
    return;
  }
  if (!token()) {
    askNickname();
    return;
  }
  if (path === "/me") { page = showProfile(ctx, player()?.id, true); return; }
  if (path === "/host") { page = showHost(ctx); return; }
  m = /^\/r\/([^/]+)\/?$/.exec(path);
  if (m) { page = showRoomByNumber(ctx, decodeURIComponent(m[1]), query.get("invite")); return; }
  m = /^\/t\/([^/]+)\/?$/.exec(path);
  page = m ? showTable(ctx, decodeURIComponent(m[1]), query.get("invite")) : showLobby(ctx);
}

window.addEventListener("popstate", route);
// The settings menu closes when you click anywhere else.
document.addEventListener("click", (e) => {
  const menu = document.getElementById("settings");
  if (menu?.open && !menu.contains(e.target)) menu.open = false;
});
onPrefChange(() => {
  const open = document.getElementById("settings")?.open;
  renderHeader();
  if (open) document.getElementById("settings").open = true;
});
onLangChange(() => {
  renderHeader();
  if (page) page.rerender();
  else if (!token()) askNickname();
});

// A token the server no longer accepts (a new signing key, a wiped database) means a new nickname.
async function checkSession() {
  if (!token()) return;
  try {
    const data = await request("GET", "/api/session");
    if (data?.player) { updatePlayer(data.player); renderHeader(); }
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) sessionExpired();
  }
}

renderHeader();
route();
checkSession();
