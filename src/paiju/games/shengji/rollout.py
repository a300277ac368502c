"""Determinized play-outs for the 升级 search bot, built from one seat's view and nothing else.

:func:`position_from_view` reads what the seat sees — its hand, every card played this hand, the current trick,
the points taken and the fines, the dealer, the trump, the kitty when this seat buried it, the cards others have
shown (a bid, the rest of a failed throw) and the voids they showed — and :func:`determinize` deals every card
the seat has not seen to the other seats (and to the kitty, when the seat did not bury it) at random: shown cards
stay with their seat, no seat receives a card of an effective suit it has shown void in.  No game object is
touched, so the search can only know what its view says.

:func:`playout` then plays the hand to its end with a fast fixed policy on counts (no views, no strings on the
hot path), and returns the attackers' final points as the settlement counts them (tricks, the kitty multiplied
when the attackers win the last trick, the fines).  The policy is deterministic: the only chance in a search is
the deal of the unseen cards, so a seeded search repeats exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from paiju.core.cards import Card, parse_cards
from paiju.core.game import View

from .plays import follow_candidates, parse_play
from .rules import NUM_KINDS, POINTS, TRUMP, Order, kitty_factor, order_for, play_strength, suit_number, trick_winner

Play = tuple[Card, ...]
_KITTY = 12
_DEAL_TRIES = 8


def count_played(tricks: Sequence[Sequence[tuple[int, Sequence[Card]]]], order: Order, seen: list[int],
                 void: list[set[int]]) -> None:
    """Add every played card to ``seen``, and mark a seat void in the led suit when it followed short of it:
    what any seat may read of the others from the tricks its view shows."""
    for plays in tricks:
        if not plays:
            continue
        lead = plays[0][1]
        ls = order.suit[lead[0]]
        for s, p in plays:
            for c in p:
                seen[c] += 1
            if sum(1 for c in p if order.suit[c] == ls) < len(lead):
                void[s].add(ls)


@dataclass
class Position:
    """A play-phase position as one seat knows it; ``hands`` holds only the seat's own cards until dealt."""

    order: Order
    seat: int
    dealer: int
    hands: list[list[int]]
    sizes: list[int]
    trick: list[tuple[int, Play]]
    captured: int
    offset: int
    """Fines: the defenders' minus the attackers' (they count for the attackers' total)."""
    kitty: list[int] | None
    """The kitty's cards as counts when the seat buried it; None when it is hidden."""
    unseen: list[int]
    """Copies of each card kind the seat has not seen (in other hands or the hidden kitty)."""
    shown: list[list[int]]
    void: list[set[int]]
    kitty_mode: str

    def attackers(self) -> int:
        return 1 - self.dealer % 2


def position_from_view(view: View, kitty_mode: str = "unit") -> Position:
    """What the viewing seat knows of the hand in play, as counts (only the view is read)."""
    seat: int = view["viewer"]
    trump = view["trump"]
    order = order_for(view["level"], suit_number(trump) if trump is not None else None)
    own = [0] * NUM_KINDS
    for c in parse_cards(view["hand"] or []):
        own[c] += 1
    seen = list(own)
    kitty: list[int] | None = None
    if view["kitty"] is not None and view["kitty_buried"]:
        kitty = [0] * NUM_KINDS
        for c in parse_cards(view["kitty"]):
            kitty[c] += 1
            seen[c] += 1
    void: list[set[int]] = [set() for _ in range(4)]
    plays_done = [[(s, parse_cards(p)) for s, p in t["plays"]] for t in view["tricks"]]
    trick = [(s, tuple(parse_cards(p))) for s, p in view["trick"]["plays"]]
    count_played([*plays_done, [(s, list(p)) for s, p in trick]], order, seen, void)
    shown = [[0] * NUM_KINDS for _ in range(4)]
    for s, cards in enumerate(view["shown"]):
        if s != seat:
            for c in parse_cards(cards):
                shown[s][c] += 1
    hands = [[0] * NUM_KINDS for _ in range(4)]
    hands[seat] = own
    pen = view["penalties"]
    dealer: int = view["dealer"]
    defenders = dealer % 2
    return Position(order=order, seat=seat, dealer=dealer, hands=hands, sizes=list(view["hand_counts"]),
                    trick=trick, captured=view["points"], offset=pen[defenders] - pen[1 - defenders],
                    kitty=kitty, unseen=[max(0, 4 - k) for k in seen], shown=shown, void=void,
                    kitty_mode=kitty_mode)


