"""Terminal hooks for 滑水麻将: draw the table with readable tiles, word the events, read typed moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.core.registry import Terminal

from .tiles import TILE_TEXT, parse_tile, tile_zh

_COLOUR = {"m": "red", "p": "blue", "s": "green", "z": "magenta"}
_TILE_OF = {text: t for t, text in enumerate(TILE_TEXT)}


def tile_label(text: str, lang: str = "zh") -> str:
    """One tile as rich markup: ``[red]5万[/]`` (zh) or ``[red]5m[/]`` (en); ``??`` for a face-down tile."""
    if text == "??":
        return "[dim]🀫[/]"
    t = _TILE_OF.get(text)
    if t is None:
        return text
    name = tile_zh(t) if lang == "zh" else text
    if lang == "zh" and t < 27:
        name = f"{t % 9 + 1}{name[-1]}"
    return f"[{_COLOUR[text[-1]]}]{name}[/]"


def tiles_label(tiles: Sequence[str], lang: str = "zh") -> str:
    return " ".join(tile_label(t, lang) for t in tiles) if tiles else "[dim]—[/]"


def _pick(label: dict[str, str] | None, lang: str) -> str:
    if not label:
        return ""
    return label.get(lang) or label.get("en") or ""


def render(view: dict[str, Any], lang: str = "zh") -> str:
    """The table for one viewer: every seat's melds and discards, the viewer's own hand, the last result."""
    table = view["table"]
    me = view.get("viewer", -1)
    out: list[str] = []
    info = " · ".join(_pick(i, lang) for i in table["info"])
    out.append(f"[bold]宁夏滑水麻将 Huashui mahjong[/] · {info} · {_pick(table['phase'], lang)}")
    totals = view.get("totals", [])
    for seat in table["seats"]:
        s = seat["seat"]
        you = " [bold yellow]← 你 you[/]" if s == me else ""
        role = _pick(seat["role"], lang)
        score = f"{totals[s]:+g}" if s < len(totals) else ""
        note = f" [cyan]{_pick(seat['note'], lang)}[/]" if seat.get("note") else ""
        out.append(f"[bold]座位 seat {s}[/] ({role}) 分 score {score}{note}{you}")
        groups = "  ".join(f"{_pick(g['label'], lang)}:{tiles_label(g['cards'], lang)}" for g in seat["groups"])
        if groups:
            out.append(f"   明牌 melds: {groups}")
        out.append(f"   弃牌 discards: {tiles_label(seat['discards'], lang)}")
        if seat["hand"] is not None:
            hand = list(seat["hand"])
            drawn = view.get("drawn") if s == me else None
            if drawn and drawn in hand:
                hand.remove(drawn)
                out.append(f"   手牌 hand: {tiles_label(hand, lang)}  摸 drew: {tile_label(drawn, lang)}")
            else:
                out.append(f"   手牌 hand: {tiles_label(hand, lang)}")
        else:
            out.append(f"   手牌 hand: [dim]{seat['hand_count']} 张 tiles[/]")
    for c in table["center"]:
        out.append(f"[bold]{_pick(c['label'], lang)}[/]: {tiles_label(c['cards'], lang)}")
    claim = view.get("claim")
    if claim:
        what = "抢杠 rob the kong" if claim.get("robbing") else "打出 discarded"
        out.append(f"[bold yellow]座位 seat {claim['from']} {what} {tile_label(claim['tile'], lang)}[/]")
    if view.get("locked"):
        locked = view["locked"]
        shown = "全部 all" if locked == "all" else tiles_label(locked, lang)
        out.append(f"[dim]过胡锁定 pass lock: {shown}[/]")
    result = table.get("last_result")
    if result:
        out.append(f"[bold]{_pick(result['title'], lang)}[/]")
        for line in result["lines"]:
            pts = " ".join(f"{p:+d}" for p in line["points"])
            out.append(f"   {_pick(line, lang)}  [dim]{pts}[/]")
        out.append("   合计 total: " + " ".join(f"{p:+d}" for p in result["scores"]))
    return "\n".join(out)


def format_event(event: dict[str, Any], lang: str = "zh") -> str:
    kind = event.get("type")
    seat = event.get("seat")
    tile = event.get("tile")
    t = tile_label(tile, lang) if isinstance(tile, str) else ""
    if kind == "discard":
        return f"座位 {seat} 打 discards {t}"
    if kind == "draw":
        extra = " (杠后补牌 replacement)" if event.get("replacement") else ""
        return f"座位 {seat} 摸牌 draws{extra} · 余 {event.get('wall')}"
    if kind == "pung":
        return f"座位 {seat} 碰 pungs {t} (from seat {event.get('from')})"
    if kind == "kong":
        names = {"kong_concealed": "暗杠 concealed kong", "kong_added": "过路杠 added kong",
                 "kong_exposed": "放杠 kong on a discard"}
        return f"座位 {seat} {names.get(str(event.get('kind')), 'kong')} {t}"
    if kind == "follow_dealer":
        return f"跟庄 follow the dealer on {t}: 庄家付每家 {event.get('amount')} dealer pays each"
    if kind == "win":
        how = {"self": "自摸 self-drawn", "discard": "点炮 on a discard", "rob": "抢杠 robbing the kong"}
        seats = ", ".join(str(s) for s in event.get("seats", []))
        hands = "; ".join(f"{s}: {tiles_label(h, lang)}" for s, h in event.get("hands", {}).items())
        return f"[bold green]胡 win[/] 座位 seat {seats} · {how.get(str(event.get('how')), '')} {t} · {hands}"
    if kind == "drawn_hand":
        return "流局 drawn hand: the wall is empty"
    if kind == "settlement":
        scores = " ".join(f"{p:+d}" for p in event.get("scores", []))
        return f"[bold]{_pick(event.get('title'), lang)}[/] {scores} · 累计 totals {event.get('totals')}"
    if kind == "hand_start":
        dice = event.get("dice", [0, 0])
        return (f"第{event.get('hand')}局 hand {event.get('hand')}: 庄 dealer seat {event.get('dealer')}, "
                f"骰子 dice {dice[0]}+{dice[1]}")
    if kind == "match_over":
        return f"[bold]终局 match over[/] {event.get('totals')}"
    return " ".join(f"{k}={v}" for k, v in event.items())


_WORDS = {
    "hu": "hu", "h": "hu", "胡": "hu", "win": "hu", "zimo": "hu", "自摸": "hu",
    "pass": "pass", "p": "pass", "过": "pass", "guo": "pass",
}


def parse_input(text: str, legal: Sequence[str]) -> str | None:
    """Accept ``5m`` (discard it), ``hu``/``胡``, ``pass``/``过``, ``peng``/``碰`` and ``gang``/``杠`` [tile]."""
    words = text.strip().lower().split()
    if not words:
        return None
    head = words[0]
    if head in _WORDS and _WORDS[head] in legal:
        return _WORDS[head]
    verb = {"peng": "pung", "碰": "pung", "pung": "pung", "gang": "kong", "杠": "kong", "kong": "kong",
            "d": "discard", "da": "discard", "打": "discard", "discard": "discard"}.get(head)
    rest = words[1:]
    if verb is None:
        verb, rest = "discard", words
    options = [a for a in legal if a.startswith(verb + " ")]
    if not rest:
        return options[0] if len(options) == 1 else None
    try:
        tile = TILE_TEXT[parse_tile(rest[0])]
    except ValueError:
        return None
    action = f"{verb} {tile}"
    return action if action in legal else None


TERMINAL = Terminal(render=render, format_event=format_event, parse_input=parse_input)
"""This game's terminal hooks (its registry entry names them)."""
