"""Declared state: an engine declares each of its fields once — its type, how a copy takes it, who may see it —
and ``clone``, ``resample`` and view redaction follow from that one declaration.

A field is a class-level annotation of the game's state class.  An immutable type (int, str, an enum, a
tuple, a frozen dataclass, None, or a union of these) needs nothing more: a copy shares it.  Anything that can
change in place must say how a copy takes it, and a field some viewer may not see says who may, both with
``typing.Annotated``::

    class ToyState(Game[ToyConfig]):
        turn: int
        pile: Annotated[list[str], COPY]
        hands: Annotated[list[list[str]], cards(Cards.LIST, per_seat=True, sees=OWNER)]
        stock: Annotated[list[str], cards(Cards.LIST, sees=HIDDEN)]
        last_result: Annotated[dict[str, Any] | None, SHARED]  # replaced at each settlement, never changed

A mutable type left undeclared is refused when the class is made, so no field can be shared by accident.
From the declaration the base class builds:

- ``clone()``: generated code that copies exactly the declared fields, each as declared.  An attribute that is
  not declared is not copied at all, so a forgotten field fails loudly (``AttributeError`` on the copy) rather
  than being silently shared; caches start empty in the copy.
- ``resample(viewer, rng)``: every card the viewer cannot see (by the fields' sights) goes into one pool, is
  shuffled with ``rng`` and dealt back into the same places in the same numbers; the match's random stream is
  hidden from every seat, so it is reseeded from ``rng``.  What no declaration can say (a derived field, a
  constraint such as "a hidden hand after the reveal is not a 水鱼") is the game's resample hooks.
- ``sees(field, viewer, seat)``: the view code asks the declaration who may see what, so the view and the
  resample cannot disagree.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.machinery
import inspect
import sys
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, ClassVar, Literal

from .terms import OMNISCIENT

Sight = Callable[[Any, int, int], bool]
"""``(game, viewer, seat) -> bool``: may ``viewer`` see this field (its ``seat`` entry, for a per-seat field;
``seat`` is -1 for a whole field)?  Called only for real viewers: ``OMNISCIENT`` sees everything."""


def PUBLIC(game: Any, viewer: int, seat: int) -> bool:
    """Everyone sees it."""
    return True


def HIDDEN(game: Any, viewer: int, seat: int) -> bool:
    """Nobody at the table sees it (the stock, the wall, the random stream)."""
    return viewer == OMNISCIENT


def OWNER(game: Any, viewer: int, seat: int) -> bool:
    """Each seat sees its own entry only."""
    return viewer in (seat, OMNISCIENT)


class Copy(Enum):
    """How ``clone()`` takes a field."""

    SHARE = "share"
    """The same object: immutable, or replaced and never changed in place (say which in the field's comment)."""
    COPY = "copy"
    """``value.copy()``: a list, dict or set of immutable items, or an object with its own ``copy()``."""
    EACH = "each"
    """A list of such: ``[x.copy() for x in value]`` (per-seat hands, melds, discards)."""
    VALUES = "values"
    """A dict of such: ``{k: x.copy() for k, x in value.items()}``."""
    FRESH = "fresh"
    """A cache: the copy starts from the field's ``empty`` (a value, or a factory such as ``dict``)."""


class Cards(Enum):
    """How a card field holds its cards, for the resample's pool."""

    LIST = "list"
    """A list of cards (a hand, the stock, the wall); ``span`` may name the part that is still hidden."""
    COUNTS = "counts"
    """A count vector (count per card kind); ``fixed`` may name the part others know (cards shown)."""


@dataclass(frozen=True)
class Field:
    copy: Copy = Copy.SHARE
    sees: Sight = PUBLIC
    per_seat: bool = False
    """One entry per seat (a list indexed by seat): ``sees`` is asked seat by seat."""
    cards: Cards | None = None
    span: tuple[str | None, str | None] | None = None
    """Names of the int fields bounding the hidden part of a ``Cards.LIST`` (None: its start or end)."""
    fixed: str | None = None
    """Name of a per-seat count field of cards everyone knows are in this ``Cards.COUNTS`` hand."""
    face_up: str | None = None
    """Name of a field (or property) listing the positions of a ``Cards.LIST`` everyone sees (they stay)."""
    empty: Any = None
    derived: bool = False
    """Recomputed from the cards by the game's ``_rederive`` after a resample (documents the hook)."""


def field(copy: Copy = Copy.SHARE, *, sees: Sight = PUBLIC, per_seat: bool = False, derived: bool = False) -> Field:
    """An ordinary field: how a copy takes it, who may see it."""
    return Field(copy=copy, sees=sees, per_seat=per_seat, derived=derived)


SHARED = Field(Copy.SHARE)
"""A mutable value that is replaced, never changed in place: copies share it (say why beside it)."""
COPY = Field(Copy.COPY)
EACH = Field(Copy.EACH)
VALUES = Field(Copy.VALUES)


def cache(empty: Any) -> Field:
    """A cache, rebuilt on demand: a copy starts from ``empty`` (a value, or a factory called per copy)."""
    return Field(copy=Copy.FRESH, empty=empty)


def cards(form: Cards, *, sees: Sight, per_seat: bool = False, span: tuple[str | None, str | None] | None = None,
          fixed: str | None = None, face_up: str | None = None) -> Field:
    """A field holding cards: a resample deals afresh the parts the viewer cannot see."""
    return Field(copy=Copy.EACH if per_seat else Copy.COPY, sees=sees, per_seat=per_seat, cards=form, span=span,
                 fixed=fixed, face_up=face_up)


class State:
    """The declared fields of an engine, in order.  Build with keyword arguments: ``State(hands=cards(...))``."""

    def __init__(self, fields: Mapping[str, Field] | None = None, /, **named: Field) -> None:
        self.fields: dict[str, Field] = {**(fields or {}), **named}
        for name, f in self.fields.items():
            if f.cards is not None and f.copy is not (Copy.EACH if f.per_seat else Copy.COPY):
                raise TypeError(f"card field {name!r} must be copied {'EACH' if f.per_seat else 'COPY'}")
            if (f.span is not None or f.face_up is not None) and f.cards is not Cards.LIST:
                raise TypeError(f"field {name!r}: a span or face-up positions belong to a Cards.LIST field")
            if f.fixed is not None and f.cards is not Cards.COUNTS:
                raise TypeError(f"field {name!r}: a fixed part belongs to a Cards.COUNTS field")
        self.card_fields: tuple[tuple[str, Field], ...] = tuple(
            (name, f) for name, f in self.fields.items() if f.cards is not None)

    @classmethod
    def of(cls, klass: type, below: type) -> State:
        """The fields ``klass`` declares by its class-level annotations and those of its bases under ``below``
        (the game base, whose own fields are its business), base classes first."""
        names: list[str] = []
        for k in reversed(klass.__mro__):
            if k is not below and isinstance(k, type) and issubclass(k, below):
                restore_annotations(k)
                names += [n for n in inspect.get_annotations(k) if n not in names]
        if not names:
            return cls()
        try:
            hints = typing.get_type_hints(klass, include_extras=True)
        except NameError as e:
            raise TypeError(f"{klass.__name__}: a field's type names something not importable at run time: {e}") \
                from None
        fields: dict[str, Field] = {}
        for name in names:
            hint = hints[name]
            if typing.get_origin(hint) is ClassVar:
                continue
            if typing.get_origin(hint) is Annotated:
                declared = [m for m in typing.get_args(hint)[1:] if isinstance(m, Field)]
                if declared:
                    fields[name] = declared[0]
                    continue
                hint = typing.get_args(hint)[0]
            if not _immutable(hint):
                raise TypeError(f"{klass.__name__}.{name}: {hint} can change in place; declare how a copy takes it, "
                                f"e.g. Annotated[..., COPY] (or SHARED if it is only ever replaced)")
            fields[name] = Field()
        return cls(fields)

    def __bool__(self) -> bool:
        return bool(self.fields)

    def __iter__(self) -> Iterator[str]:
        return iter(self.fields)

    def __contains__(self, name: object) -> bool:
        return name in self.fields

    def __or__(self, other: State) -> State:
        return State({**self.fields, **other.fields})

    def compile_clone(self) -> Callable[[Any], Any]:
        """Generated ``clone``: one line per field, as declared (no loop, no ``__dict__``, no deepcopy).

        The random stream is the game base's business: it is appended by :meth:`Game.clone`.
        """
        # cls.__new__, not object.__new__, which a class compiled by mypyc refuses; the game base defines no
        # __new__, so for a pure class it is object.__new__ itself
        env: dict[str, Any] = {}
        body = ["def clone(self):", "    cls = type(self)", "    g = cls.__new__(cls)"]
        for name, f in self.fields.items():
            if not name.isidentifier():
                raise TypeError(f"bad field name {name!r}")
            if f.copy is Copy.SHARE:
                body.append(f"    g.{name} = self.{name}")
            elif f.copy is Copy.COPY:
                body.append(f"    g.{name} = self.{name}.copy()")
            elif f.copy is Copy.EACH:
                body.append(f"    g.{name} = [x.copy() for x in self.{name}]")
            elif f.copy is Copy.VALUES:
                body.append(f"    g.{name} = {{k: x.copy() for k, x in self.{name}.items()}}")
            else:
                env[f"_empty_{name}"] = f.empty
                call = "()" if callable(f.empty) else ""
                body.append(f"    g.{name} = _empty_{name}{call}")
        body.append("    return g")
        exec("\n".join(body), env)
        fn: Callable[[Any], Any] = env["clone"]
        return fn


def restore_annotations(klass: type) -> None:
    """Give a class compiled by mypyc back its class-level annotations, read from its module's source.

    A compiled (native) class keeps no ``__annotations__``, so the declaration would be lost; the compiled build
    keeps each module's ``.py`` beside its extension module (``scripts/build-compiled``), and the annotations are
    read from there, as ``from __future__ import annotations`` would have kept them (strings, evaluated by
    ``typing.get_type_hints`` in the module's namespace).  A pure class, or one that has them, is left alone.
    """
    if "__annotations__" in klass.__dict__:
        return
    module = sys.modules.get(klass.__module__)
    path = getattr(module, "__file__", None) or ""
    suffix = next((s for s in importlib.machinery.EXTENSION_SUFFIXES if path.endswith(s)), None)
    if suffix is None:
        return
    source = path[: -len(suffix)] + ".py"
    try:
        with open(source, encoding="utf-8") as f:
            tree = ast.parse(f.read(), source)
    except OSError:
        raise TypeError(f"{klass.__qualname__} is compiled and its source {source} is missing: the declared state "
                        "is read from it (keep the .py files beside the extension modules)") from None
    body: list[ast.stmt] = tree.body
    for part in klass.__qualname__.split("."):
        found = [node.body for node in body if isinstance(node, ast.ClassDef) and node.name == part]
        if not found:
            raise TypeError(f"{klass.__qualname__} is compiled and {source} does not define it: the source beside an "
                            "extension module must be the one it was compiled from")
        body = found[-1]
    klass.__annotations__ = {node.target.id: ast.unparse(node.annotation) for node in body
                             if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}


def hidden_part(game: Any, name: str, f: Field, seat: int) -> list[int]:
    """The cards of ``game``'s field ``name`` (seat ``seat``'s entry) that a resample may redeal."""
    value = getattr(game, name)
    if f.per_seat:
        value = value[seat]
    if f.cards is Cards.LIST:
        return [value[i] for i in _positions(game, f, len(value))]
    fixed = getattr(game, f.fixed)[seat] if f.fixed is not None else None
    out: list[int] = []
    for kind, n in enumerate(value):
        extra = n - fixed[kind] if fixed is not None else n
        if extra > 0:
            out.extend([kind] * extra)
    return out


def put_back(game: Any, name: str, f: Field, seat: int, dealt: list[int]) -> None:
    """Put ``dealt`` where :func:`hidden_part` took the same number of cards from (``game`` owns the field)."""
    value = getattr(game, name)
    if f.per_seat:
        value = value[seat]
    if f.cards is Cards.LIST:
        for i, card in zip(_positions(game, f, len(value)), dealt, strict=True):
            value[i] = card
        return
    fixed = getattr(game, f.fixed)[seat] if f.fixed is not None else None
    counts = list(fixed) if fixed is not None else [0] * len(value)
    for kind in dealt:
        counts[kind] += 1
    value[:] = counts


def _positions(game: Any, f: Field, size: int) -> range | list[int]:
    """The positions of a ``Cards.LIST`` that a resample deals afresh: its span, less the face-up ones."""
    lo, hi = f.span or (None, None)
    span = range(getattr(game, lo) if lo else 0, getattr(game, hi) if hi else size)
    if f.face_up is None:
        return span
    shown = set(getattr(game, f.face_up))
    return [i for i in span if i not in shown]


def _immutable(hint: Any) -> bool:
    """Whether values of this type cannot change in place, so that copies may share them."""
    if hint in (int, float, bool, str, bytes, complex, type(None)):
        return True
    origin = typing.get_origin(hint)
    if origin in (tuple, frozenset, Literal):
        return True
    if origin in (typing.Union, types.UnionType):
        return all(_immutable(a) for a in typing.get_args(hint))
    if isinstance(hint, type):
        if issubclass(hint, Enum | tuple | frozenset):
            return True
        params = getattr(hint, "__dataclass_params__", None)
        return dataclasses.is_dataclass(hint) and params is not None and bool(params.frozen)
    return False