def determinize(pos: Position, rng: random.Random) -> tuple[list[list[int]], int]:
    """Every hand and the kitty's points: the unseen cards dealt at random, shown cards and voids kept."""
    order = pos.order
    suit = order.suit
    seat = pos.seat
    others = [s for s in range(4) if s != seat]
    room = [0] * 5
    for s in others:
        room[s] = pos.sizes[s]
    hidden_kitty = pos.kitty is None
    room[4] = _KITTY if hidden_kitty else 0
    pool_counts = list(pos.unseen)
    base = [[0] * NUM_KINDS for _ in range(5)]
    for s in others:
        for c, k in enumerate(pos.shown[s]):
            k = min(k, pool_counts[c], room[s])
            if k:
                base[s][c] += k
                pool_counts[c] -= k
                room[s] -= k
    pool = [c for c in range(NUM_KINDS) for _ in range(pool_counts[c])]
    voids = pos.void

    def eligible(c: Card) -> list[int]:
        return [s for s in others if suit[c] not in voids[s]] + ([4] if hidden_kitty else [])

    tight = {c: eligible(c) for c in set(pool)}
    out: list[list[int]] | None = None
    for attempt in range(_DEAL_TRIES + 1):
        rng.shuffle(pool)
        relax = attempt == _DEAL_TRIES  # the voids cannot all be kept (a seat's sight was wrong): drop them
        ordered = pool if relax else sorted(pool, key=lambda c: len(tight[c]))
        left = list(room)
        got = [list(h) for h in base]
        ok = True
        for c in ordered:
            places = [s for s in range(5) if left[s]] if relax else [s for s in tight[c] if left[s]]
            if not places:
                ok = False
                break
            total = sum(left[s] for s in places)
            r = rng.randrange(total)
            for s in places:
                r -= left[s]
                if r < 0:
                    break
            got[s][c] += 1
            left[s] -= 1
        if ok:
            out = got
            break
    assert out is not None
    hands = [list(h) for h in out[:4]]
    hands[seat] = list(pos.hands[seat])
    kitty = out[4] if hidden_kitty else (pos.kitty or [])
    return hands, sum(POINTS[c] * k for c, k in enumerate(kitty))


def _value(order: Order, cards: Sequence[Card]) -> int:
    """What spending ``cards`` costs (as the smart bot counts it)."""
    suit, key = order.suit, order.key
    return sum((20 + key[c] if suit[c] == TRUMP else key[c]) + POINTS[c] for c in cards)


