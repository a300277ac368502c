// Short card movements: a card played flies from its seat to the table; a finished trick flies to its winner.
// Nothing moves when the person asked for reduced motion (`prefers-reduced-motion: reduce`).

const QUERY = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

export function reducedMotion() {
  return !!(QUERY && QUERY.matches);
}

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** Cards that just arrived on the table slide in from `from` (an element: the seat that played them). */
export function flyIn(cards, from, ms = 260) {
  if (reducedMotion() || !from || !cards.length || typeof Element.prototype.animate !== "function") return;
  const src = centre(from.getBoundingClientRect());
  cards.forEach((el, k) => {
    const dst = centre(el.getBoundingClientRect());
    const dx = src.x - dst.x;
    const dy = src.y - dst.y;
    if (Math.abs(dx) + Math.abs(dy) < 4) return;
    el.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(.85)`, opacity: 0.4 },
      { transform: "none", opacity: 1 },
    ], { duration: ms, delay: k * 25, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  });
}

/** Where `cards` are now (call before redrawing them away): what `flyAway` needs. */
export function lift(cards) {
  if (reducedMotion()) return [];
  return cards.map((el) => ({ el, rect: el.getBoundingClientRect() })).filter((c) => c.rect.width);
}

/** Copies of lifted cards glide from where they were to `to` and fade: the trick goes to its winner. */
export function flyAway(lifted, to, ms = 320) {
  if (reducedMotion() || !to || !lifted.length || typeof Element.prototype.animate !== "function") return;
  const dst = centre(to.getBoundingClientRect());
  for (const { el, rect: r } of lifted) {
    const ghost = el.cloneNode(true);
    ghost.classList.add("flying");
    Object.assign(ghost.style, {
      position: "fixed", left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px`,
      margin: "0", zIndex: "40", pointerEvents: "none",
    });
    document.body.appendChild(ghost);
    const src = centre(r);
    const anim = ghost.animate([
      { transform: "none", opacity: 1 },
      { transform: `translate(${dst.x - src.x}px, ${dst.y - src.y}px) scale(.5)`, opacity: 0 },
    ], { duration: ms, easing: "ease-in", fill: "forwards" });
    anim.onfinish = () => ghost.remove();
    anim.oncancel = () => ghost.remove();
  }
}
