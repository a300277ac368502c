// A small Markdown renderer for the rules pages (docs/rules/<game>.md): headings, paragraphs, lists (nested by
// indentation), tables, block quotes, code blocks, rules, and inline code, bold, italics and links.  It builds
// elements with `h`, so nothing in the text is ever parsed as HTML.

import { h } from "./dom.js";

const CJK = /[\u3000-\u9fff\uff00-\uffef]/;

/** Join wrapped lines: no space between two Chinese characters, one space otherwise. */
function joinLines(lines) {
  let out = "";
  for (const line of lines.map((l) => l.trim())) {
    if (!line) continue;
    if (out && !(CJK.test(out.at(-1)) && CJK.test(line[0]))) out += " ";
    out += line;
  }
  return out;
}

export function slug(text) {
  return String(text).toLowerCase().replace(/[`*_]/g, "").trim().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "");
}

/** Inline Markdown → a list of strings and elements.  `link(href)` maps a link to a URL or null (plain text). */
export function inline(text, link = defaultLink) {
  const out = [];
  const re = /(`+)([\s\S]*?)\1|\*\*([\s\S]+?)\*\*|__([\s\S]+?)__|\*([^*\s][^*]*?)\*|(?<![\w])_([^_\s][^_]*?)_(?![\w])|\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<(https?:\/\/[^>\s]+)>|\\([\\`*_[\]()<>#|-])/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[2] !== undefined) out.push(h("code", {}, m[2].trim()));
    else if (m[3] !== undefined || m[4] !== undefined) out.push(h("strong", {}, inline(m[3] ?? m[4], link)));
    else if (m[5] !== undefined || m[6] !== undefined) out.push(h("em", {}, inline(m[5] ?? m[6], link)));
    else if (m[7] !== undefined) {
      const href = link(m[8]);
      const inner = inline(m[7], link);
      out.push(href ? h("a", { href, ...(/^https?:/.test(href) ? { target: "_blank", rel: "noopener noreferrer" } : {}) }, inner)
        : h("span", { class: "md-link" }, inner));
    } else if (m[9] !== undefined) out.push(h("a", { href: m[9], target: "_blank", rel: "noopener noreferrer" }, m[9]));
    else if (m[10] !== undefined) out.push(m[10]);
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function defaultLink(href) {
  if (/^https?:\/\//.test(href) || href.startsWith("#")) return href;
  return null;
}

function splitRow(line) {
  let s = line.trim();
  if (s.startsWith("|")) s = s.slice(1);
  if (s.endsWith("|") && !s.endsWith("\\|")) s = s.slice(0, -1);
  const cells = [];
  let cur = "";
  let code = false;
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i];
    if (c === "\\" && s[i + 1] === "|") { cur += "|"; i += 1; continue; }
    if (c === "`") code = !code;
    if (c === "|" && !code) { cells.push(cur.trim()); cur = ""; continue; }
    cur += c;
  }
  cells.push(cur.trim());
  return cells;
}

const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;

/** Markdown text → an array of block elements.  `opts.link(href)` maps links; headings get ids from `slug`. */
export function renderMarkdown(text, opts = {}) {
  const link = opts.link || defaultLink;
  const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
  const blocks = [];
  let i = 0;
  const isBlank = (l) => !l || !l.trim();
  const startsBlock = (l) => /^(#{1,6})\s/.test(l) || /^```/.test(l.trim()) || /^\s*>/.test(l) || LIST_ITEM.test(l)
    || /^\s*\|/.test(l) || /^\s*([-*_])(\s*\1){2,}\s*$/.test(l);

  function list(baseIndent) {
    const first = LIST_ITEM.exec(lines[i]);
    const ordered = /\d/.test(first[2]);
    const items = [];
    while (i < lines.length) {
      const m = LIST_ITEM.exec(lines[i]);
      if (!m || m[1].length < baseIndent) break;
      if (m[1].length > baseIndent) { // a nested list belongs to the item before
        const sub = list(m[1].length);
        if (items.length) items.at(-1).push(sub);
        continue;
      }
      const body = [m[3]];
      i += 1;
      while (i < lines.length && !isBlank(lines[i]) && !LIST_ITEM.test(lines[i]) && !startsBlock(lines[i].trimStart())) {
        body.push(lines[i]);
        i += 1;
      }
      items.push([inline(joinLines(body), link)]);
      if (i < lines.length && isBlank(lines[i]) && LIST_ITEM.test(lines[i + 1] || "")
          && LIST_ITEM.exec(lines[i + 1])[1].length >= baseIndent) i += 1; // a loose list goes on
    }
    return h(ordered ? "ol" : "ul", {}, items.map((parts) => h("li", {}, parts)));
  }

  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) { i += 1; continue; }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const level = heading[1].length;
      blocks.push(h(`h${level}`, { id: slug(heading[2]) }, inline(heading[2], link)));
      i += 1;
      continue;
    }
    if (/^```/.test(line.trim())) {
      const body = [];
      i += 1;
      while (i < lines.length && !/^```/.test(lines[i].trim())) { body.push(lines[i]); i += 1; }
      i += 1;
      blocks.push(h("pre", {}, h("code", {}, body.join("\n"))));
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) { blocks.push(h("hr")); i += 1; continue; }
    if (/^\s*>/.test(line)) {
      const body = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) { body.push(lines[i].replace(/^\s*>\s?/, "")); i += 1; }
      blocks.push(h("blockquote", {}, renderMarkdown(body.join("\n"), opts)));
      continue;
    }
    if (LIST_ITEM.test(line)) { blocks.push(list(LIST_ITEM.exec(line)[1].length)); continue; }
    if (/^\s*\|/.test(line) && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1] || "")) {
      const head = splitRow(line);
      const align = splitRow(lines[i + 1]).map((c) => (/^:-+:$/.test(c) ? "center" : /-+:$/.test(c) ? "right" : null));
      i += 2;
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) { rows.push(splitRow(lines[i])); i += 1; }
      const cell = (tag, text, k) => h(tag, { style: align[k] ? { textAlign: align[k] } : null }, inline(text, link));
      blocks.push(h("div", { class: "md-table" }, h("table", {},
        h("thead", {}, h("tr", {}, head.map((c, k) => cell("th", c, k)))),
        h("tbody", {}, rows.map((r) => h("tr", {}, head.map((_c, k) => cell("td", r[k] ?? "", k))))))));
      continue;
    }
    const body = [];
    while (i < lines.length && !isBlank(lines[i]) && !(body.length && startsBlock(lines[i]))) {
      body.push(lines[i]);
      i += 1;
    }
    blocks.push(h("p", {}, inline(joinLines(body), link)));
  }
  return blocks;
}
