"""Scripted first deals for the browser tests: they reach a 升级 bury or a 滑水 claim without a long game."""

from __future__ import annotations

from collections import Counter
from typing import Any

from paiju.core.cards import card_text


def shengji_bury_deal() -> dict[str, Any]:
    """Seat 0 deals (so it buries the kitty holding 63 cards) and holds no 2 and no joker, so it never has a
    bid to decide: its first decision is the bury."""
    deck = [c for c in range(54) for _ in range(4)]
    level = {4, 5, 6, 7, 52, 53}  # the four 2s and both jokers (start level 2)
    plain = [c for c in deck if c not in level]
    special = [c for c in deck if c in level]
    seat0 = plain[::3][:51]
    rest = list((Counter(deck) - Counter(seat0)).elements())
    rest.sort(key=lambda c: (c not in level, c))  # jokers and 2s go to the bots and the kitty
    assert all(c not in level for c in seat0) and len(special) == 24
    others = [rest[i::3][:51] for i in range(3)]
    kitty = list((Counter(rest) - Counter(others[0]) - Counter(others[1]) - Counter(others[2])).elements())
    hands = [seat0, *others]
    return {"hands": [[card_text(c) for c in h] for h in hands], "kitty": [card_text(c) for c in kitty],
            "start": 0, "dealer": 0}


def huashui_claim_deal() -> dict[str, Any]:
    """Seat 1 deals and throws its lone East (1z) first, the tile seat 0 (the person) waits on: seat 0 may
    win, pung it or pass.  Seat 0: 123m456m789m + 1z1z + 9s9s, a 双碰 wait on East or 9s; the other bots hold
    scattered tiles far from a win."""
    hands = ["123m456m789m1z1z9s9s", "234p567p789p24s55s1z", "147m258p36s23456z", "258m369p147s2345z"]
    used = Counter(t for h in hands for t in _tiles(h))
    assert max(used.values()) <= 4 and [len(_tiles(h)) for h in hands] == [13, 14, 13, 13]
    return {"dealer": 1, "dice": [3, 4], "hands": hands}


def _tiles(hand: str) -> list[str]:
    out: list[str] = []
    digits = ""
    for ch in hand:
        if ch.isdigit():
            digits += ch
        else:
            out.extend(d + ch for d in digits)
            digits = ""
    return out


def huashui_discard_deal() -> dict[str, Any]:
    """Seat 0 deals: its first decision is a discard from fourteen tiles (two pairs among them), with no win
    and no kong to declare."""
    hands = ["123m456m789m1z1z9s9s5p", "234p567p789p24s55s", "147m258p36s23456z", "258m369p147s2345z"]
    used = Counter(t for h in hands for t in _tiles(h))
    assert max(used.values()) <= 4 and [len(_tiles(h)) for h in hands] == [14, 13, 13, 13]
    return {"dealer": 0, "dice": [3, 4], "hands": hands}
