"""Train a small masked policy for 广西水鱼 in plain numpy until it beats random play.

The learner sits in seat 0 of a four-seat, four-round match (banker in the first round, a player after) against
three random bots, through ``paiju.rl.gym_env``.  The policy is a one-hidden-layer network whose logits are
masked by the env's ``action_mask`` before the softmax; it learns by REINFORCE with a linear value baseline and
Adam, all written here in numpy (no deep-learning framework).  Every ``--eval-every`` episodes the greedy policy
plays the same ``--eval-matches`` seeded matches that a uniformly random seat-0 player was measured on; the run
stops once the policy beats random by more than its 95% confidence interval three evaluations in a row (or at the
time limit).  The curve goes to a PNG (matplotlib if installed, else a plain picture written with the standard
library) and a CSV beside it.

    .venv/bin/python examples/train_shuiyu.py [--minutes 9] [--seed 0] [--png docs/rl-train-shuiyu.png]
"""

from __future__ import annotations

import argparse
import csv
import math
import struct
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from paiju.rl import gym_env

Array = npt.NDArray[np.float64]


class Policy:
    """obs -> tanh(64) -> logits over the action ids; a linear value head for the baseline."""

    def __init__(self, n_obs: int, n_act: int, hidden: int, rng: np.random.Generator) -> None:
        self.params: dict[str, Array] = {
            "w1": rng.normal(0, 1 / math.sqrt(n_obs), (n_obs, hidden)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, 0.01, (hidden, n_act)),
            "b2": np.zeros(n_act),
            "wv": np.zeros(n_obs),
            "bv": np.zeros(1),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.t = 0

    def probs(self, obs: Array, mask: Array) -> tuple[Array, Array]:
        """Masked softmax over a batch: (probabilities, hidden activations)."""
        p = self.params
        h = np.tanh(obs @ p["w1"] + p["b1"])
        logits = h @ p["w2"] + p["b2"]
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=-1, keepdims=True)
        e = np.exp(logits) * (mask > 0)
        return e / e.sum(axis=-1, keepdims=True), h

    def update(self, obs: Array, mask: Array, acts: npt.NDArray[np.int64], returns: Array, lr: float,
               entropy: float) -> None:
        p = self.params
        probs, h = self.probs(obs, mask)
        value = obs @ p["wv"] + p["bv"][0]
        adv = returns - value
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        n = len(acts)
        onehot = np.zeros_like(probs)
        onehot[np.arange(n), acts] = 1.0
        # ascent on adv * log pi(a) + entropy * H(pi): d/dlogits = adv (onehot - p) - entropy p (log p + H)
        logp = np.log(np.where(probs > 0, probs, 1.0))
        ent = -(probs * logp).sum(axis=1, keepdims=True)
        dlogits = adv[:, None] * (onehot - probs) - entropy * probs * (logp + ent)
        dlogits /= n
        grads = {"w2": h.T @ dlogits, "b2": dlogits.sum(0)}
        dh = (dlogits @ p["w2"].T) * (1 - h * h)
        grads["w1"] = obs.T @ dh
        grads["b1"] = dh.sum(0)
        dv = (returns - value) / n  # descent on the squared error of the baseline
        grads["wv"] = obs.T @ dv
        grads["bv"] = np.array([dv.sum()])
        self.t += 1
        for k, g in grads.items():  # Adam, ascending
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            p[k] += lr * mh / (np.sqrt(vh) + 1e-8)


def play(env: Any, policy: Policy | None, seed: int, rng: np.random.Generator, greedy: bool
         ) -> tuple[float, list[tuple[Array, Array, int, float]]]:
    """One match: its total reward and the (obs, mask, action, reward) of every decision."""
    obs, _ = env.reset(seed=seed)
    steps: list[tuple[Array, Array, int, float]] = []
    total, done = 0.0, False
    while not done:
        x = obs["observation"].astype(np.float64)
        mask = obs["action_mask"].astype(np.float64)
        if policy is None:
            a = int(rng.choice(np.flatnonzero(mask)))
        else:
            pr, _ = policy.probs(x[None], mask[None])
            a = int(pr[0].argmax()) if greedy else int(rng.choice(len(pr[0]), p=pr[0]))
        obs, r, done, _, _ = env.step(a)
        total += float(r)
        steps.append((x, mask, a, float(r)))
    return total, steps


def evaluate(env: Any, policy: Policy | None, seeds: range, rng: np.random.Generator) -> tuple[float, float]:
    """Mean match score over the seeds and its 95% half-interval."""
    scores = np.array([play(env, policy, s, rng, greedy=True)[0] for s in seeds])
    return float(scores.mean()), float(1.96 * scores.std(ddof=1) / math.sqrt(len(scores)))


