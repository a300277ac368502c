"""Rules at hand: each game's rules page in Chinese and English (docs/rules/<game>[.zh].md, rendered by the
client's own small Markdown renderer), linked from the lobby and opened over the table; the lobby's options
show their choices in words; a turn window under 5 s is refused at the form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from paiju.core import registry

pytestmark = pytest.mark.browser


def test_rules_page_from_the_lobby_in_both_languages(room: Any, artifacts: Path) -> None:
    page = room.enter("读规则")
    page.click('.game-tile[data-game="huashui"]')
    page.click("#rules-link")
    page.wait_for_url("**/rules/huashui")
    text = page.locator("article.rules-text")
    text.wait_for()
    assert page.locator("article.rules-text h1").inner_text().startswith("宁夏滑水麻将")
    assert "不可吃牌" in text.inner_text()
    assert page.locator(".rules-toc li").count() >= 5
    assert page.locator("article.rules-text .md-table table").count() >= 3
    assert page.locator("article.rules-text code").count() >= 1
    assert page.locator(".rules-notice").count() == 0
    page.screenshot(path=str(artifacts / "rules-zh.png"))

    page.click("#lang-switch")
    page.wait_for_function("() => document.querySelector('article.rules-text')?.lang === 'en'")
    assert "Ningxia Huashui" in page.locator("article.rules-text h1").inner_text()
    assert "No chow" in page.locator("article.rules-text").inner_text()
    # The link to the other language's page stays in the client; repository paths are plain text.
    page.click("#lang-switch")
    page.wait_for_function("() => document.querySelector('article.rules-text')?.lang === 'zh-CN'")
    link = page.locator('article.rules-text a[href="/rules/huashui?lang=en"]')
    assert link.count() == 1
    link.click()  # the full English record, the interface staying Chinese
    page.wait_for_function("() => document.querySelector('article.rules-text')?.lang === 'en'")
    assert page.locator("#lang-switch").inner_text() == "English"
    page.locator(".rules-wrap .back").click()
    page.wait_for_function("() => document.querySelector('article.rules-text')?.lang === 'zh-CN'")
    page.locator(".rules-wrap .back").click()
    page.wait_for_selector(".lobby .game-tile")


@pytest.mark.parametrize("game", [g for g in registry.GAMES if g != "demo"])
def test_every_game_has_its_rules_in_both_languages(game: str, room: Any) -> None:
    page = room.enter("规则")
    for lang in ("zh", "en"):
        out = page.evaluate("""async ([game, lang]) => {
            const r = await fetch(`/api/rules/${game}?lang=${lang}`);
            return await r.json();
        }""", [game, lang])
        assert out["lang"] == lang, f"{game} has no {lang} rules page"
    page.goto(f"{room.base}/rules/{game}")
    page.locator("article.rules-text h2").first.wait_for()


def test_rules_over_the_table(room: Any) -> None:
    page = room.enter("桌上")
    room.create_table(page, "demo", {"style": "tile", "players": 2}, windows={"turn_seconds": 0})
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    page.click("#rules-open")
    panel = page.locator("#rules-panel")
    panel.wait_for()
    assert "规则" in panel.locator("h2").inner_text()
    # the demo game has no page: the panel says so, once the "connecting" placeholder (p.muted) is replaced
    panel.locator("p:not(.muted)").first.wait_for()
    assert "没有找到" in panel.inner_text()
    page.keyboard.press("Escape")
    assert page.locator("#rules-panel").count() == 0
    assert page.locator(".board .seat.me").count() == 1  # the table is still there


MARKDOWN = """async (text) => {
    const { renderMarkdown } = await import('/static/markdown.js');
    const box = document.createElement('div');
    box.append(...renderMarkdown(text, { link: (h) => h.startsWith('#') ? h : null }));
    const q = (s) => [...box.querySelectorAll(s)].map((e) => e.textContent);
    return {h2: q('h2'), ids: [...box.querySelectorAll('h2')].map((e) => e.id), strong: q('strong'),
            code: q('p code'), li: q('ul > li'), nested: q('ul ul li'), ol: q('ol li'), th: q('th'), td: q('td'),
            right: [...box.querySelectorAll('td')].map((e) => e.style.textAlign), pre: q('pre code'),
            links: [...box.querySelectorAll('a')].map((e) => e.getAttribute('href')), plain: q('.md-link'),
            p: q('p'), scripts: box.querySelectorAll('script, img').length, quote: q('blockquote p')};
}"""

SAMPLE = """## Play 出牌

**Bold** and `code | pipe` and a [link](#play) and [a file](../x.md).
第一行
第二行 <script>alert(1)</script> <img src=x>

- one
  wrapped
- two
  - inner

1. first
2. second

| a | b |
|---|--:|
| 1 | 2 |

```
raw **text**
```

> quoted
"""


def test_the_markdown_renderer(room: Any) -> None:
    page = room.enter("渲染")
    out = page.evaluate(MARKDOWN, SAMPLE)
    assert out["h2"] == ["Play 出牌"] and out["ids"] == ["play-出牌"]
    assert out["strong"] == ["Bold"] and out["code"] == ["code | pipe"]
    assert out["links"] == ["#play"] and out["plain"] == ["a file"]
    assert ". 第一行第二行 <script>" in out["p"][0], "Chinese lines join without a space, others with one"
    assert "<script>alert(1)</script>" in out["p"][0] and out["scripts"] == 0, "markup stays text"
    assert out["li"][0].startswith("one wrapped") and out["nested"] == ["inner"]
    assert out["ol"] == ["first", "second"]
    assert out["th"] == ["a", "b"] and out["td"] == ["1", "2"] and out["right"] == ["", "right"]
    assert out["pre"] == ["raw **text**"] and out["quote"] == ["quoted"]


def test_option_choices_in_words_and_the_turn_window_minimum(room: Any) -> None:
    page = room.enter("开桌")
    page.click('.game-tile[data-game="huashui"]')
    page.locator("#create-form details.rules").evaluate("d => { d.open = true; }")
    texts = page.locator("#create-form select option").all_inner_texts()
    assert texts and not any(t in ("all", "first", "same_tile", "any_tile", "off") for t in texts), texts
    assert "都胡（一炮多响）" in texts
    page.click("#lang-switch")
    texts = page.locator("#create-form select option").all_inner_texts()
    assert "every winner wins" in texts and "same_tile" not in texts
    page.click("#lang-switch")

    page.fill("#win-turn_seconds", "3")
    page.click("#create-submit")
    page.wait_for_selector("label.field.invalid #win-turn_seconds")
    assert "5 秒" in page.locator("#create-error").inner_text()
    assert "/t/" not in page.url
    # The server refuses it too, with its own code, whatever a client sends.
    status = page.evaluate("""async () => {
        const r = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json',
            Authorization: 'Bearer ' + localStorage.getItem('paiju.token')},
            body: JSON.stringify({game: 'huashui', turn_seconds: 2})});
        return [r.status, (await r.json()).error.code];
    }""")
    assert status == [422, "window_too_short"]
    page.fill("#win-turn_seconds", "0")  # untimed is fine
    page.click("#create-submit")
    page.wait_for_url("**/t/*")
