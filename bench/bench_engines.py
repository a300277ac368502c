"""Every paiju engine against its peers in one fair harness: decisions and hands per CPU second, same loop.

    .venv/bin/python bench/bench_engines.py                       # all four games, 5 s of CPU per side
    .venv/bin/python bench/bench_engines.py --games huashui,shengji --seconds 20 --rounds 10
    .venv/bin/python bench/bench_engines.py --json docs/performance/engines.json   # table + JSON file
    .venv/bin/python bench/bench_engines.py --build both --compiled-path "$(scripts/build-compiled)"  # both builds
    .venv/bin/python bench/bench_engines.py --games shuiyu --against main   # this tree against main's paiju

Every side plays whole hands at random with the same driver loop (``movers → legal → [view] → random choice
→ apply``, a ``random.Random`` choosing uniformly from the legal list), in its own engine's calls:

- **paiju**: a one-hand match of each game through the ``Game`` protocol (``new``, ``to_move``,
  ``legal_actions``, ``apply``, ``view``, ``finished``), without views or with ``view(seat)`` per decision;
- **RLCard** (``bench/rlcard_peer.py``): the bare game (its ``step`` builds the next player's state dict
  whatever the caller wants, so it is its "with views" figure) and the env (plus its learning encoding);
- **OpenSpiel** (``pyspiel``): C++ ``spades`` and ``hearts`` and the pure-Python ``python_team_dominoes``,
  without observations, with the observation (or information-state) string, or with the tensor.

The sides run interleaved in CPU-time slices (``time.process_time`` of the side's own process): each round
gives every side one slice, in alternating order, so a busy moment of a shared machine hits all alike; the
figures are medians over the rounds with their min–max, and each ratio is taken round by round.

The fair figure comes first: **per decision, views on both sides**.  The sides run in worker processes,
one per build of paiju: ``--build compiled`` / ``both`` starts a worker on ``--compiled-python`` (another
interpreter, e.g. a venv holding the compiled wheel) with ``--compiled-path`` put first on ``PYTHONPATH`` (a
directory holding a whole compiled ``paiju`` package); each worker checks which build it imported and refuses
a mismatch.  ``--against REV`` adds a worker on git revision REV's ``src/`` (exported by
``paiju.devtools.revision``), so a change's effect on every engine is measured in the same interleaved run.
The peers always run in the pure worker (this interpreter).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paiju.core.game import Game

sys.path.insert(0, str(Path(__file__).resolve().parent))

SCHEMA = 1

ONE_HAND: dict[str, dict[str, Any]] = {
    # paiju game: the options for a one-hand match (a hand is what the peers call a game)
    "huashui": {"hands": 1},
    "weimaque": {"hands": 1},
    "shengji": {"max_hands": 1},
    "shuiyu": {"rounds": 1},
}


@dataclass(frozen=True)
class Peer:
    engine: str  # "rlcard" | "openspiel"
    game: str
    why: str


PEERS: dict[str, list[Peer]] = {
    "huashui": [
        Peer("rlcard", "mahjong",
             "the open mahjong engine: four seats, draw and discard, pung/kong/chow claims, a win check per tile; "
             "it plays win-or-draw without scoring where paiju plays 滑水's 对胡, kongs and payments"),
    ],
    "weimaque": [
        Peer("rlcard", "mahjong",
             "no open engine plays a paper-card (字牌) game; mahjong is the nearest with claims (吃/碰 on every "
             "shown card, a win check each time); gin rummy draws and discards but has no claims and two seats"),
    ],
    "shengji": [
        Peer("rlcard", "bridge",
             "four seats in fixed partnerships, an auction that names trumps, then tricks with follow-suit: "
             "升级's shape (升级 adds the kitty, multi-card plays and four decks)"),
        Peer("rlcard", "doudizhu",
             "a Chinese game with a kitty and multi-card combinations (pairs, chains, bombs): legal-play "
             "generation as combinatorial as 升级's, but climbing, not tricks, and no fixed partners"),
        Peer("openspiel", "spades",
             "a C++ partnership trick-taking engine (four seats, 52 cards, bidding, follow suit): "
             "the gap to compiled code"),
        Peer("openspiel", "hearts",
             "a C++ trick-taking engine (four seats, 52 cards, passing, follow suit)"),
        Peer("openspiel", "python_team_dominoes",
             "OpenSpiel's pure-Python partnership game (four seats, two teams): the same API as spades, "
             "a Python engine"),
    ],
    "shuiyu": [
        Peer("rlcard", "limit-holdem",
             "a short hand of bluffing calls with escalating stakes over a fresh 52-card deal, four seats, like "
             "水鱼's open/cover/kill/doubt dialogue; blackjack has the banker but the banker never decides"),
    ],
}

MODES = ("bare", "view", "encoded")
"""bare: no per-decision observation; view: the engine's per-seat dict or string; encoded: learning tensors."""

