"""Bots: ordinary participants that see only their own seat's view and its legal actions."""

from .base import Bot, RandomBot, bot_names, get_bot, play_out, play_random

__all__ = ["Bot", "RandomBot", "bot_names", "get_bot", "play_out", "play_random"]
