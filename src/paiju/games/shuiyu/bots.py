"""水鱼 bots: OddsBot (exact odds over the unseen cards, measured bluffing), the BiggestHead baseline and
EasyBot (the room's 入门: a beginner's habits).

The odds are exact.  Every one of the C(52,4) = 270,725 four-card hands gets, once per process, the
(head, tail) strengths of the split a sensible opponent plays (:func:`model_split`).  Hands are ordered by
head strength and stored as bit positions of Python integers used as bitsets: "head below H" is then a
prefix mask, "tail below T" one precomputed bitset per tail strength, "holds card c" one bitset per card.
A question such as *how many banker hands among the cards I cannot see beat me on both groups* is three
ANDs and a popcount over 270,725 bits — C(48,4) = 194,580 banker hands counted exactly in well under a
millisecond.  Building the tables takes about two seconds, once, on the first decision.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from paiju.bots.base import Bot
from paiju.core.cards import parse_cards
from paiju.core.game import View

from . import mix
from .config import ShuiyuConfig
from .rules import GROUP_KEY, NUM_KEYS, RANK_INDEX, Arrangement, keys_of, outcome, parse_arrangement, split_cards

# ---- the opponent model: how a sensible player splits ----------------------------------------------
_BELOW: list[float] = [0.0] * NUM_KEYS
"""Fraction of the 1,326 groups weaker than a key: a group's percentile."""


def _init_percentiles() -> None:
    keys = sorted(GROUP_KEY[a * 52 + b] for a in range(52) for b in range(a + 1, 52))
    for k in range(NUM_KEYS):
        _BELOW[k] = bisect_left(keys, k) / len(keys)


_init_percentiles()
_HEAD_SCORE = [p * p for p in _BELOW]
_TAIL_COST = [(1 - p) * (1 - p) for p in _BELOW]


def model_split(hk1: int, hk2: int) -> float:
    """Value of a split with group keys hk1, hk2 against a random split of random cards.

    With s(k) a group's percentile and the opponent's head and tail treated as the larger and smaller of
    two random groups, P(win both) − P(lose both) = s(head)² − (1 − s(tail))²: the cross terms cancel.
    """
    if hk1 < hk2:
        hk1, hk2 = hk2, hk1
    return _HEAD_SCORE[hk1] - _TAIL_COST[hk2]


# ---- the exact-count index -------------------------------------------------------------------------
class _Index:
    """Hands as bit positions ordered by ``xs``; bitsets for ``ys < k`` and for each card."""

    def __init__(self, xs: Sequence[int], ys: Sequence[int], cards: Sequence[tuple[int, int, int, int]],
                 plain: Sequence[bool], flagged: Sequence[bool] | None = None,
                 groups: Sequence[int] | None = None) -> None:
        n = len(xs)
        order = sorted(range(n), key=xs.__getitem__)
        self.x_sorted = [xs[i] for i in order]
        nbytes = (n + 7) // 8
        card_bits = [bytearray(nbytes) for _ in range(52)]
        plain_bits = bytearray(nbytes)
        flag_bits = bytearray(nbytes)
        by_y: list[list[int]] = [[] for _ in range(NUM_KEYS)]
        group_bits = [bytearray(nbytes) for _ in range(1 + max(groups or [0]))]
        for pos, i in enumerate(order):
            byte, bit = pos >> 3, 1 << (pos & 7)
            for c in cards[i]:
                card_bits[c][byte] |= bit
            if plain[i]:
                plain_bits[byte] |= bit
            if flagged is not None and flagged[i]:
                flag_bits[byte] |= bit
            if groups is not None:
                group_bits[groups[i]][byte] |= bit
            by_y[ys[i]].append(pos)
        self.all = (1 << n) - 1
        self.card = [int.from_bytes(b, "little") for b in card_bits]
        self.plain = int.from_bytes(plain_bits, "little")
        self.flagged = int.from_bytes(flag_bits, "little")
        """Hands marked by the caller: for the model split's index, those the mix denies a 走水 with."""
        self.groups = [int.from_bytes(b, "little") for b in group_bits] if groups is not None else []
        """Per group the caller numbered (the model split's index: the mix's bucket), its hands."""
        acc = bytearray(nbytes)
        self.y_below: list[int] = [0] * (NUM_KEYS + 1)
        current = 0
        for k in range(NUM_KEYS):
            self.y_below[k] = current
            if by_y[k]:
                for pos in by_y[k]:
                    acc[pos >> 3] |= 1 << (pos & 7)
                current = int.from_bytes(acc, "little")
        self.y_below[NUM_KEYS] = current

    def avail(self, known: Sequence[int], plain_only: bool = True) -> int:
        """Hands that hold none of the ``known`` cards (and are plain, not 水鱼/至尊)."""
        out = 0
        for c in known:
            out |= self.card[c]
        return (self.plain if plain_only else self.all) & ~out

    def below(self, x: int, y: int, mask: int) -> int:
        """Bitset of hands in ``mask`` with x-key < x and y-key < y."""
        return ((1 << bisect_left(self.x_sorted, x)) - 1) & self.y_below[y] & mask

    def above(self, x: int, y: int, mask: int) -> int:
        """Bitset of hands in ``mask`` with x-key > x and y-key > y."""
        hi = self.all ^ ((1 << bisect_right(self.x_sorted, x)) - 1)
        return hi & (self.all ^ self.y_below[min(y + 1, NUM_KEYS)]) & mask


