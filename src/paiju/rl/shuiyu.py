"""广西水鱼 for RL: 13 + 8 (seats - 1) action ids, an observation of 58 + 81 floats per seat.

Splits are numbered by the hand: with the four cards in card order (``AS AH … KD``), split ``p`` pairs the
first card with card ``p + 1``.  The banker's answers name a player by its seat *offset* after the banker
(1 = the next seat).  Seats in the observation are relative too: 0 is the observer.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from paiju.core.cards import card_text, parse_cards
from paiju.core.game import Action, View
from paiju.games.shuiyu.rules import GROUP_KEY, NUM_KEYS, arrangement_text, split_cards

from .core import Decision, Obs, Part, Spec, squash

CALLS = ("open", "cover", "force", "attack", "push", "show")
RESPONSES = ("believe", "doubt", "drink", "compare")
ANSWERS = ("kill", "walk", "call", "concede", "accept", "refuse", "allow", "deny")
KINDS = ("plain", "shuiyu", "zhizun")
PHASES = ("arrange", "call", "answer", "respond", "over")
SPLIT, CALL, RESPOND, ANSWER = 0, 3, 3 + len(CALLS), 3 + len(CALLS) + len(RESPONSES)
_CARD = {card_text(c): c for c in range(52)}

# one seat's block
S_BANKER, S_VISIBLE, S_HAND, S_KEYS = 0, 1, 2, 54
S_KIND = 56
S_CALL = S_KIND + len(KINDS)
S_ANSWER = S_CALL + len(CALLS)
S_RESPONSE = S_ANSWER + len(ANSWERS)
S_ARRANGED = S_RESPONSE + len(RESPONSES)
S_DECIDED = S_ARRANGED + 1
S_TOTAL = S_DECIDED + 1
S_DRINKS = S_TOTAL + 1
SEAT_WIDTH = S_DRINKS + 1

OWN_SPLITS = 0
"""(head key, tail key) / NUM_KEYS of each of my three splits, in split order."""
PHASE = 6
ROUND = PHASE + len(PHASES)
SEATS_BASE = ROUND + 1
_SEAT_PARTS = [
    ("banker", S_BANKER, 1, "this seat is the banker"),
    ("visible", S_VISIBLE, 1, "its cards are visible to me (mine, face up, or shown to me)"),
    ("hand", S_HAND, 52, "its four cards, multi-hot by card (AS AH AC AD 2S …)"),
    ("keys", S_KEYS, 2, "strength of its head and tail as split / 572 (pairs above every point value)"),
    ("kind", S_KIND, 3, "plain, 水鱼, 至尊 (when visible)"),
    ("call", S_CALL, 6, "open, cover, force, attack, push, show (once public, or my own)"),
    ("answer", S_ANSWER, 8, "the banker's answer to it: kill walk call concede accept refuse allow deny"),
    ("response", S_RESPONSE, 4, "believe, doubt, drink, compare (once public, or my own)"),
    ("arranged", S_ARRANGED, 1, "has split its hand"),
    ("decided", S_DECIDED, 1, "has decided in the current simultaneous phase"),
    ("total", S_TOTAL, 1, "match tally, tanh(points / 4)"),
    ("drinks", S_DRINKS, 1, "drinks so far, tanh(drinks / 4)"),
]


def _sorted_hand(view: View) -> list[int]:
    hand = view["hands"][view["viewer"]]
    return sorted(_CARD[c] for c in hand)


class ShuiyuSpec(Spec):
    name = "shuiyu"
    score_scale = 4.0

    @staticmethod
    def num_seats(config: Any) -> int:
        return int(config.seats)

    def __init__(self, config: Any) -> None:
        super().__init__(config)
        n = self.seats
        self.num_actions = ANSWER + len(ANSWERS) * (n - 1)
        self.obs_size = SEATS_BASE + SEAT_WIDTH * n
        self.layout = [
            Part("own splits", OWN_SPLITS, 6, "(head key, tail key) / 572 of my three splits, in split-id order"),
            Part("phase", PHASE, len(PHASES), "arrange, call, answer, respond, over"),
            Part("round", ROUND, 1, "round / rounds"),
        ] + [Part(name, SEATS_BASE + off, width, f"per relative seat: {meaning}", SEAT_WIDTH, n)
             for name, off, width, meaning in _SEAT_PARTS]
        self._names = ([f"split {p}" for p in range(3)] + list(CALLS) + list(RESPONSES)
                       + [f"{a} +{o}" for a in ANSWERS for o in range(1, n)])
        self._ids = {name: i for i, name in enumerate(self._names)}

    def action_names(self) -> list[str]:
        return list(self._names)

    def to_id(self, view: View, action: Action) -> int:
        word, _, rest = action.partition(" ")
        if word == "split":
            hand = _sorted_hand(view)
            cards = parse_cards(rest.replace("|", " "))
            first = hand[0]
            i = cards.index(first)
            partner = cards[i ^ 1]
            return SPLIT + hand.index(partner) - 1
        if rest:
            offset = (int(rest) - view["banker"]) % self.seats
            return self._ids[f"{word} +{offset}"]
        return self._ids[word]

    def to_action(self, view: View, aid: int) -> Action:
        name = self._names[aid]
        if aid < CALL:
            return "split " + arrangement_text(split_cards(_sorted_hand(view))[aid])
        word, _, off = name.partition(" +")
        if off:
            return f"{word} {(view['banker'] + int(off)) % self.seats}"
        return word

    def encode(self, view: View, decision: Decision | None) -> Obs:
        n, me = self.seats, view["viewer"]
        out = np.zeros(self.obs_size, dtype=np.float32)
        hands = view["hands"]
        if hands[me] is not None:
            for p, ((a, b), (c, d)) in enumerate(split_cards(_sorted_hand(view))):
                out[OWN_SPLITS + 2 * p] = GROUP_KEY[a * 52 + b] / NUM_KEYS
                out[OWN_SPLITS + 2 * p + 1] = GROUP_KEY[c * 52 + d] / NUM_KEYS
        out[PHASE + PHASES.index(view["phase"])] = 1.0
        out[ROUND] = min(view["round"], view["rounds"]) / view["rounds"]
        arrangement, kinds = view["arrangement"], view["kinds"]
        calls, answers, responses = view["calls"], view["answers"], view["responses"]
        arranged, decided, totals, drinks = view["arranged"], view["decided"], view["totals"], view["drinks"]
        for r in range(n):
            s = (me + r) % n
            base = SEATS_BASE + SEAT_WIDTH * r
            if s == view["banker"]:
                out[base + S_BANKER] = 1.0
            if hands[s] is not None:
                out[base + S_VISIBLE] = 1.0
                for c in hands[s]:
                    out[base + S_HAND + _CARD[c]] = 1.0
            arr = arrangement[s]
            if arr is not None:
                h0, h1 = (_CARD[c] for c in arr["head"])
                t0, t1 = (_CARD[c] for c in arr["tail"])
                out[base + S_KEYS] = GROUP_KEY[h0 * 52 + h1] / NUM_KEYS
                out[base + S_KEYS + 1] = GROUP_KEY[t0 * 52 + t1] / NUM_KEYS
            if kinds[s] is not None:
                out[base + S_KIND + KINDS.index(kinds[s])] = 1.0
            if calls[s] is not None:
                out[base + S_CALL + CALLS.index(calls[s])] = 1.0
            if answers[s] is not None:
                out[base + S_ANSWER + ANSWERS.index(answers[s])] = 1.0
            if responses[s] is not None:
                out[base + S_RESPONSE + RESPONSES.index(responses[s])] = 1.0
            out[base + S_ARRANGED] = float(arranged[s])
            out[base + S_DECIDED] = float(decided[s])
            out[base + S_TOTAL] = squash(totals[s], self.score_scale)
            out[base + S_DRINKS] = squash(drinks[s], self.score_scale)
        return out