OPENSPIEL_VIEW = {
    "view": ("observation_string", "information_state_string"),
    "encoded": ("observation_tensor", "information_state_tensor"),
}

DIFFERS: dict[str, str] = {
    "all": ("Every side: the same Python loop shape (movers, legal list, optional observation, "
            "legal[rng.randrange(len(legal))], apply), one random.Random, a process_time() check per hand, "
            "whole hands only; a hand is a one-hand paiju match / one RLCard or OpenSpiel game."),
    "paiju": ("paiju: the deal is inside Game.new (Python); to_move() returns a tuple (several seats in claim "
              "windows: one is drawn at random, as in play_random); apply() re-checks the seat and legality and "
              "returns public events; view(seat) is a JSON-able dict of what the seat sees; 升级 deals in 51 "
              "steps of a card to each seat, each step a bid-or-pass decision of every seat (about 210 of its "
              "370 decisions a hand), so its deal timed alone (new()) covers only the first step. "
              "paiju +encoding: the view, then paiju.rl's Spec (every legal action "
              "mapped to an id, the float32 observation, the int8 mask); the action is still drawn from the "
              "legal list, so every paiju mode plays the same hands."),
    "rlcard:game": ("RLCard game: the deal is inside init_game (numpy RNG); step() trusts its caller (no "
                    "legality check) and builds the next player's state dict every time, which is where its "
                    "legal actions are, so the game has no mode without a view (bridge's state holds only the "
                    "hand and its legal actions come from its judger: its game is bare, its view is the env's); "
                    "is_over() runs its judge."),
    "rlcard:env": ("RLCard env: the game plus _extract_state on every step (numpy observation, legal-action "
                       "ids, the raw state; mahjong rebuilds the raw state twice more) and action-id decoding."),
    "openspiel": ("OpenSpiel: the deal is chance nodes driven from the same Python loop (uniform outcomes, "
                  "drawn like a decision from legal_actions() and counted apart, not as decisions); "
                  "apply_action() trusts its caller; spades and hearts are C++ through pybind11, "
                  "python_team_dominoes is Python; hearts offers information-state strings and tensors only."),
}


# ---------------------------------------------------------------------------------------------------------
# Worker side: the runners and their loops, all in this one place so their shapes can be compared


@dataclass
class Slice:
    hands: int
    decisions: int
    chance: int
    cpu: float


class Runner:
    """One side in a worker: plays whole hands (``hand``) or deals alone (``deal_one``) for a CPU budget.

    Each engine's hand is written out in its own ``hand`` with the same loop shape and its calls inline, so no
    side pays for an indirection the other does not; the timing around the hands is shared."""

    def hand(self) -> tuple[int, int]:
        """Play one hand at random: (decisions, chance steps)."""
        raise NotImplementedError

    def deal_one(self) -> tuple[int, int]:
        """A new game up to its first decision: (0, chance steps)."""
        raise NotImplementedError

    def info(self) -> dict[str, Any]:
        return {}

    def run(self, seconds: float) -> Slice:
        return timed(seconds, self.hand)

    def deal(self, seconds: float) -> Slice:
        return timed(seconds, self.deal_one)


def timed(seconds: float, one: Callable[[], tuple[int, int]]) -> Slice:
    """Whole hands (or deals) until ``seconds`` of this process's CPU time have passed; at least one."""
    clock = time.process_time
    hands = decisions = chance = 0
    start = clock()
    deadline = start + seconds
    while True:
        d, c = one()
        decisions += d
        chance += c
        hands += 1
        now = clock()
        if now >= deadline:
            return Slice(hands, decisions, chance, now - start)