def write_png(path: Path, rows: list[dict[str, float]], baseline: float) -> None:
    """The curve: matplotlib when present, else a bare line picture written with zlib and struct."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        _write_plain_png(path, [r["eval"] for r in rows], baseline)
        return
    eps = [r["episodes"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    ax.plot(eps, [r["eval"] for r in rows], label="learned policy (greedy), seat 0", color="tab:blue")
    ax.fill_between(eps, [r["eval"] - r["ci"] for r in rows], [r["eval"] + r["ci"] for r in rows],
                    color="tab:blue", alpha=0.2)
    ax.axhline(baseline, color="tab:red", linestyle="--", label="uniformly random seat 0")
    ax.set_xlabel("training matches")
    ax.set_ylabel("mean drinks won per match (4 rounds)")
    ax.set_title("广西水鱼 (shuiyu): numpy REINFORCE against three random bots", fontfamily=["Noto Sans CJK JP",
                                                                                     "sans-serif"])
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)


def _write_plain_png(path: Path, values: list[float], baseline: float, w: int = 600, h: int = 300) -> None:
    lo, hi = min([*values, baseline]) - 0.1, max([*values, baseline]) + 0.1
    px = [[255] * w for _ in range(h)]

    def y_of(v: float) -> int:
        return min(h - 1, max(0, int((hi - v) / (hi - lo) * (h - 1))))

    for x in range(0, w, 4):
        px[y_of(baseline)][x] = 0
    for i in range(1, len(values)):
        x0, x1 = (i - 1) * (w - 1) // max(1, len(values) - 1), i * (w - 1) // max(1, len(values) - 1)
        for x in range(x0, x1 + 1):
            t = (x - x0) / max(1, x1 - x0)
            px[y_of(values[i - 1] + t * (values[i] - values[i - 1]))][x] = 0
    raw = b"".join(b"\x00" + bytes(row) for row in px)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=9.0, help="time limit")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=32, help="matches per update")
    parser.add_argument("--eval-every", type=int, default=320, help="training matches between evaluations")
    parser.add_argument("--eval-matches", type=int, default=400)
    parser.add_argument("--min-matches", type=int, default=6400, help="train at least this long, to show the curve")
    parser.add_argument("--png", type=Path, default=Path("docs/rl-train-shuiyu.png"))
    args = parser.parse_args()
    start = time.monotonic()
    rng = np.random.default_rng(args.seed)
    env = gym_env("shuiyu", seat=0, opponents="random")
    policy = Policy(env.observation_space["observation"].shape[0], int(env.action_space.n), 64, rng)
    eval_seeds = range(1_000_000, 1_000_000 + args.eval_matches)
    baseline, base_ci = evaluate(env, None, eval_seeds, rng)
    print(f"uniformly random seat 0: {baseline:+.3f} ± {base_ci:.3f} per match", flush=True)
    mean, ci = evaluate(env, policy, eval_seeds, rng)
    rows: list[dict[str, float]] = [{"episodes": 0, "eval": mean, "ci": ci, "seconds": time.monotonic() - start}]
    print(f"     0 matches: greedy policy {mean:+.3f} ± {ci:.3f}", flush=True)
    episodes, streak, seed = 0, 0, args.seed * 10_000_000
    while time.monotonic() - start < args.minutes * 60:
        batch: list[tuple[Array, Array, int, float]] = []
        for _ in range(args.batch):
            _, steps = play(env, policy, seed, rng, greedy=False)
            seed += 1
            ret = 0.0
            for x, m, a, r in reversed(steps):  # reward to go: what this decision still earns in the match
                ret += r
                batch.append((x, m, a, ret))
        episodes += args.batch
        policy.update(np.array([b[0] for b in batch]), np.array([b[1] for b in batch]),
                      np.array([b[2] for b in batch]), np.array([b[3] for b in batch]), lr=3e-3, entropy=0.01)
        if episodes % args.eval_every == 0:
            mean, ci = evaluate(env, policy, eval_seeds, rng)
            rows.append({"episodes": episodes, "eval": mean, "ci": ci, "seconds": time.monotonic() - start})
            beats = mean - ci > baseline + base_ci
            streak = streak + 1 if beats else 0
            print(f"{episodes:6d} matches, {time.monotonic() - start:5.0f} s: greedy policy {mean:+.3f} ± {ci:.3f}"
                  f"{'  beats random' if beats else ''}", flush=True)
            if streak >= 3 and episodes >= args.min_matches:
                break
    args.png.parent.mkdir(parents=True, exist_ok=True)
    with args.png.with_suffix(".csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["episodes", "eval", "ci", "seconds"])
        writer.writeheader()
        writer.writerows(rows)
    write_png(args.png, rows, baseline)
    verdict = "beats random" if streak >= 3 else "did not beat random in time"
    print(f"{verdict}: {episodes} matches in {time.monotonic() - start:.0f} s; curve in {args.png}")
    strong = gym_env("shuiyu", seat=0, opponents="best")
    seeds = range(2_000_000, 2_000_000 + args.eval_matches // 2)
    learned, lci = evaluate(strong, policy, seeds, rng)
    rand, rci = evaluate(strong, None, seeds, rng)
    print(f"against three of paiju's best 水鱼 bots instead: learned {learned:+.3f} ± {lci:.3f}, "
          f"random {rand:+.3f} ± {rci:.3f} per match")


if __name__ == "__main__":
    main()
