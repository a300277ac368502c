"""The 水鱼 state machine: one banker against every other seat, round after round.

A round runs through these phases (page §五, §六):

1. ``arrange`` — every seat at once splits its four cards into head and tail (``split AS 8H | KD 7C``).
   A 水鱼 or 至尊 has one legal split, the pairs.
2. The reveal — every 水鱼/至尊 is turned face up for everyone.  A banker's 水鱼/至尊 settles the whole
   round at once (lines 二.5/二.6); otherwise each player's 水鱼/至尊 is settled against the banker (二.1–二.4).
3. ``call`` — every player at once: ``open`` 开牌, ``cover`` 盖牌, ``force`` 强奸, ``attack`` 进攻,
   ``push`` 走水 (a player holding 水鱼/至尊 can only ``show``).  Calls are secret until all have called.
4. ``answer`` — the banker alone, one player at a time: open hands first (``kill N`` 杀 / ``walk N``
   走过), then covered ones (``call N`` 开牌 / ``concede N`` 不看), 进攻 (``accept N`` / ``refuse N``)
   and 走水 (``allow N`` / ``deny N``).  强奸 needs no answer: the banker re-splits against the open hand.
5. ``respond`` — at once: open players ``believe`` 信 / ``doubt`` 不信; an accepted 进攻 or a denied
   走水 ``drink`` (drinks one) or ``compare``.
6. Settlement — every line of the drinking table, in one public ``settlement`` event and in
   ``view["table"]["last_result"]``; then the next round is dealt (or the match ends).

Who sees what: a seat always sees its own cards.  Open (开牌, 强奸) and shown (水鱼/至尊) hands are face up
for all.  A covered hand is face up for all only once the banker calls it (开牌) or it is compared
(进攻/走水 比牌), at settlement.  The banker's hand is seen, at settlement, only by the players it must be
shown to — those who doubted (不信), whose covered hand it called, who compared, who forced (强奸) —
unless ``banker_shows = "all"``, or it is a 水鱼/至尊 (then everyone sees it at the reveal).  A player
who believed (信) never sees it.

The state is declared in :mod:`.state` (so copies and resamples are the core's); the view and every word
shown are in :mod:`.view`; the drinking table and each player's settlement are pure functions in
:mod:`.rules`.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar, cast

from paiju.core.cards import Card, card_text, parse_cards
from paiju.core.display import GameView
from paiju.core.errors import NotationError
from paiju.core.fromview import Unseen
from paiju.core.game import Result
from paiju.core.terms import Event

from . import view
from .config import ShuiyuConfig
from .rules import (
    ANSWER_OF,
    COVER_ANSWERS,
    OPEN_ANSWERS,
    PLAYER_CALLS,
    Answer,
    Arrangement,
    Call,
    Response,
    arrangement_text,
    drink_points,
    keys_of,
    kind_of_cards,
    settle_player,
    special_arrangement,
    split_cards,
)
from .state import Phase, ShuiyuState, sees_hand
from .view import KIND_LABELS, LABELS, PHASE_LABELS

__all__ = ["ANSWER_OF", "COVER_ANSWERS", "KIND_LABELS", "LABELS", "OPEN_ANSWERS", "PHASE_LABELS", "PLAYER_CALLS",
           "Phase", "ShuiyuGame"]

RESPOND_AFTER: frozenset[tuple[str | None, str | None]] = frozenset({("attack", "accept"), ("push", "deny")})
"""(call, answer) pairs after which the player responds, as after an ``open`` call."""


class ShuiyuGame(ShuiyuState):
    """广西水鱼: a banker against up to twelve players, open/cover bluffing, drinks as the score."""

    name = "shuiyu"
    config_class = ShuiyuConfig
    display: ClassVar[dict[str, str]] = {"zh": "广西水鱼", "en": "Shui Yu (Guangxi)"}
    display_code: ClassVar[GameView] = view  # the view, action labels, refusal reasons, event text
    min_seats = 2
    max_seats = 13

    # ---- setup ----------------------------------------------------------------------------------
    def _setup(self, deal: Any) -> None:
        cfg = self.config
        self.n = cfg.seats
        self.table_rules = cfg.table()
        self._rules = cfg.to_dict()
        self.banker = cfg.first_banker
        self.rounds_played = 0
        self.total = [0.0] * self.n
        self.drinks = [0] * self.n
        self.last_result = None
        self.prev = None
        self._prev_views = {}
        hands: list[list[Card]] | None = None
        if deal is not None:
            hands, banker = self._parse_deal(deal)
            if banker is not None:
                self.banker = banker
        self._deal(hands)

    def _parse_deal(self, deal: Any) -> tuple[list[list[Card]], int | None]:
        """``{"hands": ["AS 8H KD 7C", ...], "banker": 0}`` — one four-card hand per seat."""
        if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
            raise NotationError('a 水鱼 deal is {"hands": ["AS 8H KD 7C", ...], "banker": seat}')
        hands = [parse_cards(h) for h in deal["hands"]]
        if len(hands) != self.n or any(len(h) != 4 for h in hands):
            raise NotationError(f"a 水鱼 deal needs {self.n} hands of four cards")
        flat = [c for h in hands for c in h]
        if len(set(flat)) != len(flat) or any(c >= 52 for c in flat):
            raise NotationError("a 水鱼 deal uses each card of one deck (no jokers) at most once")
        banker = deal.get("banker")
        if banker is not None and not (isinstance(banker, int) and 0 <= banker < self.n):
            raise NotationError(f"deal banker must be a seat 0..{self.n - 1}")
        return hands, banker

    def _deal(self, hands: list[list[Card]] | None) -> None:
        if hands is None:
            deck = list(range(52))
            self.rng.shuffle(deck)
            hands = [deck[4 * s: 4 * s + 4] for s in range(self.n)]
            self.stock = deck[4 * self.n:]
        else:
            used = {c for h in hands for c in h}
            self.stock = [c for c in range(52) if c not in used]
        self.hands = [list(h) for h in hands]
        self.kinds = [kind_of_cards(h) for h in self.hands]
        self.arr = [None] * self.n
        self._split_options = [None] * self.n
        self.calls = [None] * self.n
        self.answers = [None] * self.n
        self.responses = [None] * self.n
        self.calls_public = False
        self.responses_public = False
        self.public = [False] * self.n
        self.seen = [0] * self.n
        self.phase = Phase.ARRANGE
        self.pending = list(range(self.n))

    def _options(self, seat: int) -> dict[str, Arrangement]:
        """``split …`` action -> arrangement for ``seat``'s hand (built when first asked for)."""
        opts = self._split_options[seat]
        if opts is None:
            hand = self.hands[seat]
            special = special_arrangement(hand)
            arrs = [special] if special is not None else split_cards(hand)
            opts = self._split_options[seat] = {"split " + arrangement_text(a): a for a in arrs}
        return opts

    # ---- the protocol ---------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return self.n

    def to_move(self) -> tuple[int, ...]:
        if self.phase == Phase.OVER:
            return ()
        if self.phase == Phase.ANSWER:
            return (self.banker,)
        return tuple(self.pending)

    def legal_actions(self, seat: int) -> list[str]:
        if self.phase == Phase.OVER or seat not in self.to_move():
            return []
        if self.phase == Phase.ARRANGE:
            return list(self._options(seat))
        if self.phase == Phase.CALL:
            return self._calls_for(seat)
        if self.phase == Phase.ANSWER:
            return [f"{a} {p}" for p in self.answer_targets() for a in ANSWER_OF[self.calls[p] or "open"]]
        if self.phase == Phase.RESPOND:
            return self._responses_for(seat)
        return []

    def _calls_for(self, seat: int) -> list[str]:
        """A player's calls: ``show`` for a 水鱼/至尊, else those the table allows."""
        if self.kinds[seat] != "plain":
            return ["show"]
        cfg = self.config
        allowed = {"force": cfg.allow_force, "attack": cfg.allow_attack, "push": cfg.allow_push}
        return [c for c in PLAYER_CALLS if allowed.get(c, True)]

    def _responses_for(self, seat: int) -> list[str]:
        return ["believe", "doubt"] if self.calls[seat] == "open" else ["drink", "compare"]

    def is_legal(self, seat: int, action: str) -> bool:
        if self.phase == Phase.OVER or seat not in self.to_move() or not isinstance(action, str):
            return False
        if self.phase == Phase.ARRANGE:
            return action in self._options(seat)
        return action in self.legal_actions(seat)

    # ---- apply ----------------------------------------------------------------------------------
    def _apply(self, seat: int, action: str) -> list[Event]:
        if self.phase == Phase.ARRANGE:
            return self._arranged(seat, action)
        if self.phase == Phase.CALL:
            self.calls[seat] = action
            self.pending.remove(seat)
            events: list[Event] = [{"type": "decided", "seat": seat, "phase": "call"}]
            if not self.pending:
                events += self._calls_done()
            return events
        if self.phase == Phase.ANSWER:
            word, _, rest = action.partition(" ")
            target = int(rest)
            self.answers[target] = word
            events = [{"type": "answer", "seat": seat, "target": target, "answer": word,
                       "call": self.calls[target]}]
            if not self.answer_targets():
                events += self._answers_done()
            return events
        # respond
        self.responses[seat] = action
        self.pending.remove(seat)
        events = [{"type": "decided", "seat": seat, "phase": "respond"}]
        if not self.pending:
            self.responses_public = True
            events.append({"type": "responses", "responses": [
                {"seat": p, "response": self.responses[p]} for p in self.players() if self.responses[p]]})
            events += self._settle()
        return events

    def _arranged(self, seat: int, action: str) -> list[Event]:
        self.arr[seat] = self._options(seat)[action]
        self.pending.remove(seat)
        events: list[Event] = [{"type": "arranged", "seat": seat}]
        if self.pending:
            return events
        specials = [s for s in range(self.n) if self.kinds[s] != "plain"]
        for s in specials:
            self.public[s] = True
            arr = self.arr[s]
            assert arr is not None
            events.append({"type": "special", "seat": s, "kind": self.kinds[s], "banker": s == self.banker,
                           "cards": [card_text(c) for g in arr for c in g]})
        if self.kinds[self.banker] != "plain":
            return events + self._settle()
        self.phase = Phase.CALL
        self.pending = self.players()
        return events

    def _calls_done(self) -> list[Event]:
        self.calls_public = True
        events: list[Event] = [{"type": "calls", "calls": [
            {"seat": p, "call": self.calls[p]} for p in self.players()]}]
        for p in self.players():
            if self.calls[p] in ("open", "force"):
                self.public[p] = True
                arr = self.arr[p]
                assert arr is not None
                events.append({"type": "open_hand", "seat": p, "call": self.calls[p],
                               "cards": [card_text(c) for g in arr for c in g]})
        if self.answer_targets():
            self.phase = Phase.ANSWER
            self.pending = []
            return events
        return events + self._answers_done()

    def _answers_done(self) -> list[Event]:
        # the pairs as a set, not a tuple literal: mypyc miscompiles ``(a, b) in ((..), (..))`` (docs/performance.md)
        self.pending = [p for p in self.players() if self.calls[p] == "open"
                        or (self.calls[p], self.answers[p]) in RESPOND_AFTER]
        if self.pending:
            self.phase = Phase.RESPOND
            return []
        return self._settle()

    # ---- settlement -----------------------------------------------------------------------------
    def _settle(self) -> list[Event]:
        """Every player against the banker by the page's lines (:func:`.rules.settle_player`), then the tally."""
        b, cfg = self.banker, self.config
        barr = self.arr[b]
        assert barr is not None
        lines: list[dict[str, Any]] = []
        scores = [0.0] * self.n
        drank = [0] * self.n
        for p in self.players():
            parr = self.arr[p]
            assert parr is not None
            res = settle_player(barr, self.hands[b], self.kinds[b], parr, self.hands[p], self.kinds[p],
                                cast(Call, self.calls[p] or "show"), cast(Answer | None, self.answers[p]),
                                cast(Response | None, self.responses[p]), self.table_rules,
                                force_rearrange=cfg.force_rearrange)
            if res.banker_shown:
                self.seen[b] |= 1 << p
            if res.player_shown:
                self.public[p] = True
            row = drink_points(self.n, b, p, res.drink, zero_sum=cfg.zero_sum)
            if res.drink.drinker != "nobody":
                drank[p if res.drink.drinker == "player" else b] += res.drink.mult
            for s in range(self.n):
                scores[s] += row[s]
            lines.append(view.settlement_line(self, p, res, row))
        if cfg.banker_shows == "all" and self.seen[b]:
            self.public[b] = True
        for s in range(self.n):
            self.total[s] += scores[s]
            self.drinks[s] += drank[s]
        self.rounds_played += 1
        self.last_result = view.round_result(self.rounds_played, b, lines, scores, drank)
        events: list[Event] = [{"type": "settlement", "round": self.rounds_played, "banker": b, "lines": lines,
                                "scores": scores, "drinks": drank, "totals": list(self.total)}]
        self._prev_views = {}
        self.prev = {"round": self.rounds_played, "banker": b, "hands": [list(h) for h in self.hands],
                     "arr": list(self.arr), "public": list(self.public), "seen": list(self.seen),
                     "calls": list(self.calls), "answers": list(self.answers), "responses": list(self.responses)}
        if self.rounds_played >= cfg.rounds:
            self.phase = Phase.OVER
            self.pending = []
            events.append({"type": "match_end", "totals": list(self.total), "drinks": list(self.drinks)})
            return events
        self.banker = self._next_banker(b)
        self._deal(None)
        events.append({"type": "deal", "round": self.rounds_played + 1, "banker": self.banker})
        return events

    def _next_banker(self, banker: int) -> int:
        rule = self.config.banker_rotation
        if rule == "keep":
            return banker
        if rule == "winner":
            best, who = 0.0, banker
            for p in self.players():
                gained = -self._banker_loss_to(p)
                if gained > best:
                    best, who = gained, p
            return who
        return (banker + 1) % self.n

    def _banker_loss_to(self, p: int) -> float:
        """Negative: how much the banker lost against ``p`` in the round just settled."""
        assert self.last_result is not None
        for line in self.last_result["lines"]:
            if line["seat"] == p:
                return -float(line["mult"]) if line["drinker"] == "banker" else 0.0
        return 0.0

    # ---- results --------------------------------------------------------------------------------
    def totals(self) -> tuple[float, ...]:
        return tuple(self.total)

    def result(self) -> Result | None:
        if not self.finished:
            return None
        return Result(tuple(self.total), {"drinks": list(self.drinks), "rounds": self.rounds_played,
                                          "zero_sum": self.config.zero_sum})

    def inventory(self) -> Counter[Any]:
        return Counter([c for h in self.hands for c in h] + self.stock)

    # ---- resampling: what the declaration cannot say ------------------------------------------------
    def _resample_ok(self, viewer: int) -> bool:
        """After the reveal every 水鱼/至尊 is face up, so a hand the viewer cannot see is a plain one."""
        if self.phase == Phase.ARRANGE:
            return True
        return all(kind_of_cards(self.hands[s]) == "plain" for s in range(self.n) if not self.visible(viewer, s))

    def _rederive(self, viewer: int, rng: random.Random) -> None:
        """A redealt hand has its own class and splits; one already split takes its strongest split.  A call or
        a response the viewer has not seen yet (they are secret until all are in) is drawn afresh from ``rng``
        among that seat's choices; the last round keeps only the hands the viewer saw."""
        for s in range(self.n):
            if self.visible(viewer, s):
                continue
            self.kinds[s] = kind_of_cards(self.hands[s])
            self._split_options[s] = None
            if self.arr[s] is not None:
                self.arr[s] = max(self._options(s).values(), key=lambda a: sum(keys_of(a)))
        for s in range(self.n):
            if self.calls[s] is not None and not self.sees("calls", viewer, s):
                self.calls[s] = rng.choice(self._calls_for(s))
            if self.responses[s] is not None and not self.sees("responses", viewer, s):
                self.responses[s] = rng.choice(self._responses_for(s))
        prev = self.prev
        if prev is not None:
            unseen = [s for s in range(self.n) if not sees_hand(viewer, s, prev["public"], prev["seen"])]
            if any(prev["hands"][s] is not None for s in unseen):  # replaced, never changed in place
                self.prev = {**prev, "hands": [None if s in unseen else h for s, h in enumerate(prev["hands"])],
                             "arr": [None if s in unseen else a for s, a in enumerate(prev["arr"])]}

    # ---- a game from a seat's view (issue 37) ------------------------------------------------------
    @classmethod
    def _from_view(cls, view: dict[str, Any]) -> ShuiyuGame:
        """The round as ``view`` shows it.  Hidden hands get unseen cards (the resample deals them afresh); a
        hidden split, call or response that the view says was made gets a placeholder, which ``_rederive``
        replaces.  Whether a visible hand is face up for all or only shown to the viewer is not in the view
        (it matters only at the match's end, for other viewers): those hands are made face up.  The last round
        keeps the hands the viewer saw."""
        g = cls(ShuiyuConfig.from_dict(view["rules"]), 0)
        viewer, n = int(view["viewer"]), g.n
        g.phase = Phase(view["phase"])
        over = g.phase == Phase.OVER
        g.banker = int(view["banker"])
        g.rounds_played = int(view["round"]) - (0 if over else 1)
        g.total = [float(t) for t in view["totals"]]
        g.drinks = [int(d) for d in view["drinks"]]
        g.last_result = view["table"]["last_result"]
        g.prev = _prev_from(view["last_round"], n)
        g._prev_views = {}
        shown = [parse_cards(h) if h is not None else None for h in view["hands"]]
        unseen = Unseen(range(52), [c for h in shown if h is not None for c in h])
        g.hands = [h if h is not None else unseen.take(4) for h in shown]
        g.stock = unseen.rest()
        g.kinds = [view["kinds"][s] if shown[s] is not None else kind_of_cards(g.hands[s]) for s in range(n)]
        g.arr = [_arr_from(view["arrangement"][s]) if shown[s] is not None
                 else ((g.hands[s][0], g.hands[s][1]), (g.hands[s][2], g.hands[s][3])) if view["arranged"][s]
                 else None for s in range(n)]
        g._split_options = [None] * n
        g.answers = list(view["answers"])
        g.calls_public = g.phase in (Phase.ANSWER, Phase.RESPOND, Phase.OVER)
        g.responses_public = over
        decided = view["decided"]
        g.calls = [c if c is not None or g.calls_public or s == g.banker or not decided[s] or g.phase != Phase.CALL
                   else "cover" for s, c in enumerate(view["calls"])]
        g.responses = [r if r is not None or g.phase != Phase.RESPOND or not decided[s]
                       or not (g.calls[s] == "open" or (g.calls[s], g.answers[s]) in RESPOND_AFTER)
                       else "drink" for s, r in enumerate(view["responses"])]
        if over:
            g.public = [shown[s] is not None and s != viewer for s in range(n)]
        else:
            g.public = [shown[s] is not None and ((g.phase != Phase.ARRANGE and g.kinds[s] != "plain")
                                                  or (g.calls_public and g.calls[s] in ("open", "force")))
                        for s in range(n)]
        g.seen = [0] * n
        g.pending = [int(s) for s in view["deciding"]] if g.phase in (Phase.ARRANGE, Phase.CALL,
                                                                      Phase.RESPOND) else []
        return g

    # ---- card-room hooks ------------------------------------------------------------------------
    def hands_finished(self) -> int:
        return self.rounds_played

    def timeout_action(self, seat: int) -> str | None:
        legal = self.legal_actions(seat)
        if not legal:
            return None
        if self.phase == Phase.ARRANGE:
            return max(legal, key=lambda a: sum(keys_of(self._options(seat)[a])))
        for pref in ("show", "open", "believe", "drink"):
            if pref in legal:
                return pref
        return legal[0]


def _arr_from(shown: dict[str, list[str]] | None) -> Arrangement | None:
    """An arrangement as a view shows it (``{"head": [..], "tail": [..]}``), back in the engine's form."""
    if shown is None:
        return None
    (a, b), (c, d) = parse_cards(shown["head"]), parse_cards(shown["tail"])
    return ((a, b), (c, d))


def _prev_from(shown: dict[str, Any] | None, n: int) -> dict[str, Any] | None:
    """The last round as the viewer saw it: its hands seen kept (as face up), the others unknown."""
    if shown is None:
        return None
    arr = [_arr_from(a) for a in shown["arrangement"]]
    return {"round": shown["round"], "banker": shown["banker"],
            "hands": [[c for grp in a for c in grp] if a is not None else None for a in arr], "arr": arr,
            "public": [a is not None for a in arr], "seen": [0] * n, "calls": list(shown["calls"]),
            "answers": list(shown["answers"]), "responses": list(shown["responses"])}