@dataclass
class Odds:
    """The two indexes: the model split of every hand, and its best re-split (for 强奸)."""

    split: _Index
    resplit: _Index


_ODDS: list[Odds] = []


def odds_tables() -> Odds:
    """Built once per process (about two seconds), then shared by every bot."""
    if _ODDS:
        return _ODDS[0]
    hx: list[int] = []
    hy: list[int] = []
    tx: list[int] = []
    ty: list[int] = []
    cards: list[tuple[int, int, int, int]] = []
    plain: list[bool] = []
    deny: list[bool] = []
    buckets: list[int] = []
    gk = GROUP_KEY
    for hand in combinations(range(52), 4):
        a, b, c, d = hand
        k = (gk[a * 52 + b], gk[c * 52 + d], gk[a * 52 + c], gk[b * 52 + d], gk[a * 52 + d], gk[b * 52 + c])
        best = -9.0
        bh = bt = 0
        top = max(k)
        best_tail = 0
        for i in (0, 2, 4):
            k1, k2 = k[i], k[i + 1]
            hi, lo = (k1, k2) if k1 > k2 else (k2, k1)
            if lo > best_tail:
                best_tail = lo
            v = _HEAD_SCORE[hi] - _TAIL_COST[lo]
            if v > best:
                best, bh, bt = v, hi, lo
        ra, rb, rc, rd = RANK_INDEX[a], RANK_INDEX[b], RANK_INDEX[c], RANK_INDEX[d]
        is_plain = not ((ra == rb and rc == rd) or (ra == rc and rb == rd) or (ra == rd and rb == rc))
        hx.append(bh)
        hy.append(bt)
        buckets.append(bucket(bh, bt))
        deny.append(mix.ANSWER[buckets[-1]][2] < 0.5)
        tx.append(top)
        ty.append(best_tail)
        cards.append(hand)
        plain.append(is_plain)
    odds = Odds(_Index(hx, hy, cards, plain, deny, buckets), _Index(tx, ty, cards, plain))
    _ODDS.append(odds)
    return odds


# ---- the equilibrium mix (research/shuiyu_equilibrium.py writes .mix) ---------------------------------------
def bucket(h: int, t: int) -> int:
    """A plain hand's strength bucket from its split's head and tail keys (the mix's information sets)."""
    band = bisect_right(mix.HEAD_EDGES, h)
    return band * mix.TAIL_BINS + bisect_right(mix.TAIL_EDGES[band], t)


_PAGE = ShuiyuConfig().to_dict()
_MIX_RULES = {k: v for k, v in _PAGE.items() if k.startswith("mult_")} | {
    k: _PAGE[k] for k in ("walk_doubted_banker_bigger", "attack_walk", "allow_attack", "allow_push", "zero_sum")}
"""The options the mix was solved for (the page's): at any other table the bot plays its expected-score rules."""
_OUTCOME = {"banker": 0, "walk": 1, "player": 2}


def _mixed(view: View) -> bool:
    rules = view.get("rules", {})
    return all(rules.get(k, v) == v for k, v in _MIX_RULES.items())


# ---- reading the view --------------------------------------------------------------------------------
def _known_cards(view: View) -> list[int]:
    return [c for h in view["hands"] if h for c in parse_cards(h)]


def _arr(arr: dict[str, list[str]]) -> Arrangement:
    return parse_arrangement(" ".join(arr["head"]) + " | " + " ".join(arr["tail"]))


def _keys(arr: dict[str, list[str]]) -> tuple[int, int]:
    return keys_of(_arr(arr))


def _rule(view: View, name: str, default: Any) -> Any:
    return view.get("rules", {}).get(name, default)


