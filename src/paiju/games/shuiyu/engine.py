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
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar, Literal, Self

from paiju.core.cards import Card, card_text, parse_cards
from paiju.core.errors import NotationError
from paiju.core.game import OMNISCIENT, Event, Game, Result, View

from .config import ShuiyuConfig
from .rules import (
    Arrangement,
    Drink,
    Kind,
    Table,
    arrangement_text,
    best_banker_arrangement,
    keys_of,
    kind_of_cards,
    outcome,
    settle,
    settle_special,
    special_arrangement,
    split_cards,
    worst_player_arrangement,
)

Phase = Literal["arrange", "call", "answer", "respond", "over"]

PLAYER_CALLS = ("open", "cover", "force", "attack", "push")
OPEN_ANSWERS = ("kill", "walk")
COVER_ANSWERS = {"cover": ("call", "concede"), "attack": ("accept", "refuse"), "push": ("allow", "deny")}
ANSWER_OF = {"open": OPEN_ANSWERS, **COVER_ANSWERS}

LABELS: dict[str, tuple[str, str]] = {
    "open": ("开牌", "open"),
    "cover": ("盖牌", "cover"),
    "force": ("强奸", "force (open: both groups win)"),
    "attack": ("进攻", "attack (covered: both groups win)"),
    "push": ("走水", "push (ask to call it even)"),
    "show": ("亮牌", "show"),
    "kill": ("杀", "kill"),
    "walk": ("走过", "walk (even)"),
    "call": ("开牌", "call (turn it up)"),
    "concede": ("不看", "concede"),
    "accept": ("接受", "accept"),
    "refuse": ("不接受", "refuse"),
    "allow": ("同意", "allow"),
    "deny": ("不同意", "deny"),
    "believe": ("信", "believe"),
    "doubt": ("不信", "doubt"),
    "drink": ("认喝", "drink"),
    "compare": ("比牌", "compare"),
    "split": ("摆牌", "split"),
}

PHASE_LABELS: dict[str, tuple[str, str]] = {
    "arrange": ("摆牌", "arrange head and tail"),
    "call": ("闲家开牌/盖牌", "players open or cover"),
    "answer": ("庄家话事", "the banker answers"),
    "respond": ("闲家回应", "players respond"),
    "over": ("结束", "match over"),
}

KIND_LABELS = {"shuiyu": ("水鱼", "two pairs"), "zhizun": ("至尊", "four of a kind"), "plain": ("", "")}


_TEXT = [card_text(c) for c in range(52)]
_BANKER = {"zh": "庄", "en": "banker"}
_PLAYER = {"zh": "闲", "en": "player"}
_HEAD = {"zh": "头", "en": "head"}
_TAIL = {"zh": "尾", "en": "tail"}
_SHORT = {k: (zh, en.split(" (")[0]) for k, (zh, en) in LABELS.items()}


def _note(kind: str | None, steps: tuple[str | None, ...], deciding: bool) -> dict[str, str] | None:
    """A seat's line on the table: its 水鱼/至尊, its call, the banker's answer, its response."""
    zh: list[str] = []
    en: list[str] = []
    if kind in ("shuiyu", "zhizun"):
        zh.append(KIND_LABELS[kind][0])
        en.append(KIND_LABELS[kind][1])
    for x in steps:
        if x:
            zh.append(_SHORT[x][0])
            en.append(_SHORT[x][1])
    if not zh:
        return {"zh": "思考中", "en": "deciding"} if deciding else None
    return {"zh": "·".join(zh), "en": ", ".join(en)}


def _sees(viewer: int, seat: int, public: list[bool], seen: list[int]) -> bool:
    """``viewer`` sees ``seat``'s hand: its own, a face-up one, or one shown to it."""
    if viewer in (OMNISCIENT, seat) or public[seat]:
        return True
    return viewer >= 0 and bool(seen[seat] >> viewer & 1)


