"""The card room: ``paiju serve`` — lobby, tables, bots and persistence over HTTP and websockets."""

from .http.app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