# ---- reading the other seats: hand-blind habits, or the mix ------------------------------------------
BLIND_PRIOR = (0.2, 1.8)
"""Beta prior on the share of hand-blind seats at a table (mean 0.1).  A room fills its bot seats with one
kind, so what the *other* seats showed moves a seat's prior: two clearly blind neighbours make it 0.55."""
TREMBLE = 0.01
"""The least likelihood the mix gives any action (the equilibrium was solved against a 1 % tremble)."""
DIRICHLET = 0.5
"""A blind seat's habits: per decision, a hand-blind rate per action, Dirichlet(0.5) before anything is seen."""
OPTIONS = {"call": 5}
"""Actions per decision (two unless named): a blind seat's first call of five is 1/5 likely, of two 1/2."""
_MARG_CALL = [sum(row[c] for row in mix.CALL) / len(mix.CALL) for c in range(4)]
_MARG_ANSWER = [sum(row[c] for row in mix.ANSWER) / len(mix.ANSWER) for c in range(3)]
"""The mix's rates where the hand stays hidden: per call, per face-down answer."""
BLIND_FIRES = 0.25
"""A deny is compared on the blind reading only from this posterior up (the prior is 0.1, one deny alone
lifts it to about 0.16): the mix's own play does not get there, whatever the exact counts say."""


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def mix_kill(i: int, truth: str) -> float:
    """How often the mix kills an open hand of bucket ``i`` when the showdown would be ``truth``.

    A hand that doubts either word is killed when it wins (the two cost the same); an open hand the mix never
    opens is killed on a walk or a loss unless that costs more than walking against the mix's responses."""
    d_kill, d_walk = mix.DOUBT[i]
    if truth == "player" and min(d_kill, d_walk) >= 0.99:
        return 1.0
    if mix.CALL[i][0] < OFF_PATH and truth != "banker":
        walk = 2 * d_walk if truth == "player" else -2 * d_walk
        return 1.0 if 3 * d_kill - 1 <= walk + 0.02 else 0.0
    return mix.KILL[i][_OUTCOME[truth]]


@dataclass
class SeatRead:
    """What one seat showed this match: log P(seen | hand-blind) − log P(seen | the mix), and its habits."""

    log_lr: float = 0.0
    counts: dict[str, dict[str, int]] = field(default_factory=dict)

    def observe(self, decision: str, action: str, p_mix: float) -> None:
        """One public action; ``p_mix`` is how likely the mix takes it there (given what was shown)."""
        row = self.counts.setdefault(decision, {})
        k = OPTIONS.get(decision, 2)
        p_blind = (row.get(action, 0) + DIRICHLET) / (sum(row.values()) + k * DIRICHLET)
        row[action] = row.get(action, 0) + 1
        self.log_lr += math.log(p_blind / min(1.0, max(p_mix, TREMBLE)))

    def copy(self) -> SeatRead:
        return SeatRead(self.log_lr, {k: dict(v) for k, v in self.counts.items()})


def _truths(i_keys: tuple[int, int], mask: int) -> dict[str, float]:
    """P(showdown) of an open hand against a banker hand drawn from ``mask`` (the hands the viewer cannot
    rule out)."""
    idx = odds_tables().split
    total = mask.bit_count() or 1
    h, t = i_keys
    banker = idx.above(h, t, mask).bit_count() / total
    player = idx.below(h, t, mask).bit_count() / total
    return {"banker": banker, "walk": max(0.0, 1.0 - banker - player), "player": player}


def read_round(reads: dict[int, SeatRead], rnd: dict[str, Any], me: int, known: list[int],
               mask: int | None = None) -> None:
    """Add one round's public actions to ``reads``: the calls, answers and responses of every seat but ``me``.

    ``rnd`` has ``banker``, ``calls``, ``answers``, ``responses`` and the ``arrangement`` of the hands the viewer
    saw; ``known`` is every card it saw (``mask``, if given, the hands that avoid them).  Each action is weighed
    by the mix's rate for the hand where it was shown, else by the mix's rate over all hands; the banker's
    pushes answered in a round count once (one hand answers them all).  Drinking or comparing after a deny is
    not read: it answers what the player made of that banker (this bot compares against a blind one), not the
    player's own habits."""
    b, arr = rnd["banker"], rnd["arrangement"]
    calls, answers, responses = rnd["calls"], rnd["answers"], rnd["responses"]
    seen = [None if a is None else bucket(*_keys(a)) for a in arr]
    for p, call in enumerate(calls):
        if p in (b, me) or call not in MIX_CALLS:
            continue
        read = reads.setdefault(p, SeatRead())
        col = MIX_CALLS.index(call)
        i = seen[p]
        read.observe("call", call, _MARG_CALL[col] if i is None else mix.CALL[i][col])
        said, resp = answers[p], responses[p]
        if call == "open" and said in ("kill", "walk") and resp in ("believe", "doubt") and i is not None:
            d = mix.DOUBT[i][0 if said == "kill" else 1]
            read.observe(f"after_{said}", resp, d if resp == "doubt" else 1 - d)
    if b == me or b >= len(calls):
        return
    read = reads.setdefault(b, SeatRead())
    j = seen[b]
    if j is None and mask is None:
        mask = odds_tables().split.avail(known)
    for p, call in enumerate(calls):
        opened = seen[p]
        if call == "open" and answers[p] in ("kill", "walk") and opened is not None:
            if j is not None:
                k = mix_kill(opened, outcome(_arr(arr[b]), _arr(arr[p])))
            else:
                assert mask is not None
                k = sum(q * mix_kill(opened, t) for t, q in _truths(_keys(arr[p]), mask).items())
            read.observe("open_answer", answers[p], k if answers[p] == "kill" else 1 - k)
    for c, call in enumerate(("cover", "attack", "push")):
        words = [answers[p] for p in range(len(calls)) if calls[p] == call and answers[p] is not None]
        if not words:
            continue
        first, second = ANSWER_PAIRS[call]
        action = second if second in words else first       # one hand answers them all: the rarer word counts
        if j is not None:
            q = mix.ANSWER[j][c]
        elif call == "push":
            assert mask is not None
            q = 1 - (mask & odds_tables().split.flagged).bit_count() / (mask.bit_count() or 1)
        else:
            q = _MARG_ANSWER[c]
        read.observe(f"{call}_answer", action, q if action == first else 1 - q)