class _Rollout:
    """One play-out: the hands as counts, the trick, the attackers' points."""

    __slots__ = ("attackers", "captured", "hands", "key", "members", "order", "sizes", "suit")

    def __init__(self, order: Order, hands: list[list[int]], attackers: int, captured: int) -> None:
        self.order = order
        self.hands = hands
        self.sizes = [sum(h) for h in hands]
        self.attackers = attackers
        self.captured = captured
        self.suit = order.suit
        self.key = order.key
        self.members = order.members

    def others_hold_above(self, seat: int, s: int, key: int) -> bool:
        hands, k = self.hands, self.key
        for d in reversed(self.members[s]):
            if k[d] <= key:
                return False
            for o in range(4):
                if o != seat and hands[o][d]:
                    return True
        return False

    def lead(self, seat: int) -> Play:
        h = self.hands[seat]
        members, key = self.members, self.key
        best: tuple[int, Card] | None = None
        longest, long_n = -1, 0
        for s in range(4):
            top = -1
            n = 0
            for c in members[s]:
                if h[c]:
                    top = c
                    n += h[c]
            if top < 0:
                continue
            if n > long_n:
                longest, long_n = s, n
            if not self.others_hold_above(seat, s, key[top]):
                score = h[top] * 20 + POINTS[top]
                if best is None or score > best[0]:
                    best = (score, top)
        if best is not None:
            c = best[1]
            return (c,) * h[c]
        trumps = [c for c in members[TRUMP] if h[c]]
        if trumps and seat % 2 != self.attackers and sum(h[c] for c in trumps) * 5 >= 2 * self.sizes[seat]:
            c = trumps[-1]
            return (c,) * h[c]
        if longest >= 0:
            cards = [c for c in members[longest] if h[c]]
            c = min(cards, key=lambda c: (POINTS[c] > 0, key[c]))
            return (c,)
        c = min(trumps, key=lambda c: (POINTS[c] > 0, key[c]))
        return (c,)

    def follow_single(self, seat: int, trick: list[tuple[int, Play]]) -> Play:
        """A single lead: feed a partner who holds the trick, win cheaply where it pays, else duck."""
        h = self.hands[seat]
        suit, key = self.suit, self.key
        lead = trick[0][1][0]
        ls = suit[lead]
        best_i, best_t, best_k = 0, ls == TRUMP, key[lead]
        pts = POINTS[lead]
        for i in range(1, len(trick)):
            c = trick[i][1][0]
            pts += POINTS[c]
            s = suit[c]
            if s in (ls, TRUMP):
                t = s == TRUMP
                if (t, key[c]) > (best_t, best_k):
                    best_i, best_t, best_k = i, t, key[c]
        last = len(trick) == 3
        nxt = (seat + 1) % 4
        partner = trick[best_i][0] == (seat + 2) % 4
        mine = [c for c in self.members[ls] if h[c]]
        if partner:
            safe = last or not self._beats(nxt, ls, best_t, best_k)
            if mine:
                if safe:
                    return (max(mine, key=lambda c: (POINTS[c], -key[c])),)
                return (min(mine, key=lambda c: (POINTS[c] > 0, key[c])),)
            return (self._discard(h, ls, rich=safe),)
        if mine:
            if not best_t or ls == TRUMP:
                for c in mine:  # weakest first
                    if key[c] > best_k:
                        if (last and pts) or (not last and (pts >= 10 or not self._beats(nxt, ls, best_t, key[c]))):
                            return (c,)
                        break
            return (min(mine, key=lambda c: (POINTS[c] > 0, key[c])),)
        if ls != TRUMP and (pts or not last):
            for c in self.members[TRUMP]:
                if h[c] and (not best_t or key[c] > best_k):
                    if last or pts >= 5 or not self._beats(nxt, TRUMP, True, key[c], ls):
                        return (c,)
                    break
        return (self._discard(h, ls, rich=False),)

    def _beats(self, seat: int, ls: int, best_t: bool, best_k: int, led: int | None = None) -> bool:
        """Whether ``seat`` (the next to play) holds a single that beats the trick's best."""
        h = self.hands[seat]
        key = self.key
        led_suit = ls if led is None else led
        has_led = any(h[c] for c in self.members[led_suit])
        if has_led:
            if best_t and led_suit != TRUMP:
                return False
            return any(h[c] and key[c] > best_k for c in self.members[led_suit])
        if led_suit == TRUMP:
            return False
        return any(h[c] and (not best_t or key[c] > best_k) for c in self.members[TRUMP])

    def _discard(self, h: list[int], ls: int, *, rich: bool) -> Card:
        order = self.order
        kinds = order.rich if rich else order.low
        for c in kinds:
            if h[c] and self.suit[c] != ls:
                return c
        for c in kinds:
            if h[c]:
                return c
        raise AssertionError("an empty hand cannot follow")

    def follow_pair(self, seat: int, trick: list[tuple[int, Play]]) -> Play | None:
        """A pair lead, as the single case chooses; an owed exact pair is played whenever one is held.
        None when the hand is short of the suit (the general case handles it)."""
        h = self.hands[seat]
        suit, key = self.suit, self.key
        c0 = trick[0][1][0]
        ls = suit[c0]
        mine = [c for c in self.members[ls] if h[c]]
        held = 0
        for c in mine:
            held += h[c]
        if held < 2:
            return None
        best_i, best_t, best_k = 0, ls == TRUMP, key[c0]
        pts = 2 * POINTS[c0]
        for i in range(1, len(trick)):
            p = trick[i][1]
            a, b = p
            pts += POINTS[a] + POINTS[b]
            if a == b and suit[a] in (ls, TRUMP):
                t = suit[a] == TRUMP
                if (t, key[a]) > (best_t, best_k):
                    best_i, best_t, best_k = i, t, key[a]
        exact = [c for c in mine if h[c] == 2]
        groups = exact or [c for c in mine if h[c] > 2]
        last = len(trick) == 3
        nxt = (seat + 1) % 4
        if trick[best_i][0] == (seat + 2) % 4:
            nh = self.hands[nxt]
            safe = last or not any(nh[c] >= 2 and key[c] > best_k for c in self.members[ls])
            if exact:
                c = max(exact, key=lambda c: (POINTS[c], -key[c])) if safe else min(exact, key=lambda c: (
                    POINTS[c], key[c]))
                return (c, c)
            ranked = sorted(mine, key=lambda c: (POINTS[c], -key[c]) if safe else (-POINTS[c], -key[c]),
                            reverse=True)
            return self._take(h, ranked, 2)
        if not best_t or ls == TRUMP:
            for c in groups:  # weakest first
                if key[c] > best_k:
                    nh = self.hands[nxt]
                    beaten = any(nh[d] >= 2 and key[d] > key[c] for d in self.members[ls])
                    if (last and pts) or (not last and (pts >= 10 or not beaten)):
                        return (c, c)
                    break
        if exact:
            c = min(exact, key=lambda c: (POINTS[c], key[c]))
            return (c, c)
        return self._take(h, sorted(mine, key=lambda c: (POINTS[c] > 0, key[c])), 2)

    @staticmethod
    def _take(h: list[int], ranked: Sequence[Card], n: int) -> Play:
        out: list[Card] = []
        for c in ranked:
            k = min(h[c], n - len(out))
            out.extend([c] * k)
            if len(out) == n:
                break
        return tuple(out)

    def follow_any(self, seat: int, trick: list[tuple[int, Play]]) -> Play:
        """Any lead (pairs, throws): the engine's follow list, chosen as the single case chooses."""
        order = self.order
        h = self.hands[seat]
        lead = trick[0][1]
        cands = [parse_play(a.partition(" ")[2]) for a in follow_candidates(h, lead, order)]
        best_i, best_val = 0, play_strength(lead, lead, order)
        for i in range(1, len(trick)):
            v = play_strength(trick[i][1], lead, order)
            if v is not None and best_val is not None and v > best_val:
                best_i, best_val = i, v
        partner = trick[best_i][0] == (seat + 2) % 4
        if partner:
            return max(cands, key=lambda c: (sum(POINTS[x] for x in c), -_value(order, c)))
        assert best_val is not None
        winning = [c for c in cands if (v := play_strength(c, lead, order)) is not None and v > best_val]
        if winning:
            return min(winning, key=lambda c: _value(order, c))
        return min(cands, key=lambda c: 3 * sum(POINTS[x] for x in c) + _value(order, c))

    def play(self, seat: int, cards: Play, trick: list[tuple[int, Play]]) -> None:
        h = self.hands[seat]
        for c in cards:
            h[c] -= 1
        self.sizes[seat] -= len(cards)
        trick.append((seat, cards))

    def winner(self, trick: list[tuple[int, Play]]) -> int:
        return trick[trick_winner([p for _, p in trick], self.order)][0]


