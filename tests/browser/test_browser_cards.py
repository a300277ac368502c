"""Card faces, table-driven: each card string drawn by the client's cards.js as the text and colour it must show."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

# (style, card string, text on the face, red?)
FACES = [
    ("french", "AS", "A♠", False),
    ("french", "10H", "10♥", True),
    ("french", "KD", "K♦", True),
    ("french", "QC", "Q♣", False),
    ("french", "BJ", "大王", True),
    ("french", "SJ", "小王", False),
    ("tile", "5m", "五万", False),  # the number black, 万 red: the face is not red as a whole
    ("tile", "1p", "一筒", False),
    ("tile", "9s", "九条", False),
    ("tile", "1z", "东", False),
    ("tile", "4z", "北", False),
    ("tile", "5z", "白", False),
    ("tile", "6z", "发", False),
    ("tile", "7z", "中", False),
    ("paper", "x1", "一", False),
    ("paper", "x2", "二", True),
    ("paper", "x7", "七", True),
    ("paper", "x10", "十", True),
    ("paper", "d2", "贰", True),
    ("paper", "d7", "柒", True),
    ("paper", "d10", "拾", True),
    ("paper", "d3", "叁", False),
    ("paper", "x9", "九", False),
]

DRAW = """async ([style, code]) => {
    const { renderCard } = await import('/static/cards.js');
    const el = renderCard(code, style, { size: 'md' });
    document.body.appendChild(el);
    const face = el.querySelector('.corner') || el;  // French cards: the corner, not the big pip too
    const out = { text: face.textContent.replace(/[★\\s]/g, ''), classes: [...el.classList],
                  card: el.dataset.card, name: el.getAttribute('aria-label') };
    el.remove();
    return out;
}"""


@pytest.fixture(scope="module")
def page(browser: Any, server: str) -> Any:
    ctx = browser.new_context()
    p = ctx.new_page()
    p.goto(server + "/")
    yield p
    ctx.close()


@pytest.mark.parametrize(("style", "code", "text", "red"), FACES)
def test_face(page: Any, style: str, code: str, text: str, red: bool) -> None:
    out = page.evaluate(DRAW, [style, code])
    assert out["text"] == text
    assert out["card"] == code
    assert ("red" in out["classes"]) == red
    assert "face" in out["classes"] and f"style-{style}" in out["classes"]
    assert out["name"]


@pytest.mark.parametrize("style", ["french", "tile", "paper"])
def test_back_and_unknown(page: Any, style: str) -> None:
    back = page.evaluate(DRAW, [style, "??"])
    assert "back" in back["classes"] and back["text"] == ""
    odd = page.evaluate(DRAW, [style, "Q9"])
    assert "unknown" in odd["classes"] and odd["text"] == "Q9"  # drawn as sent, never dropped


def test_card_names_inside_labels(page: Any) -> None:
    text = page.evaluate("""async () => {
        const { richText } = await import('/static/cards.js');
        const span = document.createElement('span');
        span.append(...richText('头 AD 5S · 尾 3H 2C', 'french'));
        return [span.textContent, span.querySelectorAll('.card-text.red').length];
    }""")
    assert text == ["头 A♦ 5♠ · 尾 3♥ 2♣", 2]


@pytest.mark.parametrize(("lang", "label", "style", "shown"), [
    ("zh", "碰 5m", "tile", "碰 五万"),
    ("en", "pung 5m", "tile", "pung 5 Char"),
    ("en", "discard 1z", "tile", "discard East"),
    ("zh", "打 7z", "tile", "打 中"),
    ("en", "play BJ AS", "french", "play Big Joker A♠"),
    ("en", "eat d2", "paper", "eat big 2"),
])
def test_card_names_follow_the_language(page: Any, lang: str, label: str, style: str, shown: str) -> None:
    text = page.evaluate("""async ([lang, label, style]) => {
        const i18n = await import('/static/i18n.js');
        const { richText } = await import('/static/cards.js');
        const before = i18n.lang();
        i18n.setLang(lang);
        const span = document.createElement('span');
        span.append(...richText(label, style));
        i18n.setLang(before);
        return span.textContent;
    }""", [lang, label, style])
    assert text == shown
