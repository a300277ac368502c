"""Reading a seat's view back into a game: the parsing every game's ``_from_view`` shares (issue 37).

A view is JSON: after ``json.loads(json.dumps(view))`` tuples are lists and int dict keys are strings.  These
helpers accept both forms, so a view read back from the wire builds the same game as the view itself.  The
unseen cards a game puts in its hidden places before the resample deals them afresh come from :class:`Unseen`,
in a fixed order, so that the placeholder game (and hence the result) depends on the view alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")


def by_seat(value: Mapping[Any, T] | None) -> dict[int, T]:
    """A dict keyed by seat, whether its keys are ints or (after JSON) strings."""
    return {int(k): v for k, v in (value or {}).items()}


def parse_all(texts: Iterable[str] | None, parse: Callable[[str], int]) -> list[int]:
    """Card texts to cards (None reads as none)."""
    return [parse(t) for t in texts or ()]


def counts_of(cards: Iterable[int], kinds: int) -> list[int]:
    """A count vector of ``kinds`` entries from a list of cards."""
    out = [0] * kinds
    for c in cards:
        out[c] += 1
    return out


class Unseen:
    """The cards a seat has not seen: every card of the game less every card its view shows.

    ``take(n)`` hands them out in sorted order to fill hidden places (a hand, the stock, a face-down meld);
    :meth:`paiju.core.game.Game.resample` then deals all of them afresh, so where each placeholder went does not
    matter, only how many each place holds.  A view that shows a card more often than the game has it is
    refused (card conservation)."""

    def __init__(self, every: Iterable[int], seen: Iterable[int]) -> None:
        left = Counter(every)
        left.subtract(seen)
        over = sorted(c for c, n in left.items() if n < 0)
        if over:
            raise ValueError(f"the view shows more of cards {over} than the game has")
        self.cards: list[int] = sorted(left.elements())
        self.at = 0

    def take(self, n: int) -> list[int]:
        """The next ``n`` unseen cards (a ValueError when the view's counts ask for more than are left)."""
        if n < 0 or self.at + n > len(self.cards):
            raise ValueError(f"the view's counts need {n} more hidden cards, {len(self.cards) - self.at} are left")
        out = self.cards[self.at:self.at + n]
        self.at += n
        return out

    def take_set(self, n: int) -> list[int]:
        """``n`` of one kind, the lowest kind with that many left (a face-down meld of like cards)."""
        left = Counter(self.cards[self.at:])
        kind = min((c for c, k in left.items() if k >= n), default=None)
        if kind is None:
            raise ValueError(f"the view shows a face-down set of {n} but no card is unseen that often")
        self.cards[self.at:] = sorted((left - Counter({kind: n})).elements())
        return [kind] * n

    def rest(self) -> list[int]:
        """Every unseen card not yet taken."""
        return self.take(len(self.cards) - self.at)

    def take_counts(self, n: int, kinds: int) -> list[int]:
        """``take(n)`` as a count vector."""
        return counts_of(self.take(n), kinds)
