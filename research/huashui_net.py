"""Does a bigger model on much more data read which tile a ready 滑水 seat waits on (issue 16)?

    .venv/bin/python research/huashui_read.py collect --games 800 --seed 100000 -o /tmp/read_train.pkl
    .venv/bin/python research/huashui_read.py collect --games 200 --seed 10000 -o /tmp/read_test.pkl
    .venv/bin/python research/huashui_read.py collect --games 4000 --seed 200000 -o /tmp/read_4000.pkl   # 4.5 min
    .venv/bin/python research/huashui_read.py collect --games 8000 --seed 300000 -o /tmp/read_8000.pkl   # 9 min
    .venv/bin/python research/huashui_net.py fit /tmp/read_train.pkl,/tmp/read_4000.pkl,/tmp/read_8000.pkl \\
        /tmp/read_test.pkl --epochs 1 -o /tmp/net.pt
    .venv/bin/python research/huashui_net.py play /tmp/net.pt --deals 600 [--first 20000]   # 9 min

The per-tile logistic and the trees of ``huashui_read.py`` see each (opponent, tile) pair on its own.  This
network sees an opponent's whole table at once: per kind, what the reader can see of it (its unseen copies,
the reader's own copies, the opponent's river and melds, the other seats' rivers, whether it was thrown
since the opponent's k-th last discard), plus the seat's turns, melds and the wall.  Convolutions along
each suit's nine ranks read run shapes, a max over the 34 kinds lets every kind's score depend on the
others (a ready hand waits on one or two places), and two heads give P(ready) and, per kind, P(wait | ready)
(trained on ready seats only).  ``fit`` prints the AUCs of ``huashui_read.py fit`` after every epoch
(which tile a ready seat waits on: on the reader's held kinds, as the trade uses it); ``play`` puts the read
into the efficient bot's trade (``danger_scale`` 2) on the study's deals, paired against no defence, as
``fit_huashui_defence.py --ceiling`` does for the oracles.

PyTorch is not a dependency of paiju (``pip install torch``; a CPU build is enough).  The network stays in
research/: the bot's core needs nothing beyond the standard library, and this read is not worth shipping
(docs/bots/huashui.md, "A network on sixteen times the data").
"""

from __future__ import annotations

import argparse
import pickle
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from fit_huashui_defence import ORACLES, OracleBot, ceiling
from huashui_read import auc
from torch import nn

from paiju.core.game import View
from paiju.games.huashui import defence
from paiju.games.huashui.bots import Hand
from paiju.games.huashui.tiles import NUM_KINDS

TILE_OF = defence.TILE_OF
SINCE = (0, 1, 2, 3, 5)
"""Which ``since_sets`` depths become channels: thrown by the others since the seat's k-th last discard."""
CHANNELS = ("unseen 0", "unseen 1", "unseen 2", "unseen 3", "unseen 4", "the reader's copies/4",
            "in its river (copies/2)", "its last discard", "in its last 2", "in its last 3", "in its last 6",
            "1/(1 + discards since it last threw it)", "it threw it", "where it first threw it (share of river)",
            *(f"thrown by the others since its discard {k + 1} back" for k in SINCE),
            "its meld", "another seat's meld", "its river's first third", "second third", "last third",
            "the others' rivers (copies/4)", "the reader holds it")
GLOBALS = ("wall/83", "its discards/20", "no meld", "one meld", "two melds", "three+ melds", "it deals",
           "the reader plays 1 after it", "2 after", "3 after", "all discards/60", "its turns/10")


