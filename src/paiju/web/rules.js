// A game's rules, from docs/rules/<game>.md (and <game>.zh.md for Chinese) as the card room serves them at
// /api/rules/<game>: a page of its own (/rules/<game>) and the same text in a panel at the table.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { guideAgain } from "./guide.js";
import { renderMarkdown, slug } from "./markdown.js";

const cache = new Map(); // "game:lang" -> promise of the API's answer

function load(game, want) {
  const key = `${game}:${want}`;
  if (!cache.has(key)) {
    const p = api.rules(game, want);
    p.catch(() => cache.delete(key));
    cache.set(key, p);
  }
  return cache.get(key);
}

// Links between rule pages stay inside the client (game.md is the English page, game.zh.md the Chinese one);
// other repository paths are shown as plain text.
function link(href) {
  if (/^https?:\/\//.test(href) || href.startsWith("#")) return href;
  const m = /^(?:\.\/)?([a-z]+)(\.zh)?\.md(#.*)?$/.exec(href);
  return m ? `/rules/${m[1]}?lang=${m[2] ? "zh" : "en"}${m[3] || ""}` : null;
}

/** The rules of `game` as elements: a notice when shown in another language, the text, its contents. */
async function rulesBody(game, want = lang()) {
  const data = await load(game, want);
  const blocks = renderMarkdown(data.markdown, { link });
  const heads = blocks.filter((b) => b.tagName === "H2");
  const toc = heads.length > 2 ? h("nav", { class: "rules-toc", "aria-label": t("contents") },
    h("strong", {}, t("contents")),
    h("ol", {}, heads.map((el) => h("li", {}, h("a", {
      href: `#${el.id || slug(el.textContent)}`,
      onclick: (e) => { e.preventDefault(); el.scrollIntoView({ block: "start" }); },
    }, el.textContent))))) : null;
  const title = blocks[0]?.tagName === "H1" ? blocks.shift() : null;
  return [
    data.lang !== want ? h("p", { class: "rules-notice" }, t("rules_missing")) : null,
    h("article", { class: "rules-text", lang: data.lang === "zh" ? "zh-CN" : "en" }, title, toc, blocks),
  ];
}

/** The page /rules/<game>. */
export function showRules(ctx, game) {
  let alive = true;
  let asked = new URLSearchParams(location.search).get("lang"); // a link to the page in one language
  async function render() {
    const want = asked === "zh" || asked === "en" ? asked : lang();
    asked = null; // switching the interface language shows the rules in it
    document.title = `${t("rules")} · ${t("app")}`;
    const box = h("div", { class: "card-panel rules-page" }, h("p", { class: "muted" }, t("connecting")));
    fill(ctx.main, h("div", { class: "rules-wrap" },
      h("button", { class: "link back", onclick: () => (history.length > 1 ? history.back() : ctx.navigate("/")) },
        "‹ ", t("back_to_lobby")),
      h("button", { class: "small", id: "guide-again", onclick: (e) => { guideAgain(game); e.target.textContent = t("guide_again_done"); } },
        t("guide_again")), box));
    try {
      const body = await rulesBody(game, want);
      if (alive) fill(box, body);
    } catch {
      if (alive) fill(box, h("p", {}, t("rules_none")));
    }
  }
  render();
  return { destroy() { alive = false; }, rerender: render };
}

/** The same rules in a panel over the table (closing it leaves the table as it was). */
export function openRulesPanel(game, title) {
  document.getElementById("rules-panel")?.remove();
  const close = () => { panel.remove(); document.removeEventListener("keydown", onKey, true); };
  const onKey = (e) => { if (e.key === "Escape") { e.stopPropagation(); close(); } };
  const body = h("div", { class: "rules-scroll" }, h("p", { class: "muted" }, t("connecting")));
  const panel = h("div", {
    class: "modal-backdrop", id: "rules-panel", onclick: (e) => { if (e.target === e.currentTarget) close(); },
  }, h("div", { class: "modal rules-modal", role: "dialog", "aria-modal": "true", "aria-label": t("rules") },
    h("div", { class: "rules-modal-head" }, h("h2", {}, t("rules_title", { game: title })),
      h("span", { class: "spacer" }),
      h("a", { class: "small-link", href: `/rules/${encodeURIComponent(game)}`, target: "_blank", rel: "noopener" }, "↗"),
      h("button", { class: "small", id: "rules-close", onclick: close }, t("close"))),
    body));
  document.body.appendChild(panel);
  document.addEventListener("keydown", onKey, true);
  rulesBody(game).then((els) => fill(body, els), () => fill(body, h("p", {}, t("rules_none"))));
  panel.querySelector("#rules-close").focus({ preventScroll: true });
  return close;
}
