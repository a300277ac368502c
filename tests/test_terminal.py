"""``paiju play``'s loop as a person meets it: what may be typed, what a refusal says, what the screen shows.

Each session is the real loop (``play_terminal``) with the real bots; the person is a function that reads what
was printed since it last answered and types a line.  ``tests/test_cli.py`` drives the command itself.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console

from paiju.bots import get_bot
from paiju.cli.terminal import describe, play_terminal
from paiju.core import Game, get_game, paper
from paiju.core.cards import card_text
from paiju.core.tiles import parse_tile


class Done(Exception):
    """The person has seen enough."""


Person = Callable[[Game[Any], str, str], str]
"""``(game, what was printed since the last answer, the prompt) -> the typed line``."""


def session(name: str, seed: int, person: Person, *, lang: str = "zh", seat: int = 0, width: int = 80,
            options: dict[str, Any] | None = None) -> tuple[Game[Any], str]:
    """Play ``name`` at ``seat`` against its best bots until the person raises :class:`Done` (or the match
    ends); returns the game and everything printed."""
    cls = get_game(name)
    game = cls.new(cls.config_class.from_dict(options or {}), seed)
    bots = {s: get_bot(name, "best", seed + s) for s in range(game.num_seats) if s != seat}
    console = Console(width=width, record=True, color_system=None, force_terminal=False)
    printed: list[str] = []

    def ask(prompt: str) -> str:
        screen = console.export_text(clear=True)
        printed.append(screen + prompt + ": ")
        return person(game, screen, prompt)

    with contextlib.suppress(Done):
        play_terminal(game, seat, bots, lang=lang, console=console, ask=ask)
    printed.append(console.export_text(clear=True))
    return game, "".join(printed)


def own_moves(game: Game[Any], seat: int = 0) -> list[str]:
    return [a for s, a in game.history if s == seat]


def typing(*lines: str | Callable[[Game[Any]], str]) -> Person:
    """A person who types these lines in turn (a callable sees the game first), then stops."""
    queue = list(lines)

    def person(game: Game[Any], screen: str, prompt: str) -> str:
        if not queue:
            raise Done
        line = queue.pop(0)
        return line(game) if callable(line) else line

    return person


# ---- 滑水: tiles as the screen names them -------------------------------------------------------------
SEED = 154  # seat 0's first turn holds 二万, 东, 北, 白, 中 and no 九条 (see the first test)


def hand_tiles(game: Game[Any]) -> list[int]:
    return sorted({parse_tile(a.split()[1]) for a in game.legal_actions(0) if a.startswith("discard ")})


def test_huashui_first_hand_is_the_one_these_tests_expect() -> None:
    game, _ = session("huashui", SEED, typing())
    tiles = set(hand_tiles(game))
    assert {1, 27, 30, 31, 33} <= tiles and 26 not in tiles, "二万 东 北 白 中 and no 九条 in the first hand"


@pytest.mark.parametrize(("lang", "typed", "tile"), [
    ("zh", "二万", 1), ("zh", "打 二万", 1), ("zh", "打二万", 1), ("zh", "2万", 1), ("zh", "2m", 1),
    ("zh", "discard 2m", 1), ("zh", "白", 31), ("zh", "白板", 31), ("zh", "打 中", 33), ("zh", "红中", 33),
    ("zh", "东", 27), ("zh", "东风", 27), ("en", "East", 27), ("en", "discard Red", 33), ("en", "white", 31),
    ("en", "7z", 33), ("en", "d 2m", 1),
])
def test_huashui_accepts_what_the_screen_shows(lang: str, typed: str, tile: int) -> None:
    """Chinese names, the option's own words, the ASCII codes and (in English) the honours' names."""
    game, _ = session("huashui", SEED, typing(typed), lang=lang)
    wanted = {1: "2m", 27: "1z", 31: "5z", 33: "7z"}[tile]
    assert own_moves(game) == [f"discard {wanted}"]


def test_huashui_option_number_and_option_words() -> None:
    def by_screen(game: Game[Any], screen: str, prompt: str) -> str:
        if own_moves(game):
            raise Done
        cell = re.search(r"(\d+) 打 北", screen)
        assert cell, screen
        return cell.group(1)

    game, screen = session("huashui", SEED, by_screen)
    assert own_moves(game) == ["discard 4z"]
    assert "打 北" in screen and "discard 4z" not in screen, "the option list shows words, not codes, in Chinese"


@pytest.mark.parametrize(("lang", "typed", "reason"), [
    ("zh", "打 九条", "你手里没有这张"), ("en", "discard 9s", "that tile is not in your hand"),
    ("zh", "吃", "不可吃牌"), ("en", "chow 2m 3m", "no chow"), ("zh", "胡", "胡：手牌还不成胡"),
    ("en", "hu", "your hand is not complete"),
])
def test_huashui_illegal_moves_get_the_rules_reason(lang: str, typed: str, reason: str) -> None:
    game, screen = session("huashui", SEED, typing(typed, "1"), lang=lang)
    assert reason in screen
    assert len(own_moves(game)) == 1, "the refusal changed nothing and the next line was read"


def test_huashui_english_is_english_throughout_and_chinese_says_nothing_twice() -> None:
    """A whole hand each way, the player always taking the first option."""

    def first(game: Game[Any], screen: str, prompt: str) -> str:
        return "1"

    game, en = session("huashui", 5, first, lang="en")
    assert game.finished
    assert not re.search(r"[\u4e00-\u9fff]", en), [line for line in en.splitlines()
                                                   if re.search(r"[\u4e00-\u9fff]", line)][:5]
    assert any(name in en for name in ("East", "South", "West", "North", "Red", "Green", "White"))
    game, zh = session("huashui", 5, first, lang="zh")
    for english in ("seat", "hand", "your choice", "discard", "dealer", "wall", "totals"):
        assert english not in zh, english


# ---- 升级: cards typed as the browser picks them, an 80×24 screen, every number of the result ----------------
def test_shengji_cards_typed_in_any_notation_and_refusals() -> None:
    """A lead typed as the Chinese name of the card (红桃A); a card not held refused by the rule."""
    seen: dict[str, Any] = {}
    suits = {"S": "黑桃", "H": "红桃", "C": "梅花", "D": "方块"}

    def person(game: Game[Any], screen: str, prompt: str) -> str:
        legal = game.legal_actions(0)
        singles = [a for a in legal if a.startswith("play ") and len(a.split()) == 2 and a[-1] in "SHCD"]
        if not singles or game.view(0)["trick"]["plays"]:
            return "1"  # dealing, burying or following: the first option
        if "played" in seen:
            raise Done
        if "refused" not in seen:
            held = {c for a in legal for c in a.split()[1:]}
            missing = next(card_text(c) for c in range(52) if card_text(c) not in held)
            seen["refused"] = missing
            return "出 " + suits[missing[-1]] + missing[:-1]
        card = singles[-1].split()[1]
        seen["played"] = singles[-1]
        return suits[card[-1]] + card[:-1]

    game, screen = session("shengji", 3, person, options={"max_hands": 1})
    assert seen["played"] in own_moves(game)
    assert "你没有" in screen, "a card not held is refused by the rule, in Chinese"


def _screens(printed: str, mark: str) -> list[list[str]]:
    """Each screenful that ends in a prompt, as lines: from the table's top (or the last prompt) to the prompt."""
    out, current = [], []
    for line in printed.splitlines():
        current.append(line)
        if line.startswith(mark):
            out.append(current)
            current = []
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_shengji_decisions_fit_an_80_by_24_screen(lang: str) -> None:
    """From the table's top to the prompt, every playing and burying decision fits 24 rows of 80 columns, so
    the hand never scrolls off; the 63-card bury included."""
    mark = "你的选择" if lang == "zh" else "your choice"
    kinds: set[str] = set()

    def person(game: Game[Any], screen: str, prompt: str) -> str:
        legal = game.legal_actions(0)
        verb = legal[0].split()[0]
        if verb in ("play", "bury"):
            kinds.add(verb)
        if len(kinds) == 2 and sum(a.startswith("play ") for a in own_moves(game)) >= 12:
            raise Done
        return legal[-1] if verb in ("pass", "bid") else "1"  # bid whenever it can: to take the kitty

    for seed in range(8):  # a seed where seat 0 takes the kitty
        kinds.clear()
        _, printed = session("shengji", seed, person, lang=lang, options={"max_hands": 1})
        if "bury" in kinds:
            break
    assert kinds == {"play", "bury"}
    checked = 0
    for screen in _screens(printed, mark):
        if not any(line.startswith("╭") for line in screen):
            continue  # asked again after a refusal: no new table
        top = max(i for i, line in enumerate(screen) if line.startswith("╭"))
        shown = screen[top:]
        if not any(re.search(r"(你的牌|your hand) \(\d\d\)", line) for line in shown):
            continue  # a dealing decision: a handful of cards
        hand_row = next(i for i, line in enumerate(shown) if "你的牌" in line or "your hand" in line)
        assert len(shown) <= 24, "\n".join(shown)
        assert all(len(line) <= 80 for line in shown)
        assert hand_row < len(shown) - 2
        checked += 1
    assert checked >= 10


