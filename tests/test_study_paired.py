"""Paired rows of a study (``rows_work(pairs=...)``): two bots on the same deals against the same field, their
difference taken deal by deal.  升级's ``-o compare=[...]`` uses it (issue 37: search against smart, paired)."""

from __future__ import annotations

import json
import statistics

import pytest
from typer.testing import CliRunner

from paiju.bots.base import bot_maker
from paiju.bots.executor import execute, make_executor
from paiju.bots.study import DuplicateDeals, interval, rows_work
from paiju.cli.main import app
from paiju.games.shengji.config import ShengjiConfig
from paiju.games.shengji.study import TEAMS, hero_side


def test_a_paired_row_is_the_deal_by_deal_difference_of_its_two_rows() -> None:
    cfg = ShengjiConfig(max_hands=1)
    rows = [(f"2 × {hero}", "2 × highest", DuplicateDeals("shengji", bot_maker("shengji", hero),
                                                         bot_maker("shengji", "highest"), TEAMS, cfg, 7,
                                                         score=hero_side))
            for hero in ("smart", "random")]
    work = rows_work("shengji", rows, 3, seed=7, unit="net levels per hand", pairs=[(1, 0)])
    with make_executor(1) as ex:
        summary = execute(work, ex).summary
    alone = [[rows[r][2].play(d).sample for d in range(3)] for r in range(2)]
    diffs = [b - a for a, b in zip(*alone, strict=True)]
    (paired,) = summary["paired"]
    assert (paired["bot"], paired["minus"]) == ("2 × random", "2 × smart")
    assert paired["mean"] == pytest.approx(statistics.fmean(diffs))
    assert paired["ci95"] == pytest.approx(interval(diffs)["ci95"])
    assert [r["mean"] for r in summary["rows"]] == pytest.approx([statistics.fmean(x) for x in alone])


def test_shengji_compare_option() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["study", "shengji", "-o", 'compare=["smart", "highest"]', "--against", "random",
                              "-n", "2", "--no-progress", "-w", "1"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert [(r["bot"], r["against"]) for r in summary["rows"]] == [("2 × smart", "2 × random"),
                                                                   ("2 × highest", "2 × random")]
    assert [(p["bot"], p["minus"]) for p in summary["paired"]] == [("2 × highest", "2 × smart")]
    bad = runner.invoke(app, ["study", "shengji", "-o", 'compare=["smart"]', "-n", "1"])
    assert bad.exit_code != 0 and "two or more" in bad.output
