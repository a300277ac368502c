"""HTTP for accounts and sessions: register, log in and out, change the password, delete the account.

docs/protocol.md ("Players") describes every call; accounts.py holds the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import ErrorCode, RoomError
from ..people.accounts import Accounts, SessionStore, Throttled
from ..people.auth import COOKIE, token_of
from ..room.room import Room
from .handlers import address_of, api, body_of, current_player, limits_of, require_player, room_of, session_response


def accounts_of(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def store_of(request: Request) -> SessionStore:
    store: SessionStore = request.app.state.sessions
    return store


def forgetter(room: Room) -> Callable[[str], None]:
    """Drop a player from the room's cache after its nickname changed in the database."""

    def forget(player_id: str) -> None:
        room._players.pop(player_id, None)  # the Room caches players by id; the next read reloads

    return forget


def throttled(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
    """A 429 carries ``Retry-After``."""

    async def wrapped(request: Request) -> Response:
        try:
            response: Response = await handler(request)
            return response
        except Throttled as e:
            return JSONResponse({"error": e.to_dict()}, status_code=429,
                                headers={"Retry-After": str(e.retry_after)})

    wrapped.__name__ = handler.__name__
    return wrapped


async def _replace_session(request: Request) -> None:
    """The session this request came with (a guest's, or any before a login) ends now that its person holds
    a new token: a token someone else planted or saw can no longer name the account (session fixation).
    Sockets it opened are closed with 4409 and come back with the new token (http.socket)."""
    old = token_of(request)
    if old and await store_of(request).player_id(old) is not None:
        await store_of(request).revoke(old, replaced=True)


@api
@throttled
async def register(request: Request) -> Response:
    data = await body_of(request)
    guest = await current_player(request)
    accounts = accounts_of(request)
    await limits_of(request).new_session(address_of(request))
    token, player = await accounts.register(data, guest)
    await _replace_session(request)
    return session_response(request, token, player, await accounts.account_of(player.id), status=201)


@api
@throttled
async def login(request: Request) -> Response:
    data = await body_of(request)
    accounts = accounts_of(request)
    token, player = await accounts.login(data, address_of(request))
    moderation = request.app.state.moderation
    if await moderation.banned_now(player.id):  # the password was right: say so, keep nothing
        await store_of(request).revoke(token)
        raise RoomError(ErrorCode.BANNED, "a host has banned this account", 403, zh="这个账号已被管理员封禁")
    await _replace_session(request)
    return session_response(request, token, player, await accounts.account_of(player.id))


def _logged_out() -> JSONResponse:
    response = JSONResponse({"ok": True})
    response.delete_cookie(COOKIE)
    return response


@api
async def logout(request: Request) -> Response:
    token = token_of(request)
    if token and await store_of(request).player_id(token) is not None:
        await store_of(request).revoke(token)
    return _logged_out()


@api
async def logout_all(request: Request) -> Response:
    player = await require_player(request)
    await store_of(request).revoke_all(player.id)
    return _logged_out()


@api
@throttled
async def change_password(request: Request) -> Response:
    player = await require_player(request)
    data = await body_of(request)
    await accounts_of(request).change_password(player, data, token_of(request), address_of(request))
    return JSONResponse({"ok": True})


@api
@throttled
async def delete_account(request: Request) -> Response:
    player = await require_player(request)
    data = await body_of(request)
    busy = [t.id for t in room_of(request).tables.values()
            if t.status != "finished" and t.seat_of(player) is not None]
    if busy:
        raise RoomError(ErrorCode.AT_TABLE, f"leave your tables first: {', '.join(busy)}", 409,
                        zh=f"请先离开你的牌桌：{'、'.join(busy)}")
    await accounts_of(request).delete(player, data, address_of(request))
    return _logged_out()


ROUTES = [
    Route("/api/accounts", register, methods=["POST"]),
    Route("/api/login", login, methods=["POST"]),
    Route("/api/logout", logout, methods=["POST"]),
    Route("/api/logout-all", logout_all, methods=["POST"]),
    Route("/api/account/password", change_password, methods=["POST"]),
    Route("/api/account", delete_account, methods=["DELETE"]),
]