def test_shengji_result_shows_every_number() -> None:
    def first(game: Game[Any], screen: str, prompt: str) -> str:
        return "1"

    game, printed = session("shengji", 4, first, options={"max_hands": 1})
    assert game.finished
    summary = next(e for e in game.view(0)["table"]["last_result"]["lines"])
    assert summary
    result = game.view(0)["table"]["last_result"]
    tail = printed[printed.rindex(result["title"]["zh"]):]
    for line in result["lines"]:
        assert line["zh"] in tail
    for word in ("闲家得分", "扣底", "×", "吃苍蝇", "合计", "级别"):
        assert word in tail, word
    for p in result["scores"]:
        assert f"{p:+g}" in tail


# ---- 水鱼: the banker's option numbers stay put ------------------------------------------------------------
def test_shuiyu_option_numbers_stay_put_while_the_banker_answers_in_turn() -> None:
    """Seed 6: seat 0 banks and answers three players one after another.  The number first shown for each
    answer still chooses it after the others are answered."""
    first_numbers: dict[str, str] = {}
    answered: list[str] = []

    def person(game: Game[Any], screen: str, prompt: str) -> str:
        legal = game.legal_actions(0)
        if game.phase != "answer":
            if answered:
                raise Done
            return "1"
        for a in legal:  # an answer keeps the number it was first shown with (a new one gets its own)
            label = describe(game, a, "zh")
            cell = re.search(rf"(\d+) {re.escape(label)}(?:\s|$)", screen)
            assert cell, (label, screen)
            assert first_numbers.setdefault(a, cell.group(1)) == cell.group(1), (a, screen)
        target = legal[-1]
        answered.append(target)
        return first_numbers[target]

    game, _ = session("shuiyu", 6, person, options={"rounds": 1})
    assert len(answered) >= 3
    assert [a for a in own_moves(game) if a in first_numbers] == answered


