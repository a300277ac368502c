"""The hosts' word filter for free-text chat (issue 38), and the signed chat lines reports point at.

A filter list is only as good as the spellings it cannot be dodged by, so both the list and every line are
compared in one normal form: NFKC (full-width Ｌａｔｉｎ and compatibility forms become plain letters), case
folded, with format characters (zero-width spaces and joiners, soft hyphens, the byte-order mark: Unicode's
``Cf``) dropped, and spaces and punctuation between the letters ignored.  A match is masked with ``*`` in the
line everyone is sent; the rest of the line is left as it was written (after NFKC and the dropped format
characters, so what is shown is what was judged).

A chat line is kept nowhere (chat is not stored), so a report cannot look it up.  Instead each line carries a
signature (an HMAC with the room's key over the table, seat, player, time and text): a report that quotes a
line with its signature proves the line was said there, by that seat, and a forged or edited quote is refused.
Every worker shares the key, so this holds in cluster mode too.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from collections.abc import Iterable

MAX_WORDS = 500
"""Words in one room's list: enough for any community's list, few enough to scan every line."""
MAX_WORD = 32
"""Characters in one word (after normalising)."""


def normal(text: str) -> str:
    """The line as it is shown and judged: NFKC, format characters dropped, runs of white space made one."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return " ".join(text.split())


def skeleton(text: str) -> tuple[str, list[int]]:
    """The letters and digits of ``text`` (case folded), and where each one stands in ``text``."""
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if ch.isalnum():
            folded = ch.casefold()
            out.append(folded)
            where.extend([i] * len(folded))
    return "".join(out), where


def clean_words(words: Iterable[object]) -> list[str]:
    """A host's list as it is kept: each word's skeleton, nonempty and at most MAX_WORD long, once, sorted.
    Raises ValueError (with the reason) on anything else."""
    kept: set[str] = set()
    for w in words:
        if not isinstance(w, str):
            raise ValueError("each word must be text")
        bones, _ = skeleton(normal(w))
        if not bones:
            continue
        if len(bones) > MAX_WORD:
            raise ValueError(f"a word has at most {MAX_WORD} letters: {w[:40]!r}")
        kept.add(bones)
    if len(kept) > MAX_WORDS:
        raise ValueError(f"at most {MAX_WORDS} words")
    return sorted(kept)


def mask(line: str, words: Iterable[str]) -> str:
    """``line`` (already ``normal``) with every letter of every listed word's occurrence replaced by ``*``."""
    bones, where = skeleton(line)
    hidden: set[int] = set()
    for w in words:
        start = bones.find(w)
        while start >= 0:
            hidden.update(where[start:start + len(w)])
            start = bones.find(w, start + 1)
    if not hidden:
        return line
    return "".join("*" if i in hidden else ch for i, ch in enumerate(line))


def sign_line(key: str, table_id: str, seat: int, player_id: str, at: float, text: str) -> str:
    """The signature a chat line carries, for a report to quote it by."""
    msg = "\x1f".join((table_id, str(seat), player_id, repr(float(at)), text)).encode()
    return hmac.new(key.encode(), b"chat\x1f" + msg, hashlib.sha256).hexdigest()[:32]


def line_is_real(key: str, table_id: str, seat: int, player_id: str, at: object, text: object,
                 sig: object) -> bool:
    """Whether a quoted line was said at that table by that seat's player, as quoted."""
    if isinstance(at, bool) or not isinstance(at, int | float) or not isinstance(text, str) \
            or not isinstance(sig, str):
        return False
    return hmac.compare_digest(sign_line(key, table_id, seat, player_id, float(at), text), sig)
