"""The ``paiju`` command line, driven as a user would: typed input, JSON output, saved records."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from paiju.cli.main import app
from paiju.core import Record, game_names, replay

runner = CliRunner()


def test_games_lists_every_registered_game() -> None:
    out = runner.invoke(app, ["games"])
    assert out.exit_code == 0
    listed = [line.split("\t")[0] for line in out.stdout.strip().splitlines()]
    assert listed == game_names()


def test_sim_prints_a_reproducible_json_summary() -> None:
    args = ["sim", "shuiyu", "--games", "5", "--seed", "11", "--no-progress"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    summary = json.loads(first.stdout)
    assert summary["game"] == "shuiyu" and summary["games"] == 5
    assert len(summary["totals"]) == 4 and summary["seconds"] > 0
    assert summary["actions"] > 0
    again = json.loads(runner.invoke(app, args).stdout)
    assert again["totals"] == summary["totals"], "the same seeds must give the same match totals"


def test_sim_rejects_bad_options() -> None:
    out = runner.invoke(app, ["sim", "shuiyu", "--games", "1", "-o", "seats=99", "--no-progress"])
    assert out.exit_code != 0
    assert "seats" in out.output
    out = runner.invoke(app, ["sim", "nosuchgame", "--games", "1"])
    assert out.exit_code != 0 and "unknown game" in out.output


def test_play_answers_bad_input_with_a_hint_and_saves_a_replayable_record(tmp_path: Path) -> None:
    record_file = tmp_path / "game.json"
    typed = "zz\n99\n" + "1\n2\n3\n4\n" * 400  # numbers stay put while the banker answers: 1 may be gone
    out = runner.invoke(app, ["play", "shuiyu", "--seed", "3", "--save", str(record_file), "-o", "rounds=1"],
                        input=typed)
    assert out.exit_code == 0, out.output
    assert "看不懂 'zz'" in out.output and "输入编号" in out.output
    rec = Record.from_json(record_file.read_text(encoding="utf-8"))
    assert rec.game == "shuiyu" and rec.seed == 3 and rec.actions
    game = replay(rec)
    assert game.finished
    shown = runner.invoke(app, ["replay", str(record_file), "--lang", "en"])
    assert shown.exit_code == 0, shown.output
    assert f"{len(rec.actions):>4}. seat" in shown.output
    totals = "totals: " + "  ".join(f"{i}:{s:g}" for i, s in enumerate(game.totals()))
    assert totals in shown.output


def test_replay_refuses_a_broken_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    out = runner.invoke(app, ["replay", str(bad)])
    assert out.exit_code != 0 and "cannot read record" in out.output


def test_bad_play_arguments_are_usage_errors() -> None:
    """Exit 2 with the reason and no traceback: a seat outside the table, an unknown bot or language."""
    for args, words in ((["--seat", "4"], "seats 0–3"), (["--seat", "-1"], "seats 0–3"),
                        (["--bots", "nosuch"], "no bot 'nosuch'"), (["--lang", "fr"], "'fr' is not one of")):
        out = runner.invoke(app, ["play", "huashui", "--seed", "1", *args], input="q\ny\n")
        assert out.exit_code == 2, (args, out.output)
        assert words in " ".join(out.output.split()) and "Traceback" not in out.output, out.output
        assert out.exception is None or isinstance(out.exception, SystemExit)
    out = runner.invoke(app, ["replay", "nowhere.json", "--lang", "de"])
    assert out.exit_code == 2


def test_play_in_english_reads_codes_and_names_and_asks_before_leaving(tmp_path: Path) -> None:
    """``paiju play huashui --lang en`` (seed 154: seat 0 first holds East): an honour by its English name,
    refusals in English, ``q`` asks first, and the saved record has the move typed."""
    record_file = tmp_path / "game.json"
    typed = "q\nn\nWest\ndiscard East\n" + "q\ny\n"
    out = runner.invoke(app, ["play", "huashui", "--seed", "154", "--lang", "en", "--save", str(record_file)],
                        input=typed)
    assert out.exit_code == 0, out.output
    text = out.output
    assert "leave this hand? (y/n)" in text and "carrying on" in text and "bye" in text
    assert "not allowed: discard West: that tile is not in your hand" in text
    assert "East" in text and "座位" not in text and "你的选择" not in text
    rec = Record.from_json(record_file.read_text(encoding="utf-8"))
    assert [a for s, a in rec.actions if s == 0] == ["discard 1z"]


def test_play_in_chinese_takes_chinese_names_and_prints_each_line_once() -> None:
    out = runner.invoke(app, ["play", "huashui", "--seed", "154"], input="打 中\n吃\nq\ny\n")
    assert out.exit_code == 0, out.output
    assert "打 中" in out.output and "不行：滑水麻将只可碰，可杠，不可吃牌" in out.output
    assert "seat" not in out.output and "your choice" not in out.output and "discard" not in out.output
