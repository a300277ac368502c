// A tiny element builder.  Text always goes in as text nodes, never as HTML: nicknames and every
// string from the server are data, not markup.

/**
 * h("button", {class: "x", onclick: fn, dataset: {card: "5m"}}, "label", child, [more, children])
 * Attributes whose value is null/undefined/false are skipped; `true` sets an empty attribute.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key === "class") el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "value" || key === "checked" || key === "disabled" || key === "selected") el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child == null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let toastTimer = null;

/** A short message at the bottom of the screen; `kind` is "error" or "info". */
export function toast(message, kind = "error") {
  let box = document.getElementById("toast");
  if (!box) {
    box = h("div", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.appendChild(box);
  }
  box.className = `toast show ${kind}`;
  box.textContent = message;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = `toast ${kind}`; }, kind === "error" ? 5000 : 2500);
}

/** Signed number for scores: +3, −2, 0. */
export function signed(n) {
  if (typeof n !== "number") return n == null ? "" : String(n);
  const r = Math.round(n * 100) / 100;
  if (r > 0) return `+${r}`;
  if (r < 0) return `−${Math.abs(r)}`;
  return "0";
}

export function scoreClass(n) {
  return typeof n !== "number" || n === 0 ? "zero" : n > 0 ? "pos" : "neg";
}

const SVG = "http://www.w3.org/2000/svg";
const ICONS = {
  // A loudspeaker, with sound waves (on) or a cross (off).
  sound: ["M3 9h4l5-4v14l-5-4H3z", "M15.5 8.5a5 5 0 0 1 0 7", "M18 6a8.5 8.5 0 0 1 0 12"],
  mute: ["M3 9h4l5-4v14l-5-4H3z", "M16 9l6 6", "M22 9l-6 6"],
  // A cup on a stand: the leaderboard.
  trophy: ["M7 4h10v5a5 5 0 0 1-10 0z", "M7 6H4a3 3 0 0 0 3 4", "M17 6h3a3 3 0 0 1-3 4", "M12 14v4", "M8 20h8"],
};

/** A small line icon drawn with SVG (no icon font or emoji needed). */
export function icon(name) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "20");
  svg.setAttribute("height", "20");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", `icon icon-${name}`);
  for (const d of ICONS[name] || []) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", "2");
    path.setAttribute("stroke-linecap", "round");
    path.setAttribute("stroke-linejoin", "round");
    svg.appendChild(path);
  }
  return svg;
}