def encode(view: View) -> tuple[np.ndarray, np.ndarray]:
    """Per opponent in seat order (the reader left out): its (channel, kind) picture and its globals."""
    me = view["viewer"]
    hand = Hand(view)
    base = np.zeros((len(CHANNELS), NUM_KINDS), dtype=np.float32)
    for k in range(NUM_KINDS):
        base[min(hand.unseen[k], 4), k] = 1.0
        base[5, k] = hand.counts[k] / 4.0
        base[len(CHANNELS) - 1, k] = float(hand.counts[k] > 0)
    melds = [[TILE_OF[m["tile"]] for m in view["melds"][s]] for s in range(4)]
    rivers = [[TILE_OF[x] for x in view["discards"][s]] for s in range(4)]
    total = sum(len(r) for r in rivers)
    pics, globs = [], []
    for o in range(4):
        if o == me:
            continue
        x = base.copy()
        river = rivers[o]
        n = len(river)
        for i, k in enumerate(river):
            back = n - 1 - i
            x[6, k] += 0.5
            for c, last in ((7, 1), (8, 2), (9, 3), (10, 6)):
                if back < last:
                    x[c, k] = 1.0
            x[11, k] = max(x[11, k], 1.0 / (1 + back))
            if not x[12, k]:
                x[12, k], x[13, k] = 1.0, i / n
            x[21 + min(2, 3 * i // n), k] += 1.0
        since = defence.since_sets(view, me, o, depth=max(SINCE) + 1)
        for c, depth in enumerate(SINCE):
            for k in since[depth]:
                x[14 + c, k] = 1.0
        for s in range(4):
            for k in melds[s]:
                x[19 if s == o else 20, k] = 1.0
            if s != o:
                for k in rivers[s]:
                    x[24, k] += 0.25
        g = np.zeros(len(GLOBALS), dtype=np.float32)
        nm = len(melds[o])
        g[0], g[1], g[2 + min(nm, 3)] = view["wall"] / 83.0, n / 20.0, 1.0
        g[6] = float(o == view["dealer"])
        g[6 + (me - o) % 4] = 1.0
        g[10], g[11] = total / 60.0, (n + nm) / 10.0
        pics.append(x)
        globs.append(g)
    return np.stack(pics), np.stack(globs)


def encode_rows(rows: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``huashui_read.py collect``'s rows as arrays: pictures, globals, true waits per kind, ready, held kinds."""
    xs, gs, ys, rs, hs = [], [], [], [], []
    for view, w in rows:
        x, g = encode(view)
        xs.append(x)
        gs.append(g)
        held = x[:, len(CHANNELS) - 1]
        for i, o in enumerate(o for o in range(4) if o != view["viewer"]):
            y = np.zeros(NUM_KINDS, dtype=np.float32)
            y[list(w[o])] = 1.0
            ys.append(y)
            rs.append(float(bool(w[o])))
            hs.append(held[i] > 0)
    return np.concatenate(xs), np.concatenate(gs), np.stack(ys), np.array(rs, dtype=np.float32), np.stack(hs)


class Net(nn.Module):
    """Per kind a 1×1 layer, two convolutions along each suit (honours: 1×1), a max over the kinds fed back
    to every kind, then P(wait | ready) per kind; P(ready) from the max and the globals."""

    def __init__(self, width: int = 64) -> None:
        super().__init__()
        c, g = len(CHANNELS), len(GLOBALS)
        self.width = width
        self.inp = nn.Conv1d(c + g, width, 1)
        self.suit1 = nn.Conv1d(width, width, 5, padding=2)
        self.suit2 = nn.Conv1d(width, width, 3, padding=1)
        self.hon1 = nn.Conv1d(width, width, 1)
        self.hon2 = nn.Conv1d(width, width, 1)
        self.mix = nn.Conv1d(2 * width, width, 1)
        self.wait = nn.Conv1d(width, 1, 1)
        self.ready = nn.Sequential(nn.Linear(width + g, width), nn.ReLU(), nn.Linear(width, 1))

    def forward(self, x: torch.Tensor, g: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        b, h = x.shape[0], self.width
        z = torch.relu(self.inp(torch.cat([x, g[:, :, None].expand(-1, -1, NUM_KINDS)], 1)))
        s = z[:, :, :27].reshape(b, h, 3, 9).permute(0, 2, 1, 3).reshape(b * 3, h, 9)
        s = torch.relu(self.suit1(s))
        s = torch.relu(self.suit2(s)) + s
        s = s.reshape(b, 3, h, 9).permute(0, 2, 1, 3).reshape(b, h, 27)
        o = torch.relu(self.hon1(z[:, :, 27:]))
        o = torch.relu(self.hon2(o)) + o
        z = torch.cat([s, o], 2)
        pooled = z.max(2).values
        z = torch.relu(self.mix(torch.cat([z, pooled[:, :, None].expand(-1, -1, NUM_KINDS)], 1)))
        return self.wait(z)[:, 0], self.ready(torch.cat([pooled, g], 1))[:, 0]


def _load(paths: Sequence[str]) -> list[torch.Tensor]:
    parts = []
    for path in paths:
        start = time.process_time()
        with open(path, "rb") as f:
            rows = pickle.load(f)
        parts.append(encode_rows(rows))
        print(f"{path}: {len(rows)} decisions, encoded in {time.process_time() - start:.0f} s CPU", flush=True)
    return [torch.from_numpy(np.concatenate([p[i] for p in parts])) for i in range(5)]


def _predict(net: Net, x: torch.Tensor, g: torch.Tensor) -> tuple[np.ndarray, np.ndarray]:
    net.eval()
    with torch.no_grad():
        out = [net(x[i:i + 4096], g[i:i + 4096]) for i in range(0, len(x), 4096)]
    return (torch.sigmoid(torch.cat([w for w, _ in out])).numpy(),
            torch.sigmoid(torch.cat([r for _, r in out])).numpy())


def fit(train: Sequence[str], test: str, epochs: int, out: str, seed: int = 0) -> None:
    torch.manual_seed(seed)
    x, g, y, r, _ = _load(train)
    x2, g2, y2, r2, h2 = _load([test])
    print(f"train: {len(r)} (decision, opponent) rows, {int(r.sum())} ready; test: {len(r2)}", flush=True)
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    bce = nn.BCEWithLogitsLoss(reduction="none")
    ready2, held2, truth2 = r2.numpy() > 0.5, h2.numpy(), y2.numpy()
    among = held2 & ready2[:, None]
    for epoch in range(epochs):
        start = time.process_time()
        net.train()
        order = torch.randperm(len(r))
        for i in range(0, len(r), 512):
            j = order[i:i + 512]
            wl, rl = net(x[j], g[j])
            which = (bce(wl, y[j]).mean(1) * r[j]).sum() / r[j].sum().clamp(min=1.0)
            loss = which + 0.3 * bce(rl, r[j]).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        pw, pr = _predict(net, x2, g2)
        print(f"epoch {epoch + 1}: AUC ready {auc(pr, r2.numpy()):.3f}; wait among ready seats "
              f"{auc(pw[among], truth2[among]):.3f}; (opponent, tile) product "
              f"{auc((pw * pr[:, None])[held2], truth2[held2]):.3f} ({time.process_time() - start:.0f} s CPU)",
              flush=True)
    torch.save(net.state_dict(), out)
    print(f"-> {out}")


class NetBot(OracleBot):
    """The efficient bot whose trade reads the network: P(ready) × P(wait | ready), from its own view only."""

    net: Net | None = None

    def _deal_in(self, view: View, me: int, kinds: list[int], unseen: list[int]) -> list[list[float]]:
        assert self.net is not None
        x, g = encode(view)
        with torch.no_grad():
            wl, rl = self.net(torch.from_numpy(x), torch.from_numpy(g))
        w, r = torch.sigmoid(wl).numpy(), torch.sigmoid(rl).numpy()
        out = [[0.0] * NUM_KINDS for _ in range(4)]
        for i, o in enumerate(o for o in range(4) if o != me):
            for t in kinds:
                out[o][t] = float(r[i] * w[i, t])
        return out


def play(model: str, deals: int, danger_scale: float, first: int = 0) -> None:
    torch.set_num_threads(1)
    net = Net()
    net.load_state_dict(torch.load(model))
    net.eval()
    NetBot.net = net
    ORACLES["net"] = NetBot
    ceiling(deals, [("model", {"defence": False}), ("net", {"defence": True, "danger_scale": danger_scale})],
            first)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fit")
    f.add_argument("train", help="comma-separated files of huashui_read.py collect")
    f.add_argument("test")
    f.add_argument("--epochs", type=int, default=1)
    f.add_argument("--threads", type=int, default=1)
    f.add_argument("-o", "--out", required=True)
    p = sub.add_parser("play")
    p.add_argument("model")
    p.add_argument("--deals", type=int, default=600)
    p.add_argument("--danger-scale", type=float, default=2.0)
    p.add_argument("--first", type=int, default=0, help="the first deal (20000 for the fresh deals)")
    args = ap.parse_args()
    if args.cmd == "fit":
        torch.set_num_threads(args.threads)
        fit(args.train.split(","), args.test, args.epochs, args.out)
    else:
        play(args.model, args.deals, args.danger_scale, args.first)


if __name__ == "__main__":
    main()
