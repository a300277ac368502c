// The skill rating beside the score (issue 35): the shown value μ − 3σ, "provisional" under 10 rated matches,
// a chart of it over time drawn here as plain SVG (no library), and each person's change after a rated match.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** A rating as text: one decimal, with the provisional mark. */
export function ratingText(r) {
  return `${r.rating.toFixed(1)}${r.provisional ? ` (${t("provisional")})` : ""}`;
}

/** A change as text: signed, one decimal. */
export function deltaText(d) {
  const v = Math.round(d * 10) / 10;
  return `${v > 0 ? "+" : v < 0 ? "−" : "±"}${Math.abs(v).toFixed(1)}`;
}

/** The rating after each rated match of one game, as a line chart (x: the match's place, y: the rating). */
export function ratingChart(points, game) {
  const w = 320, hgt = 120, pad = 8;
  const chart = svg("svg", { viewBox: `0 0 ${w} ${hgt}`, class: "rating-chart", role: "img",
    "data-game": game, "data-points": points.length, "aria-label": t("rating_chart") });
  if (!points.length) return chart;
  const ys = points.map((p) => p.rating);
  const lo = Math.min(...ys), hi = Math.max(...ys);
  const span = hi - lo || 1;
  const x = (i) => pad + (points.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (points.length - 1));
  const y = (v) => hgt - pad - ((v - lo) * (hgt - 2 * pad)) / span;
  chart.appendChild(svg("polyline", { points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" "),
    fill: "none", stroke: "currentColor", "stroke-width": 2 }));
  points.forEach((p, i) => {
    const dot = svg("circle", { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3, fill: "currentColor" });
    const title = svg("title", {});
    title.textContent = `${p.rating.toFixed(1)} (${deltaText(p.delta)})`;
    dot.appendChild(title);
    chart.appendChild(dot);
  });
  return chart;
}

/** The profile's rating panel: the current rating per game and its chart. */
export function ratingPanel(data, gameName) {
  const ratings = Object.entries(data.ratings || {});
  const history = data.rating_history || [];
  return h("section", { class: "card-panel", id: "rating-panel" },
    h("h2", {}, t("rating")),
    ratings.length ? ratings.map(([game, r]) => h("div", { class: "rating-game", dataset: { game } },
      h("p", {}, gameName(game), " · ", h("strong", { class: "rating-value", dataset: { provisional: String(r.provisional) } }, ratingText(r)),
        " ", h("span", { class: "muted" }, t("rating_matches", { n: r.matches }))),
      ratingChart(history.filter((p) => p.game === game), game)))
      : h("p", { class: "muted" }, t("no_rating")),
    h("p", { class: "muted small-print" }, t("rating_hint")));
}

const asked = new Map();

/** The result panel's line of rating changes after a rated match: filled once the match is booked (asked
 * again a few times until it is); nothing for a casual match. */
export function ratingChanges(tableId, seats) {
  const el = h("p", { class: "rating-changes", id: "rating-changes" });
  const show = (got) => {
    const rows = (seats || []).filter((s) => s?.player && got.changes[s.player.id]).map((s) => {
      const c = got.changes[s.player.id];
      return h("span", { class: "rating-change", dataset: { player: s.player.id, delta: c.delta.toFixed(3) } },
        `${s.player.nickname} ${deltaText(c.delta)} → ${c.after.toFixed(1)}${c.provisional ? ` (${t("provisional")})` : ""}`);
    });
    el.replaceChildren(...(rows.length ? [h("span", { class: "muted" }, `${t("rating")}: `), ...rows] : []));
  };
  let job = asked.get(tableId);
  if (!job) {
    job = (async () => {
      for (let i = 0; i < 10; i++) {
        const got = await api.tableRatings(tableId);
        if (got.booked) return got;
        await new Promise((ok) => setTimeout(ok, 500 * (i + 1)));
      }
      return { changes: {} };
    })();
    asked.set(tableId, job);
  }
  job.then(show).catch(() => asked.delete(tableId));
  return el;
}
