// The hosts' page `/host`: open reports (close one, ban its player, kick them from the table, rename them),
// closing a table, and the log of every host's act.  Everything is an in-page form: no browser pop-ups.

import { api, ApiError } from "./api.js";
import { fill, h } from "./dom.js";
import { errorText, t } from "./i18n.js";

function when(at) {
  return new Date(at * 1000).toLocaleString();
}

export function showHost(ctx) {
  const s = { host: null, reports: [], log: [], signals: null, words: [], error: null, denied: false };
  let alive = true;

  async function load() {
    try {
      s.host = (await api.host()).host;
      [s.reports, s.log, s.signals, { words: s.words }] = await Promise.all([api.hostReports("open"), api.hostLog(),
        api.hostSignals(), api.hostChatFilter()]);
      s.error = null;
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) { ctx.sessionExpired(); return; }
      s.denied = e instanceof ApiError && e.status === 403;
      s.error = e instanceof ApiError ? errorText(e.error) : e.message;
    }
    render();
  }

  async function act(path, body, done) {
    try {
      await api.hostAct(path, body);
      ctx.toast(done, "info");
      await load();
    } catch (e) {
      ctx.toast(e instanceof ApiError ? errorText(e.error) : e.message);
    }
  }

  function reportRow(r) {
    const reason = h("input", { class: "host-reason", placeholder: t("host_reason"), maxlength: 200 });
    const pid = r.player_id;
    return h("li", { class: "host-report card-panel", dataset: { report: String(r.id) } },
      h("div", {}, h("strong", {}, r.player_nickname || t("bot")), pid ? h("code", { class: "muted" }, ` ${pid}`) : null,
        " · ", t("seat_n", { n: r.seat + 1 }), " · ",
        h("a", { href: `/t/${encodeURIComponent(r.table_id)}`, onclick: (e) => { e.preventDefault(); ctx.navigate(`/t/${encodeURIComponent(r.table_id)}`); } },
          r.table_id)),
      h("p", { class: "report-reason" }, r.reason),
      r.chat ? h("blockquote", { class: "report-chat", dataset: { at: String(r.chat.at) } }, `“${r.chat.text}”`,
        h("span", { class: "muted" }, ` · ${when(r.chat.at)}`)) : null,
      h("p", { class: "muted" }, t("host_reported_by", { name: r.reporter_nickname, at: when(r.at) })),
      reason,
      h("div", { class: "form-actions" },
        h("button", { class: "small", dataset: { act: "close-report" },
          onclick: () => act(`reports/${r.id}/close`, { note: reason.value || null }, t("host_done")) }, t("host_close_report")),
        pid ? h("button", { class: "small", dataset: { act: "kick" },
          onclick: () => act(`tables/${encodeURIComponent(r.table_id)}/kick`, { seat: r.seat, reason: reason.value || null }, t("host_done")) },
        t("host_kick")) : null,
        pid ? h("button", { class: "small", dataset: { act: "ban" },
          onclick: () => act(`players/${encodeURIComponent(pid)}/ban`, { reason: reason.value || null }, t("host_done")) }, t("host_ban")) : null));
  }

  function byId(label, id, placeholder, fields, run) {
    const target = h("input", { id, placeholder, autocomplete: "off" });
    const extra = fields.map((f) => h("input", { id: `${id}-${f}`, placeholder: t(`host_${f}`), autocomplete: "off" }));
    return h("form", { class: "host-form", onsubmit: (e) => { e.preventDefault(); if (target.value.trim()) run(target.value.trim(), ...extra.map((x) => x.value)); } },
      h("span", { class: "field-label" }, label), target, extra, h("button", { class: "small", type: "submit" }, t("host_go")));
  }

  // Collusion signals (issue 34): who shared an address at a rated table, who keeps meeting there.  A reason to
  // look, never a verdict: the room blocks nothing by them, and the page shows players and tables, no address.
  function signalsSection() {
    const same = s.signals?.same_address || [];
    const pairs = s.signals?.keep_meeting || [];
    const who = (players) => players.map((p, i) => [i ? " · " : "", h("a", {
      href: `/players/${encodeURIComponent(p.id)}`,
      onclick: (e) => { e.preventDefault(); ctx.navigate(`/players/${encodeURIComponent(p.id)}`); },
    }, p.nickname || p.id), h("code", { class: "muted" }, ` ${p.id}`)]);
    const tableLink = (tid) => h("a", {
      href: `/t/${encodeURIComponent(tid)}`,
      onclick: (e) => { e.preventDefault(); ctx.navigate(`/t/${encodeURIComponent(tid)}`); },
    }, tid);
    return h("section", { class: "host-signals", id: "host-signals" },
      h("h2", {}, t("host_signals"), h("span", { class: "muted" }, ` (${same.length + pairs.length})`)),
      h("p", { class: "muted small-print" }, t("host_signals_hint")),
      same.length || pairs.length ? h("ul", { class: "host-signal-list" },
        same.map((x) => h("li", { class: "host-signal", dataset: { kind: "same_address", table: x.table } },
          h("strong", {}, t("host_same_address")), ": ", who(x.players), " · ", tableLink(x.table),
          h("span", { class: "muted" }, ` · ${when(x.at)}`))),
        pairs.map((x) => h("li", { class: "host-signal", dataset: { kind: "keep_meeting" } },
          h("strong", {}, t("host_keep_meeting")), ": ", who(x.players), " · ",
          h("span", { class: "muted" }, t("host_meetings", { n: x.tables })))))
        : h("p", { class: "muted", id: "host-no-signals" }, t("host_no_signals")));
  }

  // The chat filter (issue 38): one word a line; the room keeps each word's letters (full-width, zero-width and
  // spaced-out spellings count as the word) and masks them in every chat line.
  function filterSection() {
    const box = h("textarea", { id: "host-chat-filter", rows: 6, spellcheck: "false" }, s.words.join("\n"));
    return h("section", { class: "card-panel host-chat-filter" },
      h("h2", {}, t("host_chat_filter"), h("span", { class: "muted" }, ` (${s.words.length})`)),
      h("p", { class: "muted small-print" }, t("host_chat_filter_hint")),
      h("form", { onsubmit: async (e) => {
        e.preventDefault();
        try {
          s.words = (await api.setHostChatFilter(box.value.split("\n"))).words;
          ctx.toast(t("host_done"), "info");
          await load();
        } catch (err) {
          ctx.toast(err instanceof ApiError ? errorText(err.error) : err.message);
        }
      } }, box, h("div", { class: "form-actions" }, h("button", { class: "small", type: "submit", id: "host-chat-filter-save" }, t("save")))));
  }

  function render() {
    if (!alive) return;
    document.title = `${t("host_page")} · ${t("app")}`;
    if (!s.host) {
      fill(ctx.main, h("div", { class: "center-page" }, h("p", { id: "host-error" }, s.denied ? t("host_only") : s.error || t("connecting"))));
      return;
    }
    fill(ctx.main, h("div", { class: "host-page" },
      h("h1", {}, t("host_page"), h("span", { class: "muted" }, ` · ${s.host.name}`)),
      h("section", {}, h("h2", {}, t("host_reports"), h("span", { class: "muted" }, ` (${s.reports.length})`)),
        s.reports.length ? h("ul", { class: "host-reports", id: "host-reports" }, s.reports.map(reportRow))
          : h("p", { class: "muted", id: "host-reports" }, t("host_no_reports"))),
      h("section", { class: "card-panel host-tools" },
        byId(t("host_ban"), "host-ban-player", t("host_player_id"), ["reason"],
          (pid, reason) => act(`players/${encodeURIComponent(pid)}/ban`, { reason: reason || null }, t("host_done"))),
        byId(t("host_unban"), "host-unban-player", t("host_player_id"), [],
          (pid) => act(`players/${encodeURIComponent(pid)}/unban`, {}, t("host_done"))),
        byId(t("host_rename"), "host-rename-player", t("host_player_id"), ["nickname"],
          (pid, nickname) => act(`players/${encodeURIComponent(pid)}/rename`, { nickname }, t("host_done"))),
        byId(t("host_close_table"), "host-close-table", t("host_table_id"), ["reason"],
          (tid, reason) => act(`tables/${encodeURIComponent(tid)}/close`, { reason: reason || null }, t("host_done")))),
      signalsSection(),
      filterSection(),
      h("section", {}, h("h2", {}, t("host_log")),
        h("table", { class: "result-table", id: "host-log" },
          h("thead", {}, h("tr", {}, [t("host_when"), t("host_who"), t("host_what"), t("host_whom"), t("host_detail")].map((x) => h("th", {}, x)))),
          h("tbody", {}, s.log.map((e) => h("tr", { dataset: { action: e.action } },
            h("td", {}, when(e.at)), h("td", {}, e.host), h("td", {}, t(`host_act_${e.action}`)),
            h("td", {}, [e.player_id, e.table_id].filter(Boolean).join(" · ")),
            h("td", { class: "muted" }, e.detail ? JSON.stringify(e.detail) : ""))))))));
  }

  render();
  load();
  return { destroy() { alive = false; }, rerender: render };
}
