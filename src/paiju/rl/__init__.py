"""Reinforcement-learning environments for paiju's four games (the ``rl`` extra: numpy, gymnasium, pettingzoo).

``aec_env(game, **options)`` is a PettingZoo AEC environment with every playing seat an agent;
``gym_env(game, seat, opponents, **options)`` a Gymnasium environment for one seat against paiju's bots.
Observations come from the seat's view alone.  docs/rl.md has the action maps and observation layouts.
"""

from .aec import PaijuAEC, aec_env
from .core import Decision, Spec, make_spec
from .gym import PaijuGym, gym_env

__all__ = ["Decision", "PaijuAEC", "PaijuGym", "Spec", "aec_env", "gym_env", "make_spec"]


def _register() -> None:
    """``gymnasium.make("paiju/huashui-v0", seat=0, opponents="best", hands=4)`` for every game."""
    from gymnasium.envs.registration import register, registry

    from .core import GAMES

    for game in GAMES:
        env_id = f"paiju/{game}-v0"
        if env_id not in registry:
            register(id=env_id, entry_point="paiju.rl.gym:PaijuGym", kwargs={"game": game})


_register()
