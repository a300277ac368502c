// Avatars drawn from a player's id (issue 38): no uploads, so nothing to store, moderate or leak, and the same
// picture wherever the player appears (lobby seats, the table, profiles, the leaderboard).  A 5×5 pattern,
// mirrored left to right so it reads as a face-like mark, in one colour chosen from the id; ids are random
// tokens, so two players' pictures differ in about 2^15 × 24 ways.

const SVG = "http://www.w3.org/2000/svg";

/** 32-bit FNV-1a over the id's UTF-16 code units: stable across browsers, no crypto needed. */
function hash(text) {
  let x = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    x ^= text.charCodeAt(i);
    x = Math.imul(x, 0x01000193) >>> 0;
  }
  return x >>> 0;
}

/** The avatar's drawing, from the id alone: its colour and the filled cells of the left three columns. */
export function avatarCells(id) {
  let x = hash(String(id)) || 1;
  const next = () => { // xorshift32: more bits than one hash gives
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x;
  };
  const hue = (next() % 24) * 15;
  const bits = next();
  const cells = [];
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 3; col++) {
      if (bits & (1 << (row * 3 + col))) cells.push([row, col]);
    }
  }
  if (!cells.length) cells.push([2, 2]);
  return { hue, cells };
}

/** An <svg> avatar of `size` px for the player `id`, labelled for screen readers by `name`. */
export function avatar(id, size = 24, name = "") {
  const { hue, cells } = avatarCells(id);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 7 7");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("class", "avatar");
  svg.setAttribute("data-avatar", String(id));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", name || "");
  const rect = (x, y, w, h, fill) => {
    const r = document.createElementNS(SVG, "rect");
    r.setAttribute("x", String(x)); r.setAttribute("y", String(y));
    r.setAttribute("width", String(w)); r.setAttribute("height", String(h));
    r.setAttribute("fill", fill);
    svg.append(r);
  };
  rect(0, 0, 7, 7, `hsl(${hue} 45% 92%)`);
  const ink = `hsl(${hue} 55% 40%)`;
  for (const [row, col] of cells) {
    rect(1 + col, 1 + row, 1, 1, ink);
    if (col < 2) rect(5 - col, 1 + row, 1, 1, ink);
  }
  return svg;
}
