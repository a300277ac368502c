"""paiju (牌局): Chinese regional card and tile games — rules, bots and an online card room."""

__version__ = "0.1.0"
