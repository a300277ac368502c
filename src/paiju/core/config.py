"""Rules configs: frozen dataclasses of named options that validate and round-trip through JSON.

Every option carries its own metadata (bilingual label, allowed values, bounds) so the card room can
build its create-table form from the config class alone, and old saved records still load when new
options appear (missing keys take their defaults).
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from .errors import ConfigError
from .terms import Window


def option(
    default: Any,
    *,
    zh: str,
    en: str,
    choices: Sequence[Any] | None = None,
    min: float | None = None,
    max: float | None = None,
    labels: Mapping[Any, tuple[str, str]] | None = None,
    window: Window | None = None,
    asks_all: bool = False,
) -> Any:
    """Declare one rule option with its label and bounds (used by validation and by the lobby form).

    ``labels`` names each choice for people, ``{value: (zh, en)}``, so a form need not show raw values.
    ``window`` marks an option that sets a decision window's length in seconds (滑水's ``claim_seconds``): the
    card room finds it by :meth:`RulesConfig.window_option`, never by the option's name.  ``asks_all`` marks a
    bool option that makes every claim point (a discard) a claim window asking every other seat, ``pass`` the
    only answer of a seat that cannot claim: the card room turns it on with its claim pause, so that whether a
    window opens, and how long it lasts, tells nobody who could claim (:meth:`RulesConfig.asks_all_option`).
    """
    meta = {"zh": zh, "en": en, "choices": tuple(choices) if choices is not None else None,
            "min": min, "max": max, "labels": dict(labels) if labels is not None else None, "window": window,
            "asks_all": asks_all}
    if isinstance(default, list | dict):
        raise TypeError("option defaults must be immutable (use a tuple)")
    return dataclasses.field(default=default, metadata=meta)


def _check_type(name: str, value: Any, hint: Any) -> Any:
    """Coerce JSON values to the declared type, refusing anything that would silently change meaning."""
    origin = typing.get_origin(hint)
    if hint is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"option {name!r} must be true or false, not {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"option {name!r} must be an integer, not {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"option {name!r} must be a number, not {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise ConfigError(f"option {name!r} must be a string, not {value!r}")
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ConfigError(f"option {name!r} must be a list, not {value!r}")
        args = typing.get_args(hint)
        item = args[0] if args else Any
        return tuple(_check_type(name, v, item) if item is not Any else v for v in value)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        if value is None and type(None) in args:
            return None
        errors = []
        for a in args:
            if a is type(None):
                continue
            try:
                return _check_type(name, value, a)
            except ConfigError as e:
                errors.append(str(e))
        raise ConfigError("; ".join(errors) or f"option {name!r}: bad value {value!r}")
    if origin is typing.Literal:
        if value not in typing.get_args(hint):
            raise ConfigError(f"option {name!r} must be one of {typing.get_args(hint)}, not {value!r}")
        return value
    return value


class _Option(typing.NamedTuple):
    """One option as construction checks it: its name, resolved type and bounds."""

    name: str
    hint: Any
    choices: tuple[Any, ...] | None
    min: float | None
    max: float | None


@dataclasses.dataclass(frozen=True)
class RulesConfig:
    """Base of every game's rules config.  Subclasses are frozen dataclasses declared with ``option``."""

    game: ClassVar[str] = ""
    _options_resolved: ClassVar[tuple[_Option, ...] | None] = None

    @classmethod
    def _options(cls) -> tuple[_Option, ...]:
        """The options with their resolved types, worked out once per class: ``typing.get_type_hints``
        evaluates every annotation string again on each call, which cost most of a construction."""
        got: tuple[_Option, ...] | None = cls.__dict__.get("_options_resolved")
        if got is None:
            hints = typing.get_type_hints(cls)
            got = tuple(_Option(f.name, hints[f.name], f.metadata.get("choices"), f.metadata.get("min"),
                                f.metadata.get("max")) for f in dataclasses.fields(cls))
            cls._options_resolved = got  # the class's own, never a base's (looked up in cls.__dict__)
        return got

    def __post_init__(self) -> None:
        for name, hint, choices, low, high in self._options():
            value = _check_type(name, getattr(self, name), hint)
            object.__setattr__(self, name, value)
            if choices is not None and value not in choices:
                raise ConfigError(f"option {name!r} must be one of {list(choices)}, not {value!r}")
            if low is not None and value < low:
                raise ConfigError(f"option {name!r} must be at least {low}, not {value!r}")
            if high is not None and value > high:
                raise ConfigError(f"option {name!r} must be at most {high}, not {value!r}")
        self.validate()

    def validate(self) -> None:
        """Cross-option checks; subclasses raise ConfigError."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Self:
        data = dict(data or {})
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ConfigError(f"unknown option(s) for {cls.game or cls.__name__}: {', '.join(unknown)}")
        try:
            return cls(**data)
        except TypeError as e:  # pragma: no cover - dataclass signature errors
            raise ConfigError(str(e)) from e

    @classmethod
    def from_json(cls, text: str) -> Self:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ConfigError(f"config is not valid JSON: {e}") from e
        if not isinstance(data, dict):
            raise ConfigError("config must be a JSON object")
        return cls.from_dict(data)

    def replace(self, **changes: Any) -> Self:
        return dataclasses.replace(self, **changes)

    @classmethod
    def window_option(cls, window: Window) -> str | None:
        """The name of the option that sets ``window``'s length in seconds, if the rules have one."""
        return next((f.name for f in dataclasses.fields(cls) if f.metadata.get("window") == window), None)

    @classmethod
    def asks_all_option(cls) -> str | None:
        """The name of the option that makes every claim point ask every seat, if the rules have one."""
        return next((f.name for f in dataclasses.fields(cls) if f.metadata.get("asks_all")), None)

    def window_seconds(self, window: Window) -> float | None:
        """The length these rules give ``window``, in seconds; None when the rules leave it to the table."""
        name = self.window_option(window)
        return None if name is None else float(getattr(self, name))

    @classmethod
    def schema(cls) -> list[dict[str, Any]]:
        """Each option's name, type, default, labels and bounds: what a create-table form needs."""
        hints = {o.name: o.hint for o in cls._options()}
        rows = []
        for f in dataclasses.fields(cls):
            hint = hints[f.name]
            kind = {bool: "bool", int: "int", float: "float", str: "str"}.get(hint, "json")
            if typing.get_origin(hint) is typing.Literal:
                kind = "choice"
            default = f.default
            choices = (list(f.metadata["choices"]) if f.metadata.get("choices") is not None
                       else (list(typing.get_args(hint)) if kind == "choice" else None))
            labels = f.metadata.get("labels")
            row: dict[str, Any] = {
                "name": f.name,
                "type": kind,
                "default": list(default) if isinstance(default, tuple) else default,
                "zh": f.metadata.get("zh", f.name),
                "en": f.metadata.get("en", f.name),
                "choices": choices,
                "choice_labels": [dict(zip(("zh", "en"), labels.get(c, (str(c), str(c))), strict=True))
                                  for c in choices] if (labels and choices) else None,
                "min": f.metadata.get("min"),
                "max": f.metadata.get("max"),
            }
            if f.metadata.get("window") is not None:
                row["window"] = str(f.metadata["window"])  # which decision window this option times
            rows.append(row)
        return rows