def p_blind(reads: dict[int, SeatRead], seat: int, me: int, seats: int) -> float:
    """P(``seat`` plays hand-blind habits | what every seat showed), under the table's Beta prior."""
    a, b = BLIND_PRIOR
    base = _logit(a / (a + b))
    others = [_sigmoid(base + reads[q].log_lr) if q in reads else a / (a + b)
              for q in range(seats) if q not in (me, seat)]
    prior = (a + sum(others)) / (a + b + len(others))
    own = reads.get(seat)
    return _sigmoid(_logit(prior) + (own.log_lr if own else 0.0))


@dataclass
class BluffStats:
    """What the bot called and claimed: the study's bluff rate and call frequencies come from here."""

    claims: int = 0
    bluffs: int = 0
    by_kind: dict[str, list[int]] = field(default_factory=dict)
    """claim -> [times made, times more likely false than true]"""
    calls: dict[str, list[int]] = field(default_factory=dict)
    """player call -> [made with a strong hand, made with a weak hand] (strong: P(win both) >= 0.5)"""
    hands: list[int] = field(default_factory=lambda: [0, 0])
    """[strong, weak] hands at the call"""

    def add(self, kind: str, bluff: bool) -> None:
        self.claims += 1
        self.bluffs += bluff
        row = self.by_kind.setdefault(kind, [0, 0])
        row[0] += 1
        row[1] += bluff

    def called(self, call: str, strong: bool) -> None:
        self.calls.setdefault(call, [0, 0])[0 if strong else 1] += 1
        self.hands[0 if strong else 1] += 1