class PaijuRunner(Runner):
    def __init__(self, game: str, mode: str) -> None:
        from paiju.core.registry import get_game

        self.cls = get_game(game)
        self.cfg = self.cls.config_class.from_dict(ONE_HAND[game])
        self.mode = mode
        self.spec: Any = None
        if mode == "encoded":
            from paiju.rl import make_spec  # the rl extra: numpy, gymnasium, pettingzoo

            self.spec = make_spec(game, self.cfg)
        self.rng = random.Random(1)
        self.seed = 0

    def observer(self, game: Game[Any]) -> Callable[[int], object] | None:
        """None, ``view(seat)``, or the view encoded for learning (paiju.rl: ids of the legal actions, the
        float32 observation, the int8 mask), as RLCard's env and OpenSpiel's tensors do."""
        if self.mode == "bare":
            return None
        if self.mode == "view":
            return game.view
        spec, size = self.spec, self.spec.num_actions

        def encode(seat: int) -> object:
            view = game.view(seat)
            decision = spec.decision(game, seat, view)
            return spec.encode(view, decision), decision.mask(size)

        return encode

    def hand(self) -> tuple[int, int]:
        rng, decisions = self.rng, 0
        game = self.cls.new(self.cfg, self.seed)
        self.seed += 1
        observe = self.observer(game)
        while not game.finished:
            movers = game.to_move()
            seat = movers[rng.randrange(len(movers))] if len(movers) > 1 else movers[0]
            legal = game.legal_actions(seat)
            if observe is not None:
                observe(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
            decisions += 1
        return decisions, 0

    def deal_one(self) -> tuple[int, int]:
        self.cls.new(self.cfg, self.seed)
        self.seed += 1
        return 0, 0

    def info(self) -> dict[str, Any]:
        return {"module": sys.modules[self.cls.__module__].__file__, "compiled": compiled_paiju_modules()}


class RLCardGameRunner(Runner):
    def __init__(self, game: str) -> None:
        from rlcard_peer import legal_reader, make_env

        self.game = make_env(game).game
        self.legal_of = legal_reader(game)
        self.rng = random.Random(1)

    def hand(self) -> tuple[int, int]:
        game, legal_of, rng, decisions = self.game, self.legal_of, self.rng, 0
        state, _seat = game.init_game()
        while not game.is_over():
            legal = legal_of(game, state)
            state, _seat = game.step(legal[rng.randrange(len(legal))])
            decisions += 1
        return decisions, 0

    def deal_one(self) -> tuple[int, int]:
        self.game.init_game()
        return 0, 0


class RLCardEnvRunner(Runner):
    def __init__(self, game: str) -> None:
        from rlcard_peer import make_env

        self.env = make_env(game)
        self.rng = random.Random(1)

    def hand(self) -> tuple[int, int]:
        env, rng, decisions = self.env, self.rng, 0
        state, _seat = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _seat = env.step(legal[rng.randrange(len(legal))])
            decisions += 1
        return decisions, 0

    def deal_one(self) -> tuple[int, int]:
        self.env.reset()
        return 0, 0


class OpenSpielRunner(Runner):
    def __init__(self, game: str, mode: str) -> None:
        import pyspiel

        if game.startswith("python_"):
            import open_spiel.python.games  # noqa: F401  (registers the Python games)
        self.game = pyspiel.load_game(game)
        kind = self.game.get_type()
        self.method: str | None = None
        if mode != "bare":
            observation, information_state = OPENSPIEL_VIEW[mode]
            provides_observation = (kind.provides_observation_string if mode == "view"
                                    else kind.provides_observation_tensor)
            self.method = observation if provides_observation else information_state
        self.rng = random.Random(1)
        self.check_chance_is_uniform()

    def check_chance_is_uniform(self) -> None:
        """The loop draws chance outcomes uniformly from legal_actions(): true of these games' deals."""
        state = self.game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                if len({p for _, p in outcomes}) != 1 or sorted(a for a, _ in outcomes) != sorted(
                        state.legal_actions()):
                    raise RuntimeError(f"{self.game}: chance outcomes are not uniform over legal_actions()")
            legal = state.legal_actions()
            state.apply_action(legal[self.rng.randrange(len(legal))])

    def hand(self) -> tuple[int, int]:
        rng, decisions, chance = self.rng, 0, 0
        state = self.game.new_initial_state()
        observe = getattr(state, self.method) if self.method is not None else None
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.is_chance_node():
                state.apply_action(legal[rng.randrange(len(legal))])
                chance += 1
                continue
            if observe is not None:
                observe(state.current_player())
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
        return decisions, chance

    def deal_one(self) -> tuple[int, int]:
        rng, chance = self.rng, 0
        state = self.game.new_initial_state()
        while state.is_chance_node():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            chance += 1
        return 0, chance

    def info(self) -> dict[str, Any]:
        return {"observation": self.method}


def make_runner(engine: str, game: str, mode: str) -> Runner:
    if engine == "paiju":
        return PaijuRunner(game, mode)
    if engine == "rlcard":
        return RLCardEnvRunner(game) if mode == "encoded" else RLCardGameRunner(game)
    if engine == "openspiel":
        return OpenSpielRunner(game, mode)
    raise ValueError(f"unknown engine {engine!r}")


def compiled_paiju_modules() -> dict[str, list[str]]:
    """The paiju engine modules this process imported, split by whether they are extension modules."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    out: dict[str, list[str]] = {"compiled": [], "pure": []}
    for name, module in sorted(sys.modules.items()):
        if not (name.startswith("paiju.core") or name.startswith("paiju.games")):
            continue
        path = getattr(module, "__file__", None) or ""
        out["compiled" if path.endswith(suffixes) else "pure"].append(name)
    return out


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for dist in ("paiju", "rlcard", "open_spiel", "numpy"):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:
            out[dist] = "missing"
    return out


def worker(build: str) -> None:
    """Serve one build's sides: JSON lines in on stdin, JSON lines out on the real stdout (prints go to stderr)."""
    out: IO[str] = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    runners: dict[str, Runner] = {}

    def reply(obj: dict[str, Any]) -> None:
        out.write(json.dumps(obj) + "\n")
        out.flush()

    for line in sys.stdin:
        msg = json.loads(line)
        if msg["op"] == "setup":
            info: dict[str, Any] = {}
            skipped: dict[str, str] = {}
            for spec in msg["sides"]:
                try:
                    runner = make_runner(spec["engine"], spec["game"], spec["mode"])
                    for _ in range(msg["warmup"]):
                        runner.run(0.0)  # whole hands: imports, tables and caches built before timing
                except ImportError as e:
                    extra = "rl" if spec["engine"] == "paiju" else "bench"
                    skipped[spec["key"]] = f"{e}; pip install -e '.[{extra}]'"
                    continue
                runners[spec["key"]] = runner
                info[spec["key"]] = runner.info()
            mismatch = check_build(build, info)
            reply({"info": info, "skipped": skipped, "versions": versions(), "error": mismatch,
                   "executable": sys.executable})
        elif msg["op"] == "run":
            reply(asdict(runners[msg["key"]].run(msg["seconds"])))
        elif msg["op"] == "deal":
            reply(asdict(runners[msg["key"]].deal(msg["seconds"])))
        else:
            return


def check_build(build: str, info: dict[str, Any]) -> str | None:
    """A worker must run the build it was started for: a stray .so in a pure tree would skew every figure."""
    for key, side in info.items():
        modules = side.get("compiled")
        if modules is None:
            continue
        if build != "compiled" and modules["compiled"]:
            return (f"{key}: the {build} build imported compiled modules {', '.join(modules['compiled'][:5])} "
                    f"from {side['module']}; run it from a tree without the extension modules")
        if build == "compiled" and not modules["compiled"]:
            return (f"{key}: the compiled build imported only pure modules ({side['module']}); "
                    "point --compiled-path / --compiled-python at the compiled paiju")
    return None


# ---------------------------------------------------------------------------------------------------------
# Parent side: sides, schedule, summaries, comparisons, output


DEAL_SHARE = 0.25
"""Each round also times every side's deal alone (new game up to the first decision) for this share of a slice."""


@dataclass
class Side:
    key: str
    engine: str
    game: str
    mode: str
    build: str  # the paiju build of the worker it runs in; peers run in the pure worker
    label: str
    slices: list[Slice] = field(default_factory=list)
    deals: list[Slice] = field(default_factory=list)

    def spec(self) -> dict[str, str]:
        return {"key": self.key, "engine": self.engine, "game": self.game, "mode": self.mode}

    def rates(self, what: str, without_deal: bool = False) -> list[float]:
        """Per round: decisions or hands per CPU second, optionally with that round's deal time taken out."""
        out = []
        for s, d in zip(self.slices, self.deals, strict=True):
            cpu = s.cpu - s.hands * (d.cpu / d.hands) if without_deal else s.cpu
            if cpu > 0:
                out.append(getattr(s, what) / cpu)
        return out

    def summary(self) -> dict[str, Any]:
        hands = sum(s.hands for s in self.slices)
        deal_us = [d.cpu / d.hands * 1e6 for d in self.deals]
        hand_us = [s.cpu / s.hands * 1e6 for s in self.slices]
        return {
            "key": self.key, "engine": self.engine, "game": self.game, "mode": self.mode, "build": self.build,
            "label": self.label,
            "decisions_per_cpu_s": spread(self.rates("decisions")),
            "hands_per_cpu_s": spread(self.rates("hands")),
            "decisions_per_cpu_s_without_deal": spread(self.rates("decisions", without_deal=True)),
            "deal_cpu_us": spread(deal_us),
            "deal_share_of_hand": spread([d / h for d, h in zip(deal_us, hand_us, strict=True)]),
            "decisions_per_hand": sum(s.decisions for s in self.slices) / hands if hands else 0.0,
            "chance_steps_per_hand": sum(s.chance for s in self.slices) / hands if hands else 0.0,
            "hands": hands, "cpu_s": sum(s.cpu for s in self.slices),
            "slices": [asdict(s) for s in self.slices],
            "deal_slices": [asdict(d) for d in self.deals],
        }


def spread(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"median": 0.0, "min": 0.0, "max": 0.0}
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def label_of(engine: str, game: str, mode: str, build: str) -> str:
    if engine == "paiju":
        how = {"bare": "", "view": " +view", "encoded": " +encoding"}[mode]
        tag = "" if build == "pure" else f" [{build.removeprefix('rev:')}]"
        return f"paiju {game}{how}{tag}"
    if engine == "rlcard":
        return f"RLCard {game} {'env' if mode == 'encoded' else 'game'}"
    how = {"bare": "", "view": " +string", "encoded": " +tensor"}[mode]
    return f"OpenSpiel {game}{how}"


def peer_modes(peer: Peer) -> tuple[str, ...]:
    """RLCard: its game (a view per step, bare for bridge) and its env; OpenSpiel: all three."""
    if peer.engine == "rlcard":
        from rlcard_peer import state_is_view

        return ("view" if state_is_view(peer.game) else "bare", "encoded")
    return MODES


def plan(games: Sequence[str], builds: Sequence[str]) -> list[Side]:
    sides: list[Side] = []
    for build in builds:
        for game in games:
            for mode in MODES:
                sides.append(Side(f"paiju:{game}:{mode}@{build}", "paiju", game, mode, build,
                                  label_of("paiju", game, mode, build)))
    seen: set[str] = set()
    for game in games:
        for peer in PEERS[game]:
            for mode in peer_modes(peer):
                key = f"{peer.engine}:{peer.game}:{mode}"
                if key not in seen:
                    seen.add(key)
                    sides.append(Side(key, peer.engine, peer.game, mode, "pure",
                                      label_of(peer.engine, peer.game, mode, "pure")))
    return sides


COMPARISONS: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    # kind: (paiju's modes and the peer's modes, each in order of preference; title)
    "fair": (("view",), ("view", "encoded"),
             "THE FAIR FIGURE: per decision, views on both sides (paiju view(seat); RLCard's per-step state, "
             "bridge's env; OpenSpiel's observation string)"),
    "bare": (("bare",), ("bare", "view"),
             "Without views (RLCard's game builds its state anyway: the same RLCard rows as above)"),
    "encoded": (("encoded", "view"), ("encoded",),
                "Encoded for learning on both sides (paiju.rl's observation and mask; RLCard env; OpenSpiel "
                "tensors)"),
    "build": ((), (), "Other builds against this tree's pure paiju (--build compiled, --against REV), same run"),
}