@pytest.mark.parametrize(("lang", "reason"), [("zh", "按座位号回应闲家"), ("en", "answer a player by seat number")])
def test_shuiyu_words_are_read_and_refusals_explained(lang: str, reason: str) -> None:
    def person(game: Game[Any], screen: str, prompt: str) -> str:
        if game.phase == "answer":
            if reason in screen:
                raise Done
            return "kill 9"
        return "1"

    _, screen = session("shuiyu", 6, person, lang=lang, options={"rounds": 1})
    assert reason in screen


# ---- 偎麻雀: the characters, their names and the aliases ---------------------------------------------------
@pytest.mark.parametrize("form", ["char", "alias", "name", "verb"])
def test_weimaque_accepts_characters_names_and_aliases(form: str) -> None:
    picked: list[str] = []

    def person(game: Game[Any], screen: str, prompt: str) -> str:
        if picked:
            raise Done
        action = game.legal_actions(0)[-1]
        picked.append(action)
        c = paper.parse_card(action.split()[1])
        name = ("大" if c >= 10 else "小") + paper.SMALL_ZH[c % 10]
        return {"char": paper.char(c), "alias": paper.alias(c), "name": name, "verb": "出 " + paper.char(c)}[form]

    game, _ = session("weimaque", 2, person)
    assert own_moves(game) == picked


# ---- every game: q asks first -------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["huashui", "shengji", "shuiyu", "weimaque"])
def test_q_asks_before_leaving(name: str) -> None:
    with pytest.raises(KeyboardInterrupt):
        session(name, 1, typing("q", "n", "q", "y"))
    game, screen = session(name, 1, typing("q", "n"))
    assert "离开这一局？" in screen and "接着打" in screen and not game.finished


@pytest.mark.parametrize(("lang", "reason"), [("zh", "你手里没有"), ("en", "you hold no")])
def test_weimaque_a_card_not_held_is_refused_by_the_rule(lang: str, reason: str) -> None:
    def person(game: Game[Any], screen: str, prompt: str) -> str:
        if reason in screen:
            raise Done
        held = {a.split()[1] for a in game.legal_actions(0) if a.startswith("discard ")}
        missing = next(paper.alias(k) for k in range(paper.NUM_KINDS) if paper.alias(k) not in held)
        return paper.char(paper.parse_card(missing)) if lang == "zh" else missing

    game, screen = session("weimaque", 2, person, lang=lang)
    assert reason in screen and not own_moves(game)
