// The trick on the table, for games whose view follows the trick convention (升级 today):
//   view.trick  = {"leader": seat | null, "plays": [[seat, [cards]], ...]}   the trick being played
//   view.tricks = [{"leader", "plays", "winner", "points"}, ...]              this hand's finished tricks
// A finished trick stays on the table, its winner marked, until the next lead and for at least HOLD_MS; the
// last trick of a hand (the view has already moved on to the next hand) is rebuilt from the trick drawn
// before and the `play` and `trick` events of the update that ended it.

export const HOLD_MS = 1600;

// A play's cards: a list of card strings (a finished trick may write them as one string, "AS AS").
function cardsOf(cards) {
  return Array.isArray(cards) ? cards : String(cards ?? "").split(/\s+/).filter(Boolean);
}

function normal(trick) {
  return trick && { ...trick, plays: (trick.plays || []).map(([seat, cards]) => [seat, cardsOf(cards)]) };
}

export function followsTrickConvention(view) {
  return !!(view && view.trick && Array.isArray(view.trick.plays) && Array.isArray(view.tricks));
}

export class TrickTable {
  constructor(onExpire) {
    this.onExpire = onExpire; // called when a held trick may leave the table
    this.reset();
  }

  reset() {
    this.hold = null; // {trick, since, final}
    this.count = null; // finished tricks in the last view
    this.live = null; // the trick in the last view
    this.lastDone = null; // the latest finished trick, even after its hand ended
    this.showLast = false;
    clearTimeout(this.timer);
  }

  /** Take a new view and the events that led to it (`fresh`: a snapshot, nothing was seen happen). */
  update(view, events, fresh, now = Date.now()) {
    if (!followsTrickConvention(view)) { this.reset(); return; }
    const done = view.tricks.map(normal);
    let finished = null;
    let final = false;
    if (fresh) {
      // Joining (or resynchronising) between tricks: the latest finished trick is on the table until the lead.
      finished = !view.trick.plays.length && done.length ? done.at(-1) : null;
      if (finished) this.hold = { trick: finished, since: now - HOLD_MS, final: false };
    } else if (this.count != null && done.length > this.count) {
      finished = done.at(-1);
    } else if (this.count != null && done.length < this.count) {
      finished = this.rebuild(events);
      final = true;
    } else if (events.some((e) => e.type === "trick") && this.count === done.length) {
      finished = this.rebuild(events); // a hand of one trick, or a view that keeps no history
      final = true;
    }
    if (finished && !fresh) {
      this.hold = { trick: finished, since: now, final };
      this.showLast = false;
    }
    if (finished) this.lastDone = finished;
    else if (done.length) this.lastDone = done.at(-1);
    this.count = done.length;
    this.live = normal(view.trick);
    if (!this.live.plays.length && !done.length && !this.hold) this.showLast = false;
    this.schedule(now);
  }

  rebuild(events) {
    const ev = [...events].reverse().find((e) => e.type === "trick");
    if (!ev) return null;
    const plays = (this.live?.plays || []).map(([seat, cards]) => [seat, cards]);
    for (const e of events) {
      if (e.type === "play" && typeof e.seat === "number" && Array.isArray(e.cards)
          && !plays.some(([seat]) => seat === e.seat)) plays.push([e.seat, cardsOf(e.cards)]);
    }
    if (!plays.length) return null;
    return { leader: plays[0][0], plays, winner: ev.winner, points: ev.points ?? 0 };
  }

  schedule(now) {
    clearTimeout(this.timer);
    if (!this.hold) return;
    const left = this.hold.since + HOLD_MS - now;
    if (left > 0) this.timer = setTimeout(() => this.onExpire(), left + 20);
  }

  /** Is a finished trick still on the table (so a result panel should wait for it)? */
  holding(now = Date.now()) {
    return !!this.hold && now - this.hold.since < HOLD_MS;
  }

  /** What to draw now: {kind: "done" | "live" | "last", plays, leader, winner?, points?}. */
  display(now = Date.now()) {
    if (!this.live) return null;
    if (this.hold) {
      const waited = now - this.hold.since >= HOLD_MS;
      const moved = this.live.plays.length > 0 || this.hold.final;
      if (waited && moved) this.hold = null;
    }
    if (this.showLast && this.lastDone && !this.hold) return { kind: "last", ...this.lastDone };
    if (this.hold) return { kind: "done", ...this.hold.trick };
    return { kind: "live", leader: this.live.leader, plays: this.live.plays };
  }

  /** The finished trick before the one on the table, for the "last trick" button. */
  previous() {
    return this.hold ? null : this.lastDone;
  }
}

/** Card points each side has taken in this hand's finished tricks: [{seats, points}] (attackers first). */
export function sidePoints(view) {
  if (!followsTrickConvention(view) || !Array.isArray(view.attackers) || !view.attackers.length) return null;
  const attackers = new Set(view.attackers);
  const n = view.table?.seats?.length || 4;
  const sides = [
    { seats: [...attackers].sort((a, b) => a - b), points: 0, attackers: true },
    { seats: Array.from({ length: n }, (_, i) => i).filter((i) => !attackers.has(i)), points: 0, attackers: false },
  ];
  for (const trick of view.tricks) sides[attackers.has(trick.winner) ? 0 : 1].points += trick.points || 0;
  return sides;
}
