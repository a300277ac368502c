"""The card room over HTTP and websockets: the app, its routes, the socket, and what every request passes.

Owns: ``app.py`` (``create_app``: the lifespan that wires the room, the ledger's hooks, the cluster and the
routes), the route modules, ``socket.py`` (one websocket per client per table), ``handlers.py`` (what every
handler shares) and ``guard.py`` (body cap, origin, headers, a JSON 503).
May import every layer below it: ``lobby``, ``room``, ``people``, ``scores``, ``cluster``, ``storage``, the
base modules and the game core.  Nothing below imports it.
"""
