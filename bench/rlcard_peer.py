"""RLCard's mahjong environment with random agents, measured in this process: the peer for hand throughput.

Shared by the mahjong-like games' benchmarks (滑水麻将, 偎麻雀) so every ratio is against the same loop::

    from rlcard_peer import rlcard_mahjong_hands_per_second
    rate = rlcard_mahjong_hands_per_second(10.0)
"""

from __future__ import annotations

import time
from collections.abc import Callable


class PeerMissing(RuntimeError):
    """RLCard is not installed: ``pip install rlcard`` (the project's ``bench`` extra)."""


class RLCardMahjong:
    """One RLCard ``mahjong`` env with four ``RandomAgent``s, kept between runs so runs can be interleaved
    with another engine's (a busy moment on a shared machine then slows both alike)."""

    def __init__(self, seed: int = 0) -> None:
        try:
            import rlcard
            from rlcard.agents import RandomAgent
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise PeerMissing("rlcard is not installed: .venv/bin/pip install rlcard") from e
        self.env = rlcard.make("mahjong", config={"seed": seed})
        self.agents = [RandomAgent(num_actions=self.env.num_actions) for _ in range(self.env.num_players)]
        self.env.set_agents(self.agents)

    def run(self, seconds: float, clock: Callable[[], float] = time.perf_counter) -> tuple[int, float]:
        """Play whole hands for about ``seconds`` of ``clock``: (hands, elapsed seconds).

        The loop RLCard's docs use (reset, then step the acting player's agent until the hand is over),
        without ``env.run``'s trajectory bookkeeping, so RLCard is measured at its fastest.  Pass
        ``time.process_time`` to count CPU time only (steadier on a busy shared machine)."""
        env, agents = self.env, self.agents
        hands = 0
        start = clock()
        while True:
            state, player = env.reset()
            while not env.is_over():
                state, player = env.step(agents[player].step(state))
            hands += 1
            elapsed = clock() - start
            if elapsed >= seconds:
                return hands, elapsed


def rlcard_mahjong_hands_per_second(seconds: float = 10.0) -> float:
    """Complete hands per second of RLCard's ``mahjong`` env with four random agents, in this process.

    Raises ``PeerMissing`` (with the install command) when rlcard is not importable."""
    hands, elapsed = RLCardMahjong().run(seconds)
    return hands / elapsed


if __name__ == "__main__":
    try:
        print(f"RLCard mahjong, random agents: {rlcard_mahjong_hands_per_second(5.0):.1f} hands/s")
    except PeerMissing as e:
        print(f"skipped: {e}")