def compare(sides: Sequence[Side], games: Sequence[str], builds: Sequence[str]) -> list[dict[str, Any]]:
    by_key = {s.key: s for s in sides if s.slices}
    rows: list[dict[str, Any]] = []
    for kind, (our_pref, peer_pref, _) in COMPARISONS.items():
        for build in builds:
            for game in games:
                ours = next((by_key[k] for m in our_pref if (k := f"paiju:{game}:{m}@{build}") in by_key), None)
                if ours is None:
                    continue
                for peer in PEERS[game]:
                    theirs = next((by_key[k] for m in peer_pref
                                   if (k := f"{peer.engine}:{peer.game}:{m}") in by_key), None)
                    if theirs is not None:
                        rows.append(ratio_row(kind, game, build, ours, theirs))
    for build in builds if "pure" in builds else ():
        for game in games if build != "pure" else ():
            for mode in MODES:
                a, b = by_key.get(f"paiju:{game}:{mode}@{build}"), by_key.get(f"paiju:{game}:{mode}@pure")
                if a is not None and b is not None:
                    rows.append(ratio_row("build", game, build, a, b))
    return rows


def ratio_row(kind: str, game: str, build: str, ours: Side, theirs: Side) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind, "game": game, "build": build, "paiju": ours.key, "peer": theirs.key,
                           "paiju_label": ours.label, "peer_label": theirs.label}
    for what, name, without_deal in (("decisions", "per_decision", False), ("hands", "per_hand", False),
                                     ("decisions", "per_decision_without_deal", True)):
        a, b = ours.rates(what, without_deal), theirs.rates(what, without_deal)
        row: dict[str, float] = spread([x / y for x, y in zip(a, b, strict=False) if y > 0])
        row["paiju"] = statistics.median(a) if a else 0.0
        row["peer"] = statistics.median(b) if b else 0.0
        out[name] = row
    return out


