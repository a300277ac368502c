// Logging in and registering (at "/login"), and the account panel of your own record page.

import { api, ApiError, forgetSession, player, saveSession, token } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";

function field(id, label, attrs, hint) {
  return h("label", { class: "field stacked", for: id },
    h("span", { class: "field-label" }, label, hint ? h("span", { class: "muted field-hint" }, ` ${hint}`) : null),
    h("input", { id, name: id, ...attrs }));
}

/** The login and register forms; `done` runs once a session is stored. */
export function showLogin(ctx, done) {
  const me = player();
  function form(kind) {
    const error = h("p", { class: "form-error", role: "alert", id: `${kind}-error` });
    const fields = kind === "login"
      ? [field(`${kind}-username`, t("username"), { autocomplete: "username", required: true, maxlength: 64 }),
        field(`${kind}-password`, t("password"), { type: "password", autocomplete: "current-password", required: true })]
      : [field(`${kind}-username`, t("username"), { autocomplete: "username", required: true, maxlength: 32 }, t("username_hint")),
        field(`${kind}-password`, t("password"), { type: "password", autocomplete: "new-password", required: true, minlength: 8 }, t("password_hint")),
        field(`${kind}-nickname`, t("nickname_placeholder"), { maxlength: 24, autocomplete: "nickname", value: me?.nickname || "" })];
    return h("form", {
      class: "card-panel account-form", id: `${kind}-form`,
      onsubmit: async (e) => {
        e.preventDefault();
        const get = (name) => ctx.main.querySelector(`#${kind}-${name}`)?.value ?? "";
        const body = { username: get("username").trim(), password: get("password") };
        if (kind === "register" && get("nickname").trim()) body.nickname = get("nickname").trim();
        try {
          saveSession(kind === "login" ? await api.login(body) : await api.register(body));
          done();
        } catch (err) {
          error.textContent = err instanceof ApiError && err.status === 429 ? `${err.message}` : err.message;
        }
      },
    },
    h("h2", {}, kind === "login" ? t("login_title") : t("register_title")),
    kind === "register" ? h("p", { class: "muted" }, t("register_hint")) : null,
    fields, error,
    h("div", { class: "form-actions" }, h("button", { class: "primary", type: "submit", id: `${kind}-submit` },
      kind === "login" ? t("login") : t("register"))));
  }
  function render() {
    document.title = `${t("login_or_register")} · ${t("app")}`;
    fill(ctx.main, h("div", { class: "account-page" }, form("login"), form("register"),
      token() ? null : h("p", { class: "center" }, h("button", { class: "link", id: "as-guest", onclick: () => ctx.askNickname() },
        t("play_as_guest"))),
      h("p", { class: "muted center small-print" }, t("points_no_cash"))));
  }
  render();
  return { destroy() {}, rerender: render };
}

/** Your own account: change the password, log out here or everywhere, delete the account. */
export function accountPanel(ctx, session, onChange) {
  const account = session?.account;
  if (!account) {
    return h("section", { class: "card-panel account-panel" },
      h("p", {}, t("guest_note")),
      h("div", { class: "form-actions" },
        h("button", { class: "primary", id: "go-register", onclick: () => ctx.navigate("/login") }, t("register")),
        h("button", {
          id: "logout",
          onclick: async () => {
            try { await api.logout(); } catch { /* gone already */ }
            forgetSession();
            onChange();
          },
        }, t("logout"))));
  }
  const status = h("p", { class: "form-error", role: "alert", id: "account-status" });
  const run = async (fn, after) => {
    try {
      await fn();
      after();
    } catch (e) {
      status.textContent = e.message;
    }
  };
  const pw = h("form", {
    id: "password-form", class: "inline-form",
    onsubmit: (e) => {
      e.preventDefault();
      const old = pw.querySelector("#old-password").value;
      const fresh = pw.querySelector("#new-password").value;
      run(() => api.changePassword(old, fresh), () => { pw.reset(); status.textContent = t("password_changed"); });
    },
  },
  field("old-password", t("current_password"), { type: "password", autocomplete: "current-password", required: true }),
  field("new-password", t("new_password"), { type: "password", autocomplete: "new-password", required: true, minlength: 8 }, t("password_hint")),
  h("button", { type: "submit", id: "password-submit" }, t("change_password")));
  const leave = async (fn) => {
    try { await fn(); } catch { /* the session may be gone already */ }
    forgetSession();
    onChange();
  };
  const confirmBox = h("p", { class: "delete-confirm", id: "delete-confirm", hidden: true, role: "group" },
    h("span", {}, t("delete_confirm")), " ",
    h("button", {
      class: "danger small", id: "delete-yes",
      onclick: () => {
        const password = pw.querySelector("#old-password").value;
        run(() => api.deleteAccount(password), () => { forgetSession(); onChange(); });
      },
    }, t("delete_account")), " ",
    h("button", { class: "small", id: "delete-no", onclick: () => { confirmBox.hidden = true; } }, t("cancel")));
  return h("section", { class: "card-panel account-panel" },
    h("h2", {}, t("account_of", { name: account.username })),
    pw,
    h("div", { class: "form-actions" },
      h("button", { id: "logout", onclick: () => leave(api.logout) }, t("logout")),
      h("button", { id: "logout-all", onclick: () => leave(api.logoutAll) }, t("logout_all")),
      h("button", {
        class: "danger", id: "delete-account",
        onclick: () => {
          const password = pw.querySelector("#old-password").value;
          if (!password) { status.textContent = `${t("current_password")}?`; pw.querySelector("#old-password").focus(); return; }
          confirmBox.hidden = false; // asked on the page itself: in-app browsers may block confirm()
          confirmBox.querySelector("#delete-yes").focus();
        },
      }, t("delete_account"))),
    confirmBox,
    status);
}