class ShuiyuGame(Game[ShuiyuConfig]):
    """广西水鱼: a banker against up to twelve players, open/cover bluffing, drinks as the score."""

    name = "shuiyu"
    config_class = ShuiyuConfig
    display: ClassVar[dict[str, str]] = {"zh": "广西水鱼", "en": "Shui Yu (Guangxi)"}
    min_seats = 2
    max_seats = 13

    # ---- setup ----------------------------------------------------------------------------------
    def _setup(self, deal: Any) -> None:
        cfg = self.config
        self.n = cfg.seats
        self.table_rules: Table = cfg.table()
        self._rules = cfg.to_dict()
        """The table's rules, public in every view (bots read the multipliers from it)."""
        self.banker = cfg.first_banker
        self.rounds_played = 0
        self.total: list[float] = [0.0] * self.n
        self.drinks: list[int] = [0] * self.n
        self.last_result: dict[str, Any] | None = None
        self.prev: dict[str, Any] | None = None
        self._prev_views: dict[int, dict[str, Any]] = {}
        """``last_round`` per viewer: it changes only at a settlement, and views are read-only."""
        self._over = False
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
        self.hands: list[list[Card]] = [list(h) for h in hands]
        self.kinds: list[Kind] = [kind_of_cards(h) for h in self.hands]
        self.arr: list[Arrangement | None] = [None] * self.n
        self._split_options: list[dict[str, Arrangement] | None] = [None] * self.n
        self.calls: list[str | None] = [None] * self.n
        self.answers: list[str | None] = [None] * self.n
        self.responses: list[str | None] = [None] * self.n
        self.calls_public = False
        self.responses_public = False
        self.public: list[bool] = [False] * self.n
        self.seen: list[int] = [0] * self.n
        """Bit v set: seat v may see this seat's hand (besides the seat itself and public hands)."""
        self.phase: Phase = "arrange"
        self.pending: list[int] = list(range(self.n))

    def _options(self, seat: int) -> dict[str, Arrangement]:
        """``split …`` action -> arrangement for ``seat``'s hand (built when first asked for)."""
        opts = self._split_options[seat]
        if opts is None:
            hand = self.hands[seat]
            special = special_arrangement(hand)
            arrs = [special] if special is not None else split_cards(hand)
            opts = self._split_options[seat] = {"split " + arrangement_text(a): a for a in arrs}
        return opts

    # ---- helpers --------------------------------------------------------------------------------
    def players(self) -> list[int]:
        """Every seat but the banker, in order after the banker (the order the banker answers in)."""
        return [(self.banker + i) % self.n for i in range(1, self.n)]

    def visible(self, viewer: int, seat: int) -> bool:
        """May ``viewer`` see ``seat``'s hand now?"""
        return _sees(viewer, seat, self.public, self.seen)

    def _answer_targets(self) -> list[int]:
        """Players the banker may answer now: open hands first (page §五 6), then the covered ones."""
        open_ = [p for p in self.players() if self.calls[p] == "open" and self.answers[p] is None]
        if open_:
            return open_
        return [p for p in self.players() if self.calls[p] in COVER_ANSWERS and self.answers[p] is None]

    # ---- the protocol ---------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return self.n

    @property
    def finished(self) -> bool:
        return self._over

    def to_move(self) -> tuple[int, ...]:
        if self._over:
            return ()
        if self.phase == "answer":
            return (self.banker,)
        return tuple(self.pending)

    def legal_actions(self, seat: int) -> list[str]:
        if self._over or seat not in self.to_move():
            return []
        if self.phase == "arrange":
            return list(self._options(seat))
        if self.phase == "call":
            if self.kinds[seat] != "plain":
                return ["show"]
            cfg = self.config
            allowed = {"force": cfg.allow_force, "attack": cfg.allow_attack, "push": cfg.allow_push}
            return [c for c in PLAYER_CALLS if allowed.get(c, True)]
        if self.phase == "answer":
            return [f"{a} {p}" for p in self._answer_targets() for a in ANSWER_OF[self.calls[p] or "open"]]
        if self.phase == "respond":
            return ["believe", "doubt"] if self.calls[seat] == "open" else ["drink", "compare"]
        return []

    def is_legal(self, seat: int, action: str) -> bool:
        if self._over or seat not in self.to_move() or not isinstance(action, str):
            return False
        if self.phase == "arrange":
            return action in self._options(seat)
        return action in self.legal_actions(seat)

    def why_illegal(self, seat: int, action: str) -> str:
        word, _, rest = action.partition(" ")
        if self.phase == "call" and self.kinds[seat] != "plain" and word in PLAYER_CALLS:
            name = KIND_LABELS[self.kinds[seat]][0]
            return f"a {name} must be shown (page §六(二)): it cannot {word}; the only action is 'show'"
        if self.phase == "call" and word in ("force", "attack", "push"):
            return f"{word} ({LABELS[word][0]}) is switched off in this table's rules"
        if self.phase == "arrange" and word == "split":
            if self.kinds[seat] != "plain":
                name = KIND_LABELS[self.kinds[seat]][0]
                return f"a {name} is arranged as its two pairs: {self.legal_actions(seat)[0]}"
            return f"{rest!r} is not a split of your four cards; yours: {', '.join(self.legal_actions(seat))}"
        if self.phase == "answer" and word in ANSWER_OF["open"] + ANSWER_OF["cover"] + ANSWER_OF["attack"] \
                + ANSWER_OF["push"]:
            target = int(rest) if rest.isdigit() else -1
            if not 0 <= target < self.n or target == self.banker:
                return f"answer a player by seat number, e.g. '{word} {self.players()[0]}'"
            call = self.calls[target]
            if call not in ANSWER_OF:
                return f"seat {target} called {call}: the banker has nothing to answer there"
            if self.answers[target] is not None:
                return f"seat {target} has already been answered ({self.answers[target]})"
            if call != "open" and self._answer_targets() and self.calls[self._answer_targets()[0]] == "open":
                waiting = ", ".join(str(p) for p in self._answer_targets())
                return f"the banker answers the open hands first (page §五 6): seat(s) {waiting} still open"
            return f"seat {target} {LABELS[call][0]} is answered with {' / '.join(ANSWER_OF[call])}"
        return super().why_illegal(seat, action)

    # ---- apply ----------------------------------------------------------------------------------
    def _apply(self, seat: int, action: str) -> list[Event]:
        if self.phase == "arrange":
            return self._arranged(seat, action)
        if self.phase == "call":
            self.calls[seat] = action
            self.pending.remove(seat)
            events: list[Event] = [{"type": "decided", "seat": seat, "phase": "call"}]
            if not self.pending:
                events += self._calls_done()
            return events
        if self.phase == "answer":
            word, _, rest = action.partition(" ")
            target = int(rest)
            self.answers[target] = word
            events = [{"type": "answer", "seat": seat, "target": target, "answer": word,
                       "call": self.calls[target]}]
            if not self._answer_targets():
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
        self.phase = "call"
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
        if self._answer_targets():
            self.phase = "answer"
            self.pending = []
            return events
        return events + self._answers_done()

    def _answers_done(self) -> list[Event]:
        self.pending = [p for p in self.players() if self.calls[p] == "open"
                        or (self.calls[p], self.answers[p]) in (("attack", "accept"), ("push", "deny"))]
        if self.pending:
            self.phase = "respond"
            return []
        return self._settle()

    # ---- settlement -----------------------------------------------------------------------------
    def _settle(self) -> list[Event]:
        b = self.banker
        barr = self.arr[b]
        assert barr is not None
        lines: list[dict[str, Any]] = []
        scores = [0.0] * self.n
        drank = [0] * self.n
        for p in self.players():
            parr = self.arr[p]
            assert parr is not None
            call = self.calls[p]
            shown = False
            if self.kinds[b] != "plain" or self.kinds[p] != "plain":
                result = outcome(barr, parr)
                drink = settle_special(self.kinds[b], self.kinds[p], result, self.table_rules)
                shown = self.kinds[b] != "plain" and self.kinds[p] != "plain"
                call = "show"
            else:
                assert call is not None
                if call == "force":
                    if self.config.force_rearrange == "banker":
                        result = outcome(best_banker_arrangement(self.hands[b], parr), parr)
                    else:
                        result = outcome(barr, worst_player_arrangement(self.hands[p], barr))
                else:
                    result = outcome(barr, parr)
                answer, response = self.answers[p], self.responses[p]
                drink = settle(call, answer, response, result, self.table_rules)  # type: ignore[arg-type]
                shown = (call == "force" or (call == "open" and response == "doubt")
                         or (call == "cover" and answer == "call") or response == "compare")
                if shown and call in COVER_ANSWERS:
                    self.public[p] = True
            if shown:
                self.seen[b] |= 1 << p
            row = [0.0] * self.n
            if drink.drinker != "nobody":
                loser, winner = (p, b) if drink.drinker == "player" else (b, p)
                row[loser] -= drink.mult
                drank[loser] += drink.mult
                if self.config.zero_sum:
                    row[winner] += drink.mult
            for s in range(self.n):
                scores[s] += row[s]
            lines.append(self._line(p, call or "show", drink, result, row))
        if self.config.banker_shows == "all" and self.seen[b]:
            self.public[b] = True
        for s in range(self.n):
            self.total[s] += scores[s]
            self.drinks[s] += drank[s]
        self.rounds_played += 1
        self.last_result = {
            "title": {"zh": f"第{self.rounds_played}局 结算", "en": f"round {self.rounds_played} settlement"},
            "round": self.rounds_played, "banker": b,
            "lines": lines, "scores": scores, "drinks": drank,
        }
        events: list[Event] = [{"type": "settlement", "round": self.rounds_played, "banker": b, "lines": lines,
                                "scores": scores, "drinks": drank, "totals": list(self.total)}]
        self._prev_views = {}
        self.prev = {"round": self.rounds_played, "banker": b, "hands": [list(h) for h in self.hands],
                     "arr": list(self.arr), "public": list(self.public), "seen": list(self.seen),
                     "calls": list(self.calls), "answers": list(self.answers), "responses": list(self.responses)}
        if self.rounds_played >= self.config.rounds:
            self._over = True
            self.phase = "over"
            self.pending = []
            events.append({"type": "match_end", "totals": list(self.total), "drinks": list(self.drinks)})
            return events
        self.banker = self._next_banker(scores, b)
        self._deal(None)
        events.append({"type": "deal", "round": self.rounds_played + 1, "banker": self.banker})
        return events

    def _line(self, p: int, call: str, d: Drink, result: str, row: list[float]) -> dict[str, Any]:
        who_zh = {"banker": "庄家", "player": f"闲家{p}", "nobody": "无人"}[d.drinker]
        who_en = {"banker": "the banker", "player": f"seat {p}", "nobody": "nobody"}[d.drinker]
        res_zh = {"banker": "庄大", "player": "闲大", "walk": "走过"}[result]
        steps_zh = [LABELS[x][0] for x in (call, self.answers[p], self.responses[p]) if x] if call != "show" \
            else [KIND_LABELS[self.kinds[p]][0] or "普通", "对", KIND_LABELS[self.kinds[self.banker]][0] or "普通"]
        steps_en = [LABELS[x][1].split(" (")[0] for x in (call, self.answers[p], self.responses[p]) if x] \
            if call != "show" else [self.kinds[p], "vs banker", self.kinds[self.banker]]
        drinks_zh = f"{who_zh}喝{d.mult}倍" if d.mult else "都不用喝"
        drinks_en = f"{who_en} drinks ×{d.mult}" if d.mult else "nobody drinks"
        compared = d.case.endswith(("_banker", "_player", "_walk"))
        return {
            "seat": p, "rule": d.line, "case": d.case, "mult": d.mult, "drinker": d.drinker,
            "zh": f"闲家{p}：{'·'.join(steps_zh)}{'（' + res_zh + '）' if compared else ''} → {drinks_zh}"
                  f"（规则{d.line}）",
            "en": f"seat {p}: {', '.join(steps_en)}{' (' + result + ')' if compared else ''} → {drinks_en}"
                  f" (rule {d.line})",
            "points": row,
        }

    def _next_banker(self, scores: list[float], banker: int) -> int:
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
        if not self._over:
            return None
        return Result(tuple(self.total), {"drinks": list(self.drinks), "rounds": self.rounds_played,
                                          "zero_sum": self.config.zero_sum})

    def inventory(self) -> Counter[Any]:
        return Counter([c for h in self.hands for c in h] + self.stock)

    # ---- copies ---------------------------------------------------------------------------------
    def clone(self) -> Self:
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g.history = list(self.history)
        g.total = list(self.total)
        g.drinks = list(self.drinks)
        g.hands = [list(h) for h in self.hands]
        g.stock = list(self.stock)
        g.kinds = list(self.kinds)
        g.arr = list(self.arr)
        g._split_options = list(self._split_options)
        g.calls, g.answers, g.responses = list(self.calls), list(self.answers), list(self.responses)
        g.public, g.seen, g.pending = list(self.public), list(self.seen), list(self.pending)
        return g

    def resample(self, viewer: int, rng: random.Random) -> Self:
        """Reshuffle the hands ``viewer`` cannot see with the undealt cards.

        After the reveal every 水鱼/至尊 is face up, so hidden hands are redrawn until none is one; a
        hidden seat that has already split gets a split of its new cards.
        """
        g = self.clone()
        hidden = [s for s in range(self.n) if not self.visible(viewer, s)]
        if not hidden:
            return g
        pool = [c for s in hidden for c in self.hands[s]] + list(self.stock)
        must_be_plain = self.phase != "arrange" or self._over
        for _ in range(1000):
            rng.shuffle(pool)
            if not must_be_plain or all(kind_of_cards(pool[4 * i: 4 * i + 4]) == "plain"
                                        for i in range(len(hidden))):
                break
        for i, s in enumerate(hidden):
            hand = pool[4 * i: 4 * i + 4]
            g.hands[s] = hand
            g.kinds[s] = kind_of_cards(hand)
            g._split_options[s] = None
            if self.arr[s] is not None:
                g.arr[s] = max(g._options(s).values(), key=lambda a: sum(keys_of(a)))
        g.stock = pool[4 * len(hidden):]
        return g

    # ---- views ----------------------------------------------------------------------------------
    def _view(self, viewer: int) -> View:
        n, b = self.n, self.banker
        omni = viewer == OMNISCIENT
        pending = set(self.pending) if self.phase in ("arrange", "call", "respond") else set()
        calls_public = self.calls_public or omni
        responses_public = self.responses_public or omni
        hands: list[list[str] | None] = []
        arrangement: list[dict[str, list[str]] | None] = []
        kinds: list[str | None] = []
        calls: list[str | None] = []
        responses: list[str | None] = []
        seats: list[dict[str, Any]] = []
        for s in range(n):
            visible = _sees(viewer, s, self.public, self.seen)
            hand = [_TEXT[c] for c in self.hands[s]] if visible else None
            arr = self._arr_json(self.arr[s]) if visible else None
            kind = self.kinds[s] if visible else None
            call = self.calls[s] if (calls_public or s == viewer) else None
            response = self.responses[s] if (responses_public or s == viewer) else None
            hands.append(hand)
            arrangement.append(arr)
            kinds.append(kind)
            calls.append(call)
            responses.append(response)
            note = _note(kind if self.public[s] or self._over else None,
                         (call, self.answers[s], response), s in pending)
            seats.append({"seat": s, "role": _BANKER if s == b else _PLAYER, "hand": hand, "hand_count": 4,
                          "groups": [{"label": _HEAD, "cards": arr["head"]}, {"label": _TAIL, "cards": arr["tail"]}]
                          if arr is not None else [],
                          "discards": [], "note": note})
        rnd = self.rounds_played + (0 if self._over else 1)
        zh_phase, en_phase = PHASE_LABELS[self.phase]
        totals = " ".join(f"{s}:{t:g}" for s, t in enumerate(self.total))
        table = {"card_style": "french", "phase": {"zh": zh_phase, "en": en_phase},
                 "info": [{"zh": f"第{rnd}/{self.config.rounds}局 庄家：座{b}",
                           "en": f"round {rnd}/{self.config.rounds}, banker: seat {b}"},
                          {"zh": "总分 " + totals, "en": "totals " + totals}],
                 "seats": seats, "center": [], "select": None, "last_result": self.last_result}
        return {
            "you": viewer, "banker": b, "round": rnd, "rounds": self.config.rounds, "phase": self.phase,
            "hands": hands, "arrangement": arrangement, "kinds": kinds,
            "arranged": [a is not None for a in self.arr],
            "decided": [s not in pending for s in range(n)],
            "calls": calls, "answers": list(self.answers), "responses": responses,
            "drinks": list(self.drinks), "rules": self._rules,
            "last_round": self._last_round(viewer),
            "table": table,
        }

    @staticmethod
    def _arr_json(arr: Arrangement | None) -> dict[str, list[str]] | None:
        if arr is None:
            return None
        (a, b), (c, d) = arr
        return {"head": [_TEXT[a], _TEXT[b]], "tail": [_TEXT[c], _TEXT[d]]}

    def _last_round(self, viewer: int) -> dict[str, Any] | None:
        """The previous round's hands as this viewer saw them at its settlement."""
        prev = self.prev
        if prev is None:
            return None
        cached = self._prev_views.get(viewer)
        if cached is None:
            hands = [self._arr_json(prev["arr"][s]) if _sees(viewer, s, prev["public"], prev["seen"]) else None
                     for s in range(self.n)]
            cached = {"round": prev["round"], "banker": prev["banker"], "arrangement": hands,
                      "calls": list(prev["calls"]), "answers": list(prev["answers"]),
                      "responses": list(prev["responses"])}
            self._prev_views[viewer] = cached
        return cached

    # ---- card-room hooks ------------------------------------------------------------------------
    def timeout_action(self, seat: int) -> str | None:
        legal = self.legal_actions(seat)
        if not legal:
            return None
        if self.phase == "arrange":
            return max(legal, key=lambda a: sum(keys_of(self._options(seat)[a])))
        for pref in ("show", "open", "believe", "drink"):
            if pref in legal:
                return pref
        return legal[0]

    def describe(self, action: str, lang: str = "zh") -> str:
        word, _, rest = action.partition(" ")
        if word not in LABELS:
            return action
        zh, en = LABELS[word]
        if word == "split":
            head, _, tail = rest.partition(" | ")
            return f"头 {head} · 尾 {tail}" if lang == "zh" else f"head {head} · tail {tail}"
        if rest:
            return f"{zh} 闲家{rest}" if lang == "zh" else f"{en}: seat {rest}"
        return zh if lang == "zh" else en
