"""滑水麻将: the engine's speed against RLCard's mahjong, by the shared harness (``bench_engines.py``).

    .venv/bin/python bench/bench_huashui.py [--seconds 5]       # = bench_engines.py --games huashui

The bot study (duplicate deals, its variants and paired screens) is ``paiju study huashui``
(``paiju.games.huashui.study``); the win-check speed against ``mahjong`` is ``bench_huashui_wincheck.py``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per side (bench_engines.py)")
    args = parser.parse_args()
    from bench_engines import main as engines

    engines(["--games", "huashui", "--seconds", str(args.seconds)])


if __name__ == "__main__":
    main()
