"""One claim window: these seats may claim the card just shown, each answers once (at the same time, in any
order), and the claims are carried out by a priority the game gives.

滑水 opens one on every discard (win, 碰, 杠) and on an added kong (robbing it); 偎麻雀 on every card drawn or
discarded (胡, 碰, 吃).  The window itself holds no rules: the game says who may answer what and in which order
claims outrank each other, then asks either for every answer (:meth:`complete`, 滑水 waits for all so that
several may win on one discard) or for the best claim as soon as nobody who could outrank it is still deciding
(:meth:`best`, 偎麻雀).

>>> w = ClaimWindow({2: ["hu", "pass"], 3: ["pung 5m", "pass"]}, [(2, "hu"), (3, "pung")])
>>> w.waiting()
(2, 3)
>>> w.answer(3, "pung 5m")
>>> w.best() is PENDING  # seat 2 could still win
True
>>> w.answer(2, "pass")
>>> w.best(), w.complete()
((3, 'pung 5m'), True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from .terms import Action, Seat

PASS: Final = "pass"


class _Pending:
    """The best claim cannot be known yet: a seat that could outrank it has not answered."""

    def __repr__(self) -> str:
        return "PENDING"


PENDING: Final = _Pending()


def kind_of(action: Action) -> str:
    """An answer's kind is its verb: ``"pung 5m"`` → ``"pung"``, ``"chi x1 x2"`` → ``"chi"``."""
    return action.partition(" ")[0]


class ClaimWindow:
    """Who may claim (``options``: seat → the answers it may give), what each answered (``answers``), and the
    order in which claims are carried out (``priority``: (seat, kind) pairs, best first)."""

    __slots__ = ("answers", "options", "priority")

    def __init__(self, options: Mapping[Seat, list[Action]] | None = None,
                 priority: Iterable[tuple[Seat, str]] = ()) -> None:
        self.options: dict[Seat, list[Action]] = dict(options or {})
        self.answers: dict[Seat, Action] = {}
        self.priority: list[tuple[Seat, str]] = list(priority)

    def copy(self) -> ClaimWindow:
        """An independent copy (the option lists are never changed in place, so they are shared)."""
        w = ClaimWindow.__new__(ClaimWindow)
        w.options = self.options.copy()
        w.answers = self.answers.copy()
        w.priority = self.priority.copy()
        return w

    def __bool__(self) -> bool:
        """Open: somebody may claim."""
        return bool(self.options)

    def __repr__(self) -> str:
        return f"ClaimWindow({self.options!r}, {self.priority!r}, answers={self.answers!r})"

    def waiting(self) -> tuple[Seat, ...]:
        """Seats that may claim and have not answered, in the order the options were given."""
        return tuple(s for s in self.options if s not in self.answers)

    def may_answer(self, seat: Seat) -> Sequence[Action]:
        """What ``seat`` may answer now (nothing once it has answered)."""
        return () if seat in self.answers else self.options.get(seat, ())

    def answer(self, seat: Seat, action: Action) -> None:
        self.answers[seat] = action

    def complete(self) -> bool:
        """Every seat that may claim has answered."""
        return len(self.answers) == len(self.options)

    def claimed(self, kind: str) -> list[Seat]:
        """Seats whose answer is a claim of ``kind``, in priority order (several may win on one discard)."""
        return [s for s, k in self.priority if k == kind and kind_of(self.answers.get(s, PASS)) == kind]

    def best(self) -> tuple[Seat, Action] | _Pending | None:
        """The claim to carry out: the first (seat, kind) of the priority whose seat answered that kind.

        ``PENDING`` while a seat earlier in the priority has not answered (it could still outrank the rest);
        None when every claim was passed.
        """
        for seat, kind in self.priority:
            action = self.answers.get(seat)
            if action is None:
                return PENDING
            if kind_of(action) == kind:
                return seat, action
        return None