class WorkerProcess:
    """One worker: a build's interpreter and path, serving slices on request (idle between them)."""

    def __init__(self, build: str, python: str, pythonpath: str | None) -> None:
        env = dict(os.environ)
        if pythonpath:
            env["PYTHONPATH"] = pythonpath + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self.build = build
        self.proc = subprocess.Popen([python, str(Path(__file__).resolve()), "--worker", build],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

    def ask(self, msg: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.build} worker died (exit {self.proc.wait()}); see its stderr above")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def run(args: argparse.Namespace) -> dict[str, Any]:
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in ONE_HAND]
    if unknown:
        raise SystemExit(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(ONE_HAND)}")
    builds = ["pure", "compiled"] if args.build == "both" else [args.build]
    compiled_python = args.compiled_python or os.environ.get("PAIJU_COMPILED_PYTHON")
    compiled_path = args.compiled_path or os.environ.get("PAIJU_COMPILED_PATH")
    if "compiled" in builds and not (compiled_python or compiled_path):
        raise SystemExit("--build compiled needs --compiled-python (an interpreter whose paiju is compiled) "
                         "and/or --compiled-path (a directory holding a compiled paiju package), or "
                         "PAIJU_COMPILED_PYTHON / PAIJU_COMPILED_PATH")
    scratch = tempfile.TemporaryDirectory(prefix="bench-engines-")
    against: tuple[str, str] | None = None
    if args.against:
        from paiju.devtools.revision import export_src

        short = subprocess.run(["git", "rev-parse", "--short", args.against], capture_output=True, text=True,
                               cwd=Path(__file__).resolve().parent)
        if short.returncode != 0:
            raise SystemExit(f"--against {args.against}: {short.stderr.strip()}")
        against = (f"rev:{short.stdout.strip()}", str(export_src(args.against, Path(scratch.name))))
        builds.append(against[0])
    workers = {"pure": WorkerProcess("pure", sys.executable, None)}
    if "compiled" in builds:
        workers["compiled"] = WorkerProcess("compiled", compiled_python or sys.executable, compiled_path)
    if against is not None:
        workers[against[0]] = WorkerProcess(against[0], sys.executable, against[1])
    sides = plan(games, builds)
    load_start = os.getloadavg()
    meta: dict[str, Any] = {"workers": {}}
    skipped: dict[str, str] = {}
    try:
        for build, w in workers.items():
            answer = w.ask({"op": "setup", "sides": [s.spec() for s in sides if s.build == build],
                            "warmup": args.warmup})
            if answer["error"]:
                raise SystemExit(f"{build} worker: {answer['error']}")
            skipped.update(answer["skipped"])
            meta["workers"][build] = {"executable": answer["executable"], "versions": answer["versions"],
                                      "sides": answer["info"]}
        sides = [s for s in sides if s.key not in skipped]
        per_slice = args.seconds / args.rounds
        for r in range(args.rounds):
            order = sides if r % 2 == 0 else sides[::-1]
            for side in order:
                worker_ = workers[side.build]
                side.slices.append(Slice(**worker_.ask({"op": "run", "key": side.key, "seconds": per_slice})))
                side.deals.append(Slice(**worker_.ask({"op": "deal", "key": side.key,
                                                       "seconds": per_slice * DEAL_SHARE})))
            print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    finally:
        for w in workers.values():
            w.close()
        scratch.cleanup()
    engines = {s.engine if s.engine != "rlcard" else "rlcard:env" if s.mode == "encoded" else "rlcard:game"
               for s in sides}
    return {
        "schema": SCHEMA,
        "command": "bench/bench_engines.py " + " ".join(args.argv),
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": {"platform": platform.platform(), "machine": platform.machine(), "cpus": os.cpu_count(),
                    "load_average_start": load_start[0], "load_average_end": os.getloadavg()[0]},
        "settings": {"games": games, "builds": builds, "seconds_per_side": args.seconds, "rounds": args.rounds,
                     "slice_cpu_s": args.seconds / args.rounds, "warmup_hands": args.warmup,
                     "one_hand_options": {g: ONE_HAND[g] for g in games}},
        "workers": meta["workers"],
        "peers": {g: [asdict(p) for p in PEERS[g]] for g in games},
        "differs": {k: v for k, v in DIFFERS.items() if k == "all" or k in engines},
        "skipped": skipped,
        "comparisons": compare(sides, games, builds),
        "sides": [s.summary() for s in sides],
    }


