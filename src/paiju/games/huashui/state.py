"""The state of a 滑水 match, declared once, and the vocabulary the engine and the view share: phases, meld
kinds, the action notation.

Who sees what: each seat its own concealed tiles (``counts``, with their per-suit ``keys``), its pass locks
and its claim options; the tile it just drew is its own; the wall is hidden from all; melds (one tile of a
concealed kong face up), discards and payments are public.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from paiju.core.claims import ClaimWindow
from paiju.core.game import Game
from paiju.core.state import COPY, EACH, HIDDEN, OWNER, SHARED, Cards, Copy, cache, cards, field
from paiju.core.terms import OMNISCIENT, Action, Event, Seat

from .config import HuashuiConfig
from .tiles import NUM_KINDS, TILE_TEXT, Tile


class Phase(StrEnum):
    TURN = "turn"
    CLAIM = "claim"
    ROB = "rob"
    OVER = "over"


TURN, CLAIM, ROB, OVER = Phase.TURN, Phase.CLAIM, Phase.ROB, Phase.OVER

PUNG, KONG_EXPOSED, KONG_ADDED, KONG_CONCEALED = "pung", "kong_exposed", "kong_added", "kong_concealed"

Meld = tuple[str, Tile, Seat]
"""(kind, tile, seat it came from — the owner for a concealed kong or a self-made added kong's pung source)."""

# ---- the action notation: every action string is built once, and read back by a look-up ------------------
HU, PASS = "hu", "pass"
DISCARD_ACT = tuple(f"discard {t}" for t in TILE_TEXT)
KONG_ACT = tuple(f"kong {t}" for t in TILE_TEXT)
PUNG_ACT = tuple(f"pung {t}" for t in TILE_TEXT)
ACTIONS: dict[str, tuple[str, int]] = {HU: (HU, -1), PASS: (PASS, -1)}
"""Action string -> (verb, tile; -1 for none)."""
for _t in range(NUM_KINDS):
    ACTIONS[DISCARD_ACT[_t]] = ("discard", _t)
    ACTIONS[KONG_ACT[_t]] = ("kong", _t)
    ACTIONS[PUNG_ACT[_t]] = ("pung", _t)


def _drawn_sight(game: HuashuiState, viewer: int, seat: int) -> bool:
    return viewer in (game.current, OMNISCIENT)


class HuashuiState(Game[HuashuiConfig]):
    """The fields of a 滑水 match, each declared once (see :mod:`paiju.core.state`)."""

    _totals: Annotated[list[int], COPY]
    rules: Annotated[dict[str, Any], SHARED]  # the config as a dict, in every view (never changed)
    hand_no: int
    results: Annotated[list[dict[str, Any]], COPY]  # one summary per hand, never changed once made
    last_result: Annotated[dict[str, Any] | None, SHARED]  # replaced at each settlement
    _events: Annotated[list[Event], COPY]  # events made between actions (the next hand's start)
    _version: int
    """Bumped by every action: the caches below are valid at their version only."""
    _legal_at: Annotated[int, cache(-1)]
    _legal: Annotated[dict[Seat, list[Action]], cache(dict)]
    _text_at: Annotated[int, cache(-1)]
    _text: Annotated[dict[Seat, list[str]], cache(dict)]
    dealer: Seat
    dice: tuple[int, int]
    wall: Annotated[list[Tile], cards(Cards.LIST, sees=HIDDEN, span=("front", "back"))]
    front: int
    back: int
    """The wall is drawn from ``front``; kong replacements come from ``back``; ``wall[front:back]`` is left."""
    counts: Annotated[list[list[int]], cards(Cards.COUNTS, per_seat=True, sees=OWNER)]
    keys: Annotated[list[list[int]], field(Copy.EACH, per_seat=True, sees=OWNER, derived=True)]
    """Per seat, one base-5 key per suit of its concealed tiles (see :mod:`.tables`)."""
    melds: Annotated[list[list[Meld]], EACH]
    discards: Annotated[list[list[Tile]], EACH]
    locks: Annotated[list[set[Tile]], field(Copy.EACH, per_seat=True, sees=OWNER)]
    held_fourth: Annotated[list[set[Tile]], field(Copy.EACH, per_seat=True, sees=OWNER)]
    """Per seat, the tiles it punged while holding the fourth: that pung never becomes a 过路杠 (the page's
    过路杠 is 碰牌后又自己摸到一張; the fourth held then is an ordinary tile).  Hidden: nobody else knows."""
    lock_all: Annotated[list[bool], field(Copy.COPY, per_seat=True, sees=OWNER)]
    hand_lines: Annotated[list[dict[str, Any]], COPY]  # payment lines, never changed once made
    phase: Phase
    current: Seat
    drew: bool
    after_kong: bool
    last_drawn: Annotated[Tile | None, field(sees=_drawn_sight, derived=True)]
    last_discard: tuple[Seat, Tile] | None
    claim_tile: Tile
    claim_from: Seat
    claim: Annotated[ClaimWindow, field(Copy.COPY, sees=OWNER)]  # each seat sees its own options only
    gen_active: bool
    gen_tile: Tile
    first_discards: int

    @property
    def claim_opts(self) -> dict[Seat, list[Action]]:
        """The old name of ``claim.options``."""
        return self.claim.options

    @property
    def choices(self) -> dict[Seat, Action]:
        """The old name of ``claim.answers``."""
        return self.claim.answers
