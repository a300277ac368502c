// Entry point: header, nickname on first visit, and the two pages (lobby at "/", a table at "/t/<id>").

import { ApiError, forgetSession, player, request, startSession, token } from "./api.js";
import { fill, h, icon, toast } from "./dom.js";
import { lang, onLangChange, setLang, t } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { onPrefChange, pref, setPref } from "./prefs.js";
import { showRules } from "./rules.js";
import { showTable } from "./table.js";

const main = document.getElementById("main");
const header = document.getElementById("header");
let page = null; // the current page: {destroy(), rerender()}

function renderHeader() {
  const me = player();
  fill(header,
    h("a", { class: "brand", href: "/", onclick: (e) => { e.preventDefault(); navigate("/"); } },
      h("span", { class: "brand-mark" }, "牌"), h("span", { class: "brand-name" }, t("app"))),
    h("span", { class: "spacer" }),
    me ? h("button", { class: "link me", title: t("change_name"), onclick: askNickname }, me.nickname) : null,
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
  h("button", { class: "primary", type: "submit" }, t("enter")));
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
  const ctx = { main, navigate, sessionExpired, toast };
  const rules = /^\/rules\/([^/]+)\/?$/.exec(location.pathname);
  if (rules) { // the rules need no nickname
    page = showRules(ctx, decodeURIComponent(rules[1]));
    return;
  }
  if (!token()) {
    askNickname();
    return;
  }
  const m = /^\/t\/([^/]+)\/?$/.exec(location.pathname);
  page = m ? showTable(ctx, decodeURIComponent(m[1]), new URLSearchParams(location.search).get("invite"))
    : showLobby(ctx);
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
    await request("GET", "/api/session");
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) sessionExpired();
  }
}

renderHeader();
route();
checkSession();
