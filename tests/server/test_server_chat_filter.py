"""Free-text chat's filter and reports that point at a chat line (issue 38).

The filter is judged as a player dodging it would try: full-width letters, zero-width characters inside the
word, case, spaces and punctuation between its letters.  A report may quote a line only as it was said, by
that seat, at that table: an edited, moved or invented quote is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from paiju.server.room.chatfilter import clean_words, line_is_real, mask, normal, sign_line

from .conftest import LiveServer, ToyGame, fast_settings, first_bot, register, toy_table
from .test_server_hosts import boss_of, log_of

WORDS = clean_words(["dumb", "笨蛋", "Ｆｏｏ"])

# (what was typed, what everyone is shown)
CASES = [
    ("good game", "good game"),
    ("you are dumb", "you are ****"),
    ("you are DUMB!", "you are ****!"),
    ("ｄｕｍｂ", "****"),                        # full-width letters: NFKC makes them the word
    ("du\u200bmb", "****"),                      # a zero-width space inside
    ("d\u200du\ufeffm\u00adb", "****"),          # a zero-width joiner, a BOM and a soft hyphen
    ("d.u.m.b", "*.*.*.*"),                      # punctuation between the letters
    ("d u m b", "* * * *"),                      # spaces between them
    ("dumbo and dumb", "****o and ****"),        # a word inside another is still the word
    ("你这个笨蛋", "你这个**"),
    ("笨 蛋", "* *"),
    ("foo", "***"),                              # listed full-width, typed plain
    ("food", "***d"),
    ("dum", "dum"),
    ("bmud", "bmud"),
]


@pytest.mark.parametrize(("typed", "shown"), CASES)
def test_the_filter_masks_every_spelling_of_a_listed_word(typed: str, shown: str) -> None:
    assert mask(normal(typed), WORDS) == shown


@pytest.mark.parametrize(("words", "kept"), [
    (["Dumb", "dumb", " DUMB "], ["dumb"]),
    (["ｆｏｏ", "f.o.o"], ["foo"]),
    (["", "  ", "..."], []),
    (["笨蛋", "笨\u200b蛋"], ["笨蛋"]),
])
def test_a_hosts_list_is_kept_as_each_words_letters_once(words: list[str], kept: list[str]) -> None:
    assert clean_words(words) == kept


@pytest.mark.parametrize("words", [[1], ["x" * 33], [f"w{i}" for i in range(501)]])
def test_a_bad_list_is_refused(words: list[Any]) -> None:
    with pytest.raises(ValueError):
        clean_words(words)


def test_a_signed_line_is_real_only_as_said() -> None:
    sig = sign_line("key", "t1", 0, "p1", 12.5, "hello")
    assert line_is_real("key", "t1", 0, "p1", 12.5, "hello", sig)
    for args in (("other", "t1", 0, "p1", 12.5, "hello"), ("key", "t2", 0, "p1", 12.5, "hello"),
                 ("key", "t1", 1, "p1", 12.5, "hello"), ("key", "t1", 0, "p2", 12.5, "hello"),
                 ("key", "t1", 0, "p1", 12.6, "hello"), ("key", "t1", 0, "p1", 12.5, "hellO")):
        assert not line_is_real(*args, sig), args
    assert not line_is_real("key", "t1", 0, "p1", "12.5", "hello", sig)
    assert not line_is_real("key", "t1", 0, "p1", 12.5, "hello", None)


@pytest.fixture
def chatty(tmp_path: Path, toy_game: type[ToyGame]) -> Any:
    """A room with chat on and the account ``boss`` as its host."""
    with LiveServer(fast_settings(tmp_path), bot_factory=first_bot) as s:
        register(s, "boss")
    with LiveServer(fast_settings(tmp_path, admins=("Boss",), chat_max_length=40), bot_factory=first_bot) as s:
        yield s


def test_a_host_edits_the_filter_and_the_next_line_is_masked(chatty: LiveServer) -> None:
    boss = boss_of(chatty)
    a, b = chatty.client("a"), register(chatty, "bee", nickname="b")
    tid, (sa, sb) = toy_table(chatty, [a, b], start=False)
    sa.send({"type": "chat", "text": "you are ｄｕ\u200bｍｂ"})
    assert sb.until(lambda m: m["type"] == "chat")["text"] == "you are dumb"  # nothing listed yet
    assert boss.http.get("/api/host/chat-filter").json() == {"words": []}
    assert boss.ok("/api/host/chat-filter", {"words": ["Dumb", "笨蛋"]}) == {"words": ["dumb", "笨蛋"]}
    sa.send({"type": "chat", "text": "you are ｄｕ\u200bｍｂ"})
    said = sb.until(lambda m: m["type"] == "chat")
    assert said["text"] == "you are ****"
    for who, status, code in ((a, 403, "not_host"), (chatty.client(), 401, "no_session")):
        r = who.post("/api/host/chat-filter", {"words": []})
        assert (r.status_code, r.json()["error"]["code"]) == (status, code)
    for bad in ({"words": "dumb"}, {"words": ["x" * 40]}, {}):
        r = boss.post("/api/host/chat-filter", bad)
        assert (r.status_code, r.json()["error"]["code"]) == (422, "bad_option"), bad
    assert boss.http.get("/api/host/chat-filter").json() == {"words": ["dumb", "笨蛋"]}  # untouched
    entry = log_of(boss)[0]
    assert (entry["action"], entry["detail"]) == ("chat_filter", {"added": 2, "removed": 0, "words": 2})

    # b reports a's line, quoting it with its signature: the hosts see the very line
    quote = {k: said[k] for k in ("text", "at", "sig")}
    made = b.ok(f"/api/tables/{tid}/report", {"seat": 0, "reason": "rude", "chat": quote})
    assert made["chat"] == {"text": "you are ****", "at": said["at"]}
    [rep] = boss.http.get("/api/host/reports").json()
    assert (rep["id"], rep["chat"]) == (made["id"], {"text": "you are ****", "at": said["at"]})
    # an edited quote, a quote put on another seat, a made-up one: refused, nothing filed
    c = register(chatty, "cee", nickname="c")
    for body in ({"seat": 0, "reason": "rude", "chat": {**quote, "text": "you are stupid"}},
                 {"seat": 1, "reason": "rude", "chat": quote},
                 {"seat": 0, "reason": "rude", "chat": {"text": "x", "at": 1.0, "sig": "0" * 32}},
                 {"seat": 0, "reason": "rude", "chat": "you are ****"}):
        r = c.post(f"/api/tables/{tid}/report", body)
        assert (r.status_code, r.json()["error"]["code"]) == (422, "bad_chat_line"), body
    assert len(boss.http.get("/api/host/reports").json()) == 1
