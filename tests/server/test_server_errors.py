"""Error codes: one enum, every code in both languages, every code the server can send in the enum, and every
error on the wire (HTTP and websocket) carrying its code and both texts."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import paiju.server
from paiju.core import ActionError, game_names, get_game
from paiju.server.errors import TEXTS, ErrorCode, RoomError

from .conftest import LiveServer, toy_table

SERVER_DIR = Path(paiju.server.__file__).parent
DEAL = {"hands": [["1", "2", "3"], ["1", "4", "5"], ["6", "7", "8"]]}
CJK = re.compile(r"[\u4e00-\u9fff]")


def test_every_code_has_both_texts() -> None:
    assert set(TEXTS) == set(ErrorCode)
    for code in ErrorCode:
        assert CJK.search(code.zh), f"{code}: no Chinese text"
        assert code.en and not CJK.search(code.en), f"{code}: no English text"


def server_sources() -> list[tuple[str, ast.Module]]:
    return [(str(p.relative_to(SERVER_DIR)), ast.parse(p.read_text(encoding="utf-8")))
            for p in sorted(SERVER_DIR.rglob("*.py"))]


def test_every_refusal_in_the_server_names_a_code_of_the_enum() -> None:
    """Read the server's source: each ``RoomError(...)`` (or a subclass's) names ``ErrorCode.<member>``, and no
    message is built with a literal ``"code"`` string behind the enum's back."""
    sources = server_sources()
    refusals = {"RoomError"} | {node.name for _name, tree in sources for node in ast.walk(tree)
                                if isinstance(node, ast.ClassDef)
                                and any(isinstance(b, ast.Name) and b.id == "RoomError" for b in node.bases)}
    raised = 0
    for name, tree in sources:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in refusals:
                first = node.args[0] if node.args else None
                where = f"{name}:{node.lineno}"
                assert isinstance(first, ast.Attribute) and isinstance(first.value, ast.Name), where
                assert first.value.id == "ErrorCode" and first.attr in ErrorCode.__members__, where
                raised += 1
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "code":
                        assert not isinstance(value, ast.Constant), f"{name}:{node.lineno}: a literal code"
    assert raised >= 40 and "Throttled" in refusals  # the scan saw the server's refusals


def action_errors() -> set[type[ActionError]]:
    for name in game_names():  # import every installed engine, so its own error classes exist
        try:
            get_game(name)
        except ImportError:
            continue
    seen: set[type[ActionError]] = set()
    todo: list[type[ActionError]] = [ActionError]
    while todo:
        cls = todo.pop()
        if cls not in seen:
            seen.add(cls)
            todo.extend(cls.__subclasses__())
    return seen


def test_every_code_an_engine_refuses_with_is_in_the_enum() -> None:
    codes = {cls.code for cls in action_errors()}
    assert {"illegal", "not_your_turn", "game_over"} <= codes
    assert codes <= set(ErrorCode)


def test_a_code_outside_the_enum_is_refused() -> None:
    with pytest.raises(ValueError):
        RoomError("made_up", "no such code")  # type: ignore[arg-type]


def test_an_engine_refusal_keeps_its_code_and_detail_in_both_texts() -> None:
    e = RoomError.refused(ActionError("discard 9z is not legal"))
    assert e.to_dict() == {"code": "illegal", "message": "discard 9z is not legal",
                           "zh": "不合规则：discard 9z is not legal", "en": "Not allowed: discard 9z is not legal"}
    e = RoomError.refused(ActionError("discard 9s: that tile is not in your hand", zh="打 九条：你手里没有这张"))
    assert e.texts() == ("打 九条：你手里没有这张", "discard 9s: that tile is not in your hand"), "the rule's reason"


def test_http_errors_carry_the_code_and_both_texts(server: LiveServer) -> None:
    owner, other = server.client("甲"), server.client("乙")
    tid = owner.ok("/api/tables", {"game": "toy"})["id"]
    owner.ok(f"/api/tables/{tid}/sit", {"seat": 1})
    r = other.post(f"/api/tables/{tid}/sit", {"seat": 1})
    assert r.status_code == 409
    assert r.json() == {"error": {"code": "seat_taken", "message": "seat 1 is taken", "zh": "1 号位已经有人",
                                  "en": "seat 1 is taken"}}
    r = other.post(f"/api/tables/{tid}/start")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
    assert CJK.search(r.json()["error"]["zh"])
    r = server.client().http.post("/api/tables", json={"game": "toy"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "no_session"
    r = owner.http.post("/api/tables", content=b"{nope", headers={"Content-Type": "application/json"})
    error = r.json()["error"]
    assert r.status_code == 400 and error["code"] == "bad_json" and error["zh"].startswith("请求内容不是 JSON")
    r = owner.post("/api/tables", {"game": "toy", "config": {"hand_size": 9}})
    error = r.json()["error"]
    assert r.status_code == 422 and error["code"] == "bad_option"
    assert "hand_size" in error["zh"] and "hand_size" in error["en"] and "hand_size" in error["message"]


def test_websocket_errors_carry_the_code_and_both_texts(server: LiveServer) -> None:
    players = [server.client(n) for n in ("a", "b", "c")]
    _tid, socks = toy_table(server, players, deal=DEAL)
    socks[1].act("play 4")
    err = socks[1].until(lambda m: m["type"] == "error")
    assert (err["code"], err["action"], err["seq"]) == ("not_your_turn", "play 4", 0)
    # the engine's own words in both languages (an engine without Chinese gets the code's words before its message)
    assert err["zh"] == "现在不是你的回合，不用行动"
    assert err["en"] == err["message"] == "it is not your turn: you have no decision to make now"
    socks[0].send("{not json")
    err = socks[0].until(lambda m: m["type"] == "error")
    assert err["code"] == "bad_message" and err["zh"].startswith("不是 JSON") and err["en"].startswith("not JSON")
    socks[0].send({"type": "dance"})
    err = socks[0].until(lambda m: m["type"] == "error")
    assert err["code"] == "unknown_type" and "dance" in err["zh"] and "dance" in err["en"]