def _rate(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def _ratio(x: float) -> str:
    return f"{x:.1f}×" if x >= 10 else f"{x:.2f}×" if x >= 0.1 else f"{x:.3f}×"


def _share(x: float) -> str:
    return f"{x:.1%}" if x < 0.1 else f"{x:.0%}"


def _ratio_cell(r: dict[str, float]) -> str:
    return f"{_ratio(r['median'])} [{_ratio(r['min'])}–{_ratio(r['max'])}]"


def render(report: dict[str, Any]) -> str:
    st, m = report["settings"], report["machine"]
    lines = [
        f"paiju engines against their peers: {st['rounds']} interleaved rounds × {st['slice_cpu_s']:.2f} s of CPU "
        f"per side (+{DEAL_SHARE:.0%} timing the deal alone); builds: {', '.join(st['builds'])}",
        f"python {report['workers']['pure']['versions']['python']} on {m['machine']}, {m['cpus']} CPUs; "
        f"load average {m['load_average_start']:.1f} at start, {m['load_average_end']:.1f} at end",
        "rates per CPU second, median over the rounds; ratios paiju/peer taken round by round: median [min–max]",
    ]
    if max(m["load_average_start"], m["load_average_end"]) > 0.75 * (m["cpus"] or 1):
        lines.append("MEASURED UNDER LOAD (other jobs share the CPUs): absolute rates are provisional, the "
                     "round-by-round ratios hold better")
    for build, w in report["workers"].items():
        modules = next((side["compiled"] for side in w["sides"].values() if "compiled" in side), None)
        if modules is not None:
            lines.append(f"{build} worker: {w['executable']}, {len(modules['compiled'])} of "
                         f"{len(modules['compiled']) + len(modules['pure'])} paiju engine modules compiled")
    for kind, (_, _, title) in COMPARISONS.items():
        chosen = [r for r in report["comparisons"] if r["kind"] == kind]
        if not chosen:
            continue
        other = "pure side" if kind == "build" else "peer side"
        lines += ["", title, f"  {'paiju side':<36}{other:<40}{'decisions/s':>19}  {'ratio/decision':<22}"
                             f"{'hands/s':>17}  {'ratio/hand':<22}{'deals out':>10}"]
        for r in chosen:
            d, h, x = r["per_decision"], r["per_hand"], r["per_decision_without_deal"]
            lines.append(f"  {r['paiju_label']:<36}{r['peer_label']:<40}"
                         f"{_rate(d['paiju']):>9} {_rate(d['peer']):>9}  {_ratio_cell(d):<22}"
                         f"{_rate(h['paiju']):>8} {_rate(h['peer']):>8}  {_ratio_cell(h):<22}"
                         f"{_ratio(x['median']):>10}")
    lines += ["", "Each side: decisions/s and hands/s, median [min–max]; decisions (and chance steps) per hand; "
              "the deal alone"]
    for s in report["sides"]:
        d, h, deal = s["decisions_per_cpu_s"], s["hands_per_cpu_s"], s["deal_cpu_us"]
        chance = f" +{s['chance_steps_per_hand']:.0f}" if s["chance_steps_per_hand"] else ""
        lines.append(f"  {s['label']:<40}{_rate(d['median']):>9} [{_rate(d['min'])}–{_rate(d['max'])}]"
                     f"{_rate(h['median']):>9} [{_rate(h['min'])}–{_rate(h['max'])}]"
                     f"{s['decisions_per_hand']:>6.0f}{chance:<4}  deal {deal['median']:,.0f} µs "
                     f"({_share(s['deal_share_of_hand']['median'])} of a hand)")
    lines += ["", "What differs between the sides"]
    lines += [f"  - {text}" for text in report["differs"].values()]
    lines += ["", "Why these peers"]
    for game, peers in report["peers"].items():
        for p in peers:
            lines.append(f"  - {game} ↔ {p['engine']} {p['game']}: {p['why']}")
    reasons: dict[str, list[str]] = {}
    for key, why in report["skipped"].items():
        reasons.setdefault(why, []).append(key)
    for why, keys in reasons.items():
        lines.append(f"skipped {', '.join(keys)}: {why}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--worker"]:
        worker(argv[1] if len(argv) > 1 else "pure")
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", default=",".join(ONE_HAND), help="paiju games, comma-separated (default: all)")
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per side, split over the rounds")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (one slice per side each)")
    ap.add_argument("--warmup", type=int, default=2, help="untimed hands per side before timing")
    ap.add_argument("--build", choices=("pure", "compiled", "both"), default="pure",
                    help="which paiju build(s) to time; the peers always run in the pure worker")
    ap.add_argument("--compiled-python", default=None, metavar="PYTHON",
                    help="interpreter of the compiled build (default $PAIJU_COMPILED_PYTHON, else this one)")
    ap.add_argument("--compiled-path", default=None, metavar="DIR",
                    help="put DIR first on the compiled worker's PYTHONPATH (default $PAIJU_COMPILED_PATH)")
    ap.add_argument("--against", default=None, metavar="REV",
                    help="also time paiju as of git revision REV (its src/ exported, in a worker of its own)")
    ap.add_argument("--json", nargs="?", const="-", default=None, metavar="PATH",
                    help="write the machine-readable report to PATH (and print the table); alone: JSON on stdout")
    args = ap.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        ap.error("--seconds must be positive and --rounds at least 1")
    args.argv = argv
    report = run(args)
    if args.json == "-":
        print(json.dumps(report, ensure_ascii=False, indent=1))
        return
    if args.json:
        Path(args.json).write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(render(report))


if __name__ == "__main__":
    main()