def playout(pos: Position, hands: list[list[int]], kitty_points: int, first: Play, *,
            horizon: int = 0) -> int:
    """The attackers' final points after ``first`` (the viewing seat's play) and a fast play-out of the rest.

    ``horizon`` > 0 stops after that many more tricks (the points still in hands are then split by a fixed
    share); 0 plays the hand out.
    """
    r = _Rollout(pos.order, [list(h) for h in hands], pos.attackers(), pos.captured)
    trick = list(pos.trick)
    seat = pos.seat
    r.play(seat, first, trick)
    seat = (seat + 1) % 4
    done = 0
    sizes = r.sizes
    attackers = r.attackers
    while True:
        if len(trick) == 4:
            w = r.winner(trick)
            pts = 0
            for _, p in trick:
                for c in p:
                    pts += POINTS[c]
            if w % 2 == attackers:
                r.captured += pts
            if not any(sizes):
                total = r.captured + pos.offset
                if w % 2 == attackers:
                    total += kitty_points * kitty_factor(pos.kitty_mode, trick[0][1])
                return total
            done += 1
            if horizon and done >= horizon:
                left = sum(POINTS[c] * k for h in r.hands for c, k in enumerate(h))
                return r.captured + pos.offset + int(left * 0.4)
            trick = []
            seat = w
            r.play(seat, r.lead(seat), trick)
        else:
            lead = trick[0][1]
            n = len(lead)
            if n == 1:
                cards = r.follow_single(seat, trick)
            else:
                got = r.follow_pair(seat, trick) if n == 2 and lead[0] == lead[1] else None
                cards = got if got is not None else r.follow_any(seat, trick)
            r.play(seat, cards, trick)
        seat = (seat + 1) % 4
