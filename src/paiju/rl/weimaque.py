"""安乡偎麻雀 for RL: 26 action ids, a 672-float observation; the 守醒 is no agent.

吃 is numbered by where the shown card sits in the run it completes (``chi low``: the shown card is the
run's smallest).  Seats in the observation are relative: 0 is the observer, 1 the next seat round the table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from paiju.core.game import Action, Game, Seat, View
from paiju.games.weimaque.cards import NUM_KINDS, alias, parse_card

from .core import Decision, Obs, Part, Spec, squash

K = NUM_KINDS
HU, PASS, PENG, CHI, DISCARD = 0, 1, 2, 3, 6
CHI_NAMES = ("chi low", "chi middle", "chi high")
ACTIONS: tuple[str, ...] = ("hu", "pass", "peng", *CHI_NAMES, *(f"discard {alias(k)}" for k in range(K)))
_KIND: dict[str, int] = {alias(k): k for k in range(K)}
_SIMPLE = {"hu": HU, "pass": PASS, "peng": PENG}

# one relative seat's block
S_HAND, S_PENG, S_CHI, S_WEI, S_DISCARDS, S_PLAYED, S_LOCKED = (i * K for i in range(7))
S_HIDDEN_WEI = 7 * K
S_COUNT = S_HIDDEN_WEI + 1
S_ROLE = S_COUNT + 1
"""dealer, player, 守醒"""
S_TOTAL = S_ROLE + 3
SEAT_WIDTH = S_TOTAL + 1

EXPOSED = 0
SOURCE = EXPOSED + K
"""drawn, discarded"""
SOURCE_SEAT = SOURCE + 2
GUO = SOURCE_SEAT + 4
STOCK = GUO + K
LAST_CARD = STOCK + 1
PHASE = LAST_CARD + 1
PHASES = ("discard", "claim", "over")
TURN = PHASE + len(PHASES)
HAND_NO = TURN + 4
SEATS_BASE = HAND_NO + 1
SIZE = SEATS_BASE + 4 * SEAT_WIDTH

_SEAT_PARTS = [
    ("hand", S_HAND, K, "its hand when I may see it (mine; all three for the 守醒), count / 4 per kind x1…x10 d1…d10"),
    ("peng", S_PENG, K, "cards in its 碰, count / 4"),
    ("chi", S_CHI, K, "cards in its 吃 runs, count / 4"),
    ("wei", S_WEI, K, "cards in its 煨 when face up to me, count / 4"),
    ("discards", S_DISCARDS, K, "cards lying before it, count / 4"),
    ("played", S_PLAYED, K, "kinds it has discarded or played out (it may not 吃 them)"),
    ("locked", S_LOCKED, K, "kinds it 碰'd or 吃'd (it may not discard them)"),
    ("hidden wei", S_HIDDEN_WEI, 1, "its face-down 煨 / 4"),
    ("hand count", S_COUNT, 1, "cards in its hand / 21"),
    ("role", S_ROLE, 3, "dealer, player, 守醒"),
    ("total", S_TOTAL, 1, "match tally, tanh(息 / 40)"),
]
LAYOUT: list[Part] = [
    Part("exposed", EXPOSED, K, "the card on offer (drawn and shown, or discarded), one-hot"),
    Part("source", SOURCE, 2, "it was drawn, discarded"),
    Part("source seat", SOURCE_SEAT, 4, "relative seat that showed it"),
    Part("passed cards", GUO, K, "过张: kinds that may no longer be 碰'd or 吃'd (by me, or by anyone: the option)"),
    Part("stock", STOCK, 1, "cards left in the stock / 22"),
    Part("last card", LAST_CARD, 1, "the card on offer is the stock's last"),
    Part("phase", PHASE, 3, "discard, claim, over"),
    Part("turn", TURN, 4, "relative seat to discard, one-hot"),
    Part("hand number", HAND_NO, 1, "hand / hands"),
] + [Part(name, SEATS_BASE + off, width, f"per relative seat: {meaning}", SEAT_WIDTH, 4)
      for name, off, width, meaning in _SEAT_PARTS]

_SCALE = np.ones(SIZE, dtype=np.float32)
for _r in range(4):
    _b = SEATS_BASE + SEAT_WIDTH * _r
    _SCALE[_b:_b + S_PLAYED] = 0.25
    _SCALE[_b + S_HIDDEN_WEI] = 0.25
_MELD = {"peng": S_PENG, "chi": S_CHI, "wei": S_WEI}


class WeimaqueSpec(Spec):
    name = "weimaque"
    num_actions = len(ACTIONS)
    obs_size = SIZE
    score_scale = 40.0
    layout = LAYOUT
    actions = ACTIONS

    def never_plays(self, seat: Seat) -> str | None:
        cfg = self.config
        if cfg.hands == 1 and cfg.first_dealer >= 0 and seat == (cfg.first_dealer + 2) % 4:
            return (f"seat {seat} is the 守醒 (opposite the dealer, seat {cfg.first_dealer}) and never decides "
                    "in a one-hand match: pick another seat, another first_dealer, or hands > 1")
        return None

    def playing_seats(self, game: Game[Any]) -> list[Seat]:
        if game.config.hands == 1:
            watcher = game.view(-1)["watcher"]
            return [s for s in range(4) if s != watcher]
        return [0, 1, 2, 3]

    def to_id(self, view: View, action: Action) -> int:
        word, _, rest = action.partition(" ")
        if word == "discard":
            return DISCARD + _KIND[rest]
        if word == "chi":
            a, b = (parse_card(t) for t in rest.split())
            card = _KIND[view["exposed"]["card"]]
            return CHI + card - min(a, b, card)
        return _SIMPLE[word]

    def to_action(self, view: View, aid: int) -> Action:
        if CHI <= aid < DISCARD:
            card = _KIND[view["exposed"]["card"]]
            lo = card - (aid - CHI)
            a, b = (k for k in (lo, lo + 1, lo + 2) if k != card)
            return f"chi {alias(a)} {alias(b)}"
        return ACTIONS[aid]

    def encode(self, view: View, decision: Decision | None) -> Obs:
        me: int = view["viewer"]
        kind = _KIND
        idx: list[int] = []
        ap = idx.append
        exposed = view["exposed"]
        if exposed is not None:
            ap(EXPOSED + kind[exposed["card"]])
            ap(SOURCE + (exposed["source"] != "draw"))
            ap(SOURCE_SEAT + ((exposed["seat"] - me) & 3))
            if view["last_card"]:
                ap(LAST_CARD)
        idx.extend([GUO + kind[c] for c in view["guozhang"]])
        ap(PHASE + PHASES.index(view["phase"]))
        if view["turn"] is not None:
            ap(TURN + ((view["turn"] - me) & 3))
        seats = view["table"]["seats"]
        melds, discards, played, locked = view["melds"], view["discards"], view["played"], view["locked"]
        dealer, watcher = view["dealer"], view["watcher"]
        for r in range(4):
            s = (me + r) & 3
            base = SEATS_BASE + SEAT_WIDTH * r
            hand = seats[s]["hand"]
            if hand is not None:
                idx.extend([base + kind[c] for c in hand])
            for m in melds[s]:
                cards = m["cards"]
                if cards[0] == "??":
                    ap(base + S_HIDDEN_WEI)
                else:
                    off = base + _MELD[m["kind"]]
                    idx.extend([off + kind[c] for c in cards])
            off = base + S_DISCARDS
            idx.extend([off + kind[c] for c in discards[s]])
            off = base + S_PLAYED
            idx.extend([off + kind[c] for c in played[s]])
            off = base + S_LOCKED
            idx.extend([off + kind[c] for c in locked[s]])
            ap(base + S_ROLE + (2 if s == watcher else 0 if s == dealer else 1))
        out = np.bincount(idx, minlength=SIZE).astype(np.float32)
        out *= _SCALE
        counts, totals = view["hand_counts"], view["totals"]
        for r in range(4):
            s = (me + r) & 3
            base = SEATS_BASE + SEAT_WIDTH * r
            out[base + S_COUNT] = counts[s] / 21.0
            out[base + S_TOTAL] = squash(totals[s], self.score_scale)
        out[STOCK] = view["stock"] / 22.0
        out[HAND_NO] = view["hand_no"] / self.config.hands
        return out