class OddsBot:
    """Decides from its own view: exact odds over the unseen cards, expected drinks, and some bluffing.

    * Splits: the split maximising P(win both) − P(lose both) against every hand the opponent may hold.
    * Calls (player): the call with the best expected score under a simple model of the banker (it calls
      covered hands ``P_CALL`` of the time, refuses 进攻 ``P_REFUSE``, allows 走水 ``P_ALLOW``).  So that a
      call says little about the hand, a weak hand (P(win both) < 0.35) that would open or push covers or
      attacks instead ``BLUFF`` of the time, and a strong one that would claim face up or down picks
      cover or attack at random ``MIX`` of the time.
    * Answers (banker): open hands are compared exactly (the banker sees both); it kills when it wins or
      loses, and on a walk kills ``BLUFF_WALK`` of the time.  Covered hands, 进攻 and 走水 are judged from
      the exact odds of a random hand, weighed by how likely such a call is from a strong or weak hand.
    * Responses: 信/不信 by the posterior that the banker's word is true, given the odds and the model of
      when a banker kills.

    At the page's own table (the rules ``mix.py`` was solved for) calls, answers and responses come from the
    equilibrium mix instead (``_mix_*``), answering seats read as fixed habits in kind (``_read_last_round``).
    """

    # The opponent model, fitted to OddsBot's own self-play (one fictitious-play step; docs/bots/shuiyu.md):
    # how often a banker calls a covered hand, refuses 进攻, allows 走水 ...
    P_CALL = 0.9
    P_REFUSE = 0.1
    P_ALLOW = 0.73
    # ... and how likely each face-down call is from a hand that wins both groups / from one that does not
    # (for 走水: from a hand that loses both / from one that does not).
    COVER_LIKELIHOOD = (0.11, 0.056)
    ATTACK_LIKELIHOOD = (0.10, 0.07)
    PUSH_LIKELIHOOD = (0.85, 0.68)
    BLUFF = 0.15
    MIX = 0.3
    BLUFF_WALK = 0.5
    KILL_WHEN_LOSING = 0.8

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.stats = BluffStats()
        self.read_round = 0
        self.believers: set[int] = set()
        """Seats seen believing a kill with an open hand the mix would doubt it with: killed whatever the truth."""
        self.reads: dict[int, SeatRead] = {}
        """Per other seat, this match: how far its public play looks hand-blind rather than the mix's."""
        self.at_round = 0
        self.habit_killers: set[int] = set()
        """Seats seen, as banker, killing an open hand on a walk the mix never kills: their kill says nothing."""

    def act(self, view: View, legal: Sequence[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        phase = view["phase"]
        if phase == "arrange":
            return self._arrange(view, legal)
        if _mixed(view):
            self._read_last_round(view)
            if phase == "call":
                return self._mix_call(view, legal)
            if phase == "answer":
                return self._mix_answer(view, legal)
            return self._mix_respond(view, legal)
        if phase == "call":
            return self._call(view, legal)
        if phase == "answer":
            return self._answer(view, legal)
        return self._respond(view, legal)

    def recall(self, view: View) -> None:
        """A view of this seat from earlier in the match (``paiju.bots.base.catch_up``): read its rounds, as
        ``act`` would have, so a bot that takes the seat mid-match (a rebuilt table) plays as the first did."""
        if _mixed(view):
            self._read_last_round(view)

    # -- the equilibrium mix (the page's table) ---------------------------------------------------------
    def _draw(self, p: float) -> bool:
        """True with probability p; a pure choice draws nothing, so the random stream moves only on a mix."""
        return p >= 1.0 or (p > 0.0 and self.rng.random() < p)

    def _read_last_round(self, view: View) -> None:
        """What the last round showed of the other seats, read once per round from this seat's own view.

        Two kinds of reading.  The sets (``believers``, ``habit_killers``) take only play the mix never makes
        (a believed kill of a hand it doubts with, a killed walk it never kills).  ``reads`` weighs every public
        action of every seat, in every role, as evidence for "hand-blind habits" against "the mix"
        (:func:`read_round`); it is used when a banker denies this seat's 走水 (``_compare_denied``).  A bot
        the room keeps for the next match starts that match unread."""
        if view["round"] < self.at_round:      # a new match at the same table: its seats start unread
            self.read_round = 0
            self.reads, self.believers, self.habit_killers = {}, set(), set()
        self.at_round = view["round"]
        last = view.get("last_round")
        if last is None or last["round"] <= self.read_round:
            return
        self.read_round = last["round"]
        b, me, arr = last["banker"], view["you"], last["arrangement"]
        known = [c for a in arr if a is not None for c in _arr(a)[0] + _arr(a)[1]]
        read_round(self.reads, last, me, known)
        for p, (call, answer, response) in enumerate(zip(last["calls"], last["answers"], last["responses"],
                                                         strict=True)):
            if p not in (b, me) and (call, answer, response) == ("open", "kill", "believe") \
                    and arr[p] is not None and mix.DOUBT[bucket(*_keys(arr[p]))][0] >= 0.99:
                self.believers.add(p)
        if b != me:
            for line in (view["table"].get("last_result") or {}).get("lines", []):
                p = line["seat"]
                if line["case"] == "kill_doubt_walk" and arr[p] is not None \
                        and mix.KILL[bucket(*_keys(arr[p]))][1] < 0.01:
                    self.habit_killers.add(b)

    def _mix_call(self, view: View, legal: Sequence[str]) -> str:
        me = view["you"]
        h, t = _keys(view["arrangement"][me])
        known = _known_cards(view)
        [(w, lose)] = self._w_l([(h, t)], known)
        i = bucket(h, t)
        choice = ""
        if view["banker"] in self.habit_killers and max(-1.0, 2 - 4 * lose) > mix.VALUE[i]:
            choice = "open"     # it kills whatever it holds: open, then doubt when doubting pays (_mix_respond)
        if "force" in legal and not choice:
            m = _Mults(view)
            if m.force * (2 * self._force_win(view, h, t, known) - 1) > mix.VALUE[i]:
                choice = "force"
        if not choice:
            weights = [p if c in legal else 0.0 for c, p in zip(MIX_CALLS, mix.CALL[i], strict=True)]
            total = sum(weights)
            if total <= 0.0:
                return self._call(view, legal)
            x = self.rng.random() * total if max(weights) < total else 0.0
            for c, p in zip(MIX_CALLS, weights, strict=True):
                if p > 0.0:
                    choice = c
                    if x < p:
                        break
                    x -= p
        if choice in ("cover", "attack", "force"):
            self.stats.add(choice, w < 0.5)
        self.stats.called(choice, w >= 0.5)
        return choice

    def _mix_answer(self, view: View, legal: Sequence[str]) -> str:
        me = view["you"]
        target = int(legal[0].split()[1])
        call = view["calls"][target]
        if call == "open":
            mine, theirs = _arr(view["arrangement"][me]), _arr(view["arrangement"][target])
            truth = outcome(mine, theirs)
            # a believer drinks one; otherwise the mix (mix_kill: off its path, what the mix's responses keep)
            kill = target in self.believers or self._draw(mix_kill(bucket(*keys_of(theirs)), truth))
            self.stats.add("kill" if kill else "walk", (truth != "banker") if kill else truth != "walk")
            return f"{'kill' if kill else 'walk'} {target}"
        j = bucket(*_keys(view["arrangement"][me]))
        first, second = ANSWER_PAIRS[call]
        c = ("cover", "attack", "push").index(call)
        return f"{first if self._draw(mix.ANSWER[j][c]) else second} {target}"

    def _mix_respond(self, view: View, legal: Sequence[str]) -> str:
        me = view["you"]
        i = bucket(*_keys(view["arrangement"][me]))
        if "believe" in legal:
            said = view["answers"][me]
            if said == "kill" and view["banker"] in self.habit_killers:
                [(_, lose)] = self._w_l([_keys(view["arrangement"][me])], _known_cards(view))
                return "doubt" if 2 - 4 * lose > -1 else "believe"              # its kill is no news
            return "doubt" if self._draw(mix.DOUBT[i][0 if said == "kill" else 1]) else "believe"
        p = mix.COMPARE[i][0 if view["calls"][me] == "attack" else 1]
        if self._draw(p):
            return "compare"
        if view["calls"][me] == "push" and self._compare_denied(view):
            return "compare"
        return "drink"

    def _compare_denied(self, view: View) -> bool:
        """After a denied 走水 the mix drinks: in equilibrium a deny comes from a strong hand.  But a banker that
        denies whatever it holds (a hand-blind seat) is a random hand: compare when the posterior mixture of
        the two pays.  The posterior weighs this match's public play of every seat (``reads``), this round's
        answers of the banker so far, and the deny itself."""
        me, b = view["you"], view["banker"]
        known = _known_cards(view)
        idx = odds_tables().split
        mask = idx.avail(known)
        reads = {q: r.copy() for q, r in self.reads.items()}
        now = {"banker": b, "calls": view["calls"], "answers": view["answers"],
               "responses": [None] * len(view["calls"]), "arrangement": view["arrangement"]}
        read_round(reads, now, me, known, mask)
        blind = p_blind(reads, b, me, len(view["calls"]))
        if blind < BLIND_FIRES:
            return False
        h, t = _keys(view["arrangement"][me])
        lose_any = idx.above(h, t, mask).bit_count() / (mask.bit_count() or 1)
        strong = mask & idx.flagged
        lose_deny = idx.above(h, t, strong).bit_count() / (strong.bit_count() or 1)
        ev = blind * (2 - 4 * lose_any) + (1 - blind) * (2 - 4 * lose_deny)   # compare: ×2 either way
        return ev > -1.0                                                          # drink: ×1

    # -- odds -----------------------------------------------------------------------------------------
    @staticmethod
    def _w_l(splits: list[tuple[int, int]], known: list[int]) -> list[tuple[float, float]]:
        """Per split: P(I beat the other side on both groups), P(it beats me on both), over its hands."""
        idx = odds_tables().split
        mask = idx.avail(known)
        total = mask.bit_count() or 1
        return [(idx.below(h, t, mask).bit_count() / total, idx.above(h, t, mask).bit_count() / total)
                for h, t in splits]

    def _arrange(self, view: View, legal: Sequence[str]) -> str:
        splits = [keys_of(parse_arrangement(a.removeprefix("split "))) for a in legal]
        odds = self._w_l(splits, _known_cards(view))
        best = max(range(len(legal)), key=lambda i: odds[i][0] - odds[i][1])
        return legal[best]

    def _force_win(self, view: View, h: int, t: int, known: list[int]) -> float:
        tables = odds_tables()
        if _rule(view, "force_rearrange", "player") == "banker":
            idx = tables.resplit
            mask = idx.avail(known)
            return idx.below(h, t, mask).bit_count() / (mask.bit_count() or 1)
        idx = tables.split
        mask = idx.avail(known)
        wins = mask
        for arr in split_cards(parse_cards(view["hands"][view["you"]])):
            hk, tk = keys_of(arr)
            wins &= idx.below(hk, tk, mask)
        return wins.bit_count() / (mask.bit_count() or 1)

    def _call(self, view: View, legal: Sequence[str]) -> str:
        me = view["you"]
        h, t = _keys(view["arrangement"][me])
        known = _known_cards(view)
        [(w, lose)] = self._w_l([(h, t)], known)
        m = _Mults(view)
        ev: dict[str, float] = {
            "open": w - lose * m.kill_believed,
            "cover": self.P_CALL * (m.cover_called * w - m.cover_called * (1 - w))
            + (1 - self.P_CALL) * m.cover_conceded,
        }
        if "force" in legal:
            wf = self._force_win(view, h, t, known)
            ev["force"] = m.force * wf - m.force * (1 - wf)
        if "attack" in legal:
            compare = m.attack_compare * w - m.attack_compare * (1 - w)
            ev["attack"] = self.P_REFUSE * m.attack_refused + (1 - self.P_REFUSE) * max(-m.attack_drink, compare)
        if "push" in legal:
            compare = m.push_compare * (1 - lose) - m.push_compare * lose
            ev["push"] = (1 - self.P_ALLOW) * max(-m.push_drink, compare)
        choice = max((a for a in legal if a in ev), key=ev.__getitem__)
        hidden_claims = [c for c in ("cover", "attack") if c in legal]
        if choice in ("cover", "attack", "force") and w >= 0.5 and self.rng.random() < self.MIX:
            choice = self.rng.choice(hidden_claims)          # a strong hand claims face down too
        elif choice in ("open", "push") and w < 0.35 and self.rng.random() < self.BLUFF:
            choice = self.rng.choice(hidden_claims)          # a weak hand claims now and then: a bluff
        if choice in ("cover", "attack", "force"):
            self.stats.add(choice, w < 0.5)
        self.stats.called(choice, w >= 0.5)
        return choice

    def _answer(self, view: View, legal: Sequence[str]) -> str:
        me = view["you"]
        bh, bt = _keys(view["arrangement"][me])
        known = _known_cards(view)
        target = int(legal[0].split()[1])
        call = view["calls"][target]
        m = _Mults(view)
        if call == "open":
            truth = outcome(_arr(view["arrangement"][me]), _arr(view["arrangement"][target]))
            kill = truth != "walk" or self.rng.random() < self.BLUFF_WALK
            self.stats.add("kill" if kill else "walk", (truth != "banker") if kill else truth != "walk")
            return f"{'kill' if kill else 'walk'} {target}"
        idx = odds_tables().split
        mask = idx.avail(known)
        total = mask.bit_count() or 1
        q = idx.above(bh, bt, mask).bit_count() / total        # a random hand beats me on both
        p = idx.below(bh, bt, mask).bit_count() / total        # I beat a random hand on both
        if call == "cover":
            qc = _posterior(q, *self.COVER_LIKELIHOOD)
            ev_call = m.cover_called * (1 - qc) - m.cover_called * qc
            return f"{'call' if ev_call > -m.cover_conceded else 'concede'} {target}"
        if call == "attack":
            qa = _posterior(q, *self.ATTACK_LIKELIHOOD)
            ev_accept = min(m.attack_drink, m.attack_compare * (1 - qa) - m.attack_compare * qa)
            return f"{'accept' if ev_accept > -m.attack_refused else 'refuse'} {target}"
        pb = _posterior(p, *self.PUSH_LIKELIHOOD)
        ev_deny = min(m.push_drink, m.push_compare * pb - m.push_compare * (1 - pb))
        return f"{'deny' if ev_deny > 0 else 'allow'} {target}"

    def _respond(self, view: View, legal: Sequence[str]) -> str:
        me = view["you"]
        h, t = _keys(view["arrangement"][me])
        [(w, lose)] = self._w_l([(h, t)], _known_cards(view))
        walk = max(0.0, 1 - w - lose)
        m = _Mults(view)
        said = view["answers"][me]
        if "believe" in legal:
            if said == "kill":
                kill_rate = {"banker": 1.0, "walk": self.BLUFF_WALK, "player": self.KILL_WHEN_LOSING}
                den = lose + walk * kill_rate["walk"] + w * kill_rate["player"]
                p_true = lose / den if den else 1.0
                ev_doubt = m.doubt * (1 - p_true) - m.doubt * p_true
                return "doubt" if ev_doubt > -m.kill_believed else "believe"
            den = walk * (1 - self.BLUFF_WALK) + w * (1 - self.KILL_WHEN_LOSING)
            p_player = w * (1 - self.KILL_WHEN_LOSING) / den if den else 0.0
            return "doubt" if m.doubt * p_player - m.doubt * (1 - p_player) > 0 else "believe"
        if view["calls"][me] == "attack":
            compare = m.attack_compare * w - m.attack_compare * (1 - w)
            return "compare" if compare > -m.attack_drink else "drink"
        compare = m.push_compare * (1 - lose) - m.push_compare * lose
        return "compare" if compare > -m.push_drink else "drink"


OFF_PATH = 0.01
"""An open hand from a bucket that opens less often than this is off the mix's path (see ``_mix_answer``)."""
MIX_CALLS = ("open", "cover", "attack", "push")
"""The calls the mix weighs, in the order of ``mix.CALL``'s columns (强奸 is decided from its exact odds)."""
ANSWER_PAIRS = {"cover": ("call", "concede"), "attack": ("accept", "refuse"), "push": ("allow", "deny")}
"""Per face-down call: the answer whose probability the mix stores, and the other one."""


def _posterior(prior: float, if_true: float, if_false: float) -> float:
    """P(strong | call) from P(strong) and how likely the call is from a strong and from a weak hand."""
    num = prior * if_true
    den = num + (1 - prior) * if_false
    return num / den if den else 0.0


class _Mults:
    """The table's multipliers, read from the view's public rules (defaults: the page's)."""

    def __init__(self, view: View) -> None:
        r = view.get("rules", {})
        self.kill_believed = float(r.get("mult_kill_believed", 1))
        self.doubt = float(r.get("mult_doubt", 2))
        self.force = float(r.get("mult_force", 3))
        self.attack_refused = float(r.get("mult_attack_refused", 1))
        self.attack_drink = float(r.get("mult_attack_drink", 1))
        self.attack_compare = float(r.get("mult_attack_compare", 2))
        self.push_drink = float(r.get("mult_push_drink", 1))
        self.push_compare = float(r.get("mult_push_compare", 2))
        self.cover_called = float(r.get("mult_cover_called", 2))
        self.cover_conceded = float(r.get("mult_cover_conceded", 1))


class BiggestHeadBot:
    """The simple baseline: the split with the biggest head, always opens, believes everything; as
    banker always kills, always calls covered hands, accepts 进攻 and denies 走水."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, view: View, legal: Sequence[str]) -> str:
        if view["phase"] == "arrange":
            return max(legal, key=lambda a: keys_of(parse_arrangement(a.removeprefix("split "))))
        for word in ("open", "show", "kill", "call", "accept", "deny", "believe", "drink"):
            for action in legal:
                if action.split()[0] == word:
                    return action
        return legal[0]


class EasyBot:
    """入门: a beginner's habits, no odds and no reading of the table.

    - **Biggest pair at the head.**  Of the three splits it takes the one with the strongest head (ties: the
      stronger tail): the head is what a new player looks at first, so it makes that as big as it can.
    - **Opens a strong hand, covers a weak one.**  Strong: a 水鱼/至尊 hand, or a tail that beats half of all
      two-card groups (``STRONG``).  It never forces, attacks or pushes: those calls want odds it does not know.
    - **Never doubts.**  It believes the banker's word, and drinks rather than compares.
    - **An honest banker.**  It kills an open hand it beats and walks the rest (it never bluffs a kill); it
      calls a covered hand, accepts 进攻 and denies 走水 only when its own hand is strong.
    """

    STRONG = 0.5
    """The tail's percentile among all groups from which a hand counts as strong."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)     # unused: every habit is a fixed rule (the room reseeds it anyway)

    def strong(self, view: View) -> bool:
        me = view["you"]
        if view["kinds"][me] not in (None, "plain"):
            return True
        return _BELOW[_keys(view["arrangement"][me])[1]] >= self.STRONG

    def act(self, view: View, legal: Sequence[str]) -> str:
        phase = view["phase"]
        if phase == "arrange":
            return max(legal, key=lambda a: keys_of(parse_arrangement(a.removeprefix("split "))))
        if phase == "call":
            want = "open" if self.strong(view) else "cover"
            return want if want in legal else legal[0]
        if phase == "respond":
            return next((w for w in ("believe", "drink") if w in legal), legal[0])
        if phase == "answer":
            me = view["you"]
            target = int(legal[0].split()[1])
            call = view["calls"][target]
            if call == "open":
                mine, theirs = _arr(view["arrangement"][me]), _arr(view["arrangement"][target])
                word = "kill" if outcome(mine, theirs) == "banker" else "walk"
            else:
                yes, no = {"cover": ("call", "concede"), "attack": ("accept", "refuse"),
                           "push": ("deny", "allow")}.get(call, ("", ""))
                word = yes if self.strong(view) else no
            action = f"{word} {target}"
            return action if action in legal else legal[0]
        return legal[0]


BOTS: dict[str, Callable[[int], Bot]] = {"odds": OddsBot, "biggest_head": BiggestHeadBot, "easy": EasyBot}
"""The exploiter (:mod:`.exploit`, built on OddsBot) is not listed: it did not earn the 高手 seat (docs/bots/
shuiyu.md), and listing it here would make this module import the one that imports it.  The study plays it."""

STRENGTHS: dict[str, str] = {"easy": "easy", "normal": "best", "strong": "best"}
"""The card room's 入门 / 普通 / 高手 (docs/bots.md, "In the card room"); strong is the fast bot until a search
bot is wired here (one line: its kind)."""
