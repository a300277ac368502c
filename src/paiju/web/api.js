// The lobby's HTTP side of docs/protocol.md, and the session token kept in localStorage.

import { tx } from "./i18n.js";

const TOKEN_KEY = "paiju.token";
const PLAYER_KEY = "paiju.player";

export class ApiError extends Error {
  constructor(status, detail) {
    super(detailText(detail) || `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
  }

  /** The option a 422 names, when the server says which one (so the form can mark it). */
  get code() {
    const d = this.detail;
    return d && typeof d === "object" && !Array.isArray(d) ? d.code || null : null;
  }

  /** The error as the server sent it ({code, message, ...}), for `errorText`. */
  get error() {
    const d = this.detail;
    return d && typeof d === "object" && !Array.isArray(d) ? d : { message: this.message };
  }

  get option() {
    const d = this.detail;
    if (d && typeof d === "object" && !Array.isArray(d) && (d.option || d.field)) return d.option || d.field;
    if (Array.isArray(d) && d[0] && Array.isArray(d[0].loc)) return d[0].loc[d[0].loc.length - 1];
    const m = /option '([^']+)'/.exec((d && typeof d === "object" && d.message) || this.message);
    return m ? m[1] : null;
  }
}

function detailText(detail) {
  if (detail == null) return "";
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((d) => (d && d.msg ? `${(d.loc || []).slice(1).join(".")}: ${d.msg}` : String(d))).join("; ");
  }
  if (typeof detail === "object") {
    if (detail.zh || detail.en) return tx(detail); // the card room's text for people, in the chosen language
    return detail.message || detail.error || detail.detail || JSON.stringify(detail);
  }
  return String(detail);
}

// The card room answers {"error": {"code", "message", "zh", "en"}}; other servers say {"detail": ...}.
function errorDetail(data) {
  if (data && typeof data === "object") {
    if ("error" in data) return data.error;
    if ("detail" in data) return data.detail;
  }
  return data;
}

export function token() {
  try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
}

export function player() {
  try { return JSON.parse(localStorage.getItem(PLAYER_KEY) || "null"); } catch { return null; }
}

export function forgetSession() {
  try {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(PLAYER_KEY);
  } catch { /* nothing stored */ }
}

/** `withLink`: also return the `Link: <…>; rel="next"` address of a paged answer, as {data, next}. */
export async function request(method, path, body, withLink = false) {
  const headers = { Accept: "application/json" };
  const tok = token();
  if (tok) headers.Authorization = `Bearer ${tok}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, String(e && e.message ? e.message : e));
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = text; }
  }
  if (!res.ok) throw new ApiError(res.status, errorDetail(data));
  if (withLink) {
    const m = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("Link") || "");
    return { data, next: m ? m[1] : null };
  }
  return data;
}

export async function startSession(nickname) {
  return saveSession(await request("POST", "/api/session", { nickname }));
}

/** Keep a session the server gave (a guest's, a registration's, a login's). */
export function saveSession(data) {
  try {
    localStorage.setItem(TOKEN_KEY, data.token);
    localStorage.setItem(PLAYER_KEY, JSON.stringify(data.player));
  } catch { /* the cookie the server sets still identifies us */ }
  return data;
}

/** The player as the server says now (after a rename or a registration elsewhere). */
export function updatePlayer(p) {
  try { localStorage.setItem(PLAYER_KEY, JSON.stringify(p)); } catch { /* shown until reload */ }
}

export const api = {
  games: () => request("GET", "/api/games"),
  /** One page of the lobby (at most 50 tables); `cursor`: the `next` of the page before. */
  tables: (game, cursor) => {
    const q = new URLSearchParams();
    if (game) q.set("game", game);
    if (cursor) q.set("cursor", cursor);
    const qs = q.toString();
    return request("GET", qs ? `/api/tables?${qs}` : "/api/tables");
  },
  table: (id, invite) => request("GET", `/api/tables/${encodeURIComponent(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`),
  createTable: (body) => request("POST", "/api/tables", body),
  sit: (id, seat, invite) => request("POST", `/api/tables/${encodeURIComponent(id)}/sit`, invite ? { seat, invite } : { seat }),
  leave: (id) => request("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {}),
  fillBots: (id, strength) => request("POST", `/api/tables/${encodeURIComponent(id)}/bots`, strength ? { strength } : {}),
  removeBot: (id, seat) => request("POST", `/api/tables/${encodeURIComponent(id)}/bots/remove`, { seat }),
  start: (id) => request("POST", `/api/tables/${encodeURIComponent(id)}/start`, {}),
  ready: (id, ready) => request("POST", `/api/tables/${encodeURIComponent(id)}/ready`, { ready }),
  kickUnready: (id, seat) => request("POST", `/api/tables/${encodeURIComponent(id)}/kick`, { seat }),
  rules: (game, lang) => request("GET", `/api/rules/${encodeURIComponent(game)}?lang=${encodeURIComponent(lang)}`),
  rematch: (id, confirm) => request("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { confirm }),
  session: () => request("GET", "/api/session"),
  register: (body) => request("POST", "/api/accounts", body),
  login: (body) => request("POST", "/api/login", body),
  logout: () => request("POST", "/api/logout", {}),
  logoutAll: () => request("POST", "/api/logout-all", {}),
  changePassword: (password, newPassword) => request("POST", "/api/account/password", { password, new_password: newPassword }),
  deleteAccount: (password) => request("DELETE", "/api/account", { password }),
  player: (id, cursor) => request("GET", `/api/players/${encodeURIComponent(id)}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`),
  history: (id, cursor) => request("GET", `/api/players/${encodeURIComponent(id)}/history${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`),
  leaderboard: (game, sort) => request("GET", `/api/leaderboard?game=${encodeURIComponent(game)}${sort ? `&sort=${encodeURIComponent(sort)}` : ""}`, undefined, true),
  tableRatings: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/ratings`),
  page: (path) => request("GET", path, undefined, true),
  replay: (id, invite) => request("GET", `/api/tables/${encodeURIComponent(id)}/replay${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`),
  room: (number, invite) => request("GET", `/api/rooms/${encodeURIComponent(number)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`),
  quick: (game) => request("POST", "/api/quick", { game }),
  phrases: () => request("GET", "/api/phrases"),
  series: (id, invite) => request("GET", `/api/tables/${encodeURIComponent(id)}/series${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`),
  report: (id, seat, reason, invite, chat) => request("POST", `/api/tables/${encodeURIComponent(id)}/report`,
    { seat, reason, ...(invite ? { invite } : {}), ...(chat ? { chat } : {}) }),
  hostChatFilter: () => request("GET", "/api/host/chat-filter"),
  setHostChatFilter: (words) => request("POST", "/api/host/chat-filter", { words }),
  host: () => request("GET", "/api/host"),
  hostReports: (status) => request("GET", `/api/host/reports?status=${encodeURIComponent(status || "open")}`),
  hostLog: () => request("GET", "/api/host/log"),
  hostSignals: () => request("GET", "/api/host/signals"),
  hostAct: (path, body) => request("POST", `/api/host/${path}`, body || {}),
  replayViews: (id, from, to, invite) => request("GET", `/api/tables/${encodeURIComponent(id)}/replay/views?from=${from}&to=${to}${invite ? `&invite=${encodeURIComponent(invite)}` : ""}`),
};

export function wsUrl(tableId, invite) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const q = new URLSearchParams();
  const tok = token();
  if (tok) q.set("token", tok);
  if (invite) q.set("invite", invite);
  const qs = q.toString();
  return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${qs ? `?${qs}` : ""}`;
}
