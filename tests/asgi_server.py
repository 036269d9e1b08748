"""A live server for the tests that serves the ASGI application through uvicorn, as production
does (gunicorn's uvicorn workers): the encounter's server push needs it, since under WSGI a
stream never reaches the browser (encounters.views.events answers 204).

uvicorn runs in a thread of the test process on a port the system picks, with the static files
served from the finders (as pytest-django's WSGI live server does). An in-memory SQLite test
database is shared with the server the way Django's LiveServerThread shares it: the test's own
connection, lent to every request by a middleware that runs in the request's sync thread
(``LendConnections``). PostgreSQL needs nothing: the server opens its own connections to the
test database.
"""

from __future__ import annotations

import socket
import threading
import time

from django.conf import settings
from django.db import connections
from django.test.utils import modify_settings, override_settings

HOST = "127.0.0.1"
START_TIMEOUT_S = 15


def _shared_in_memory_connections() -> dict:
    shared = {}
    for conn in connections.all():
        if conn.vendor == "sqlite" and conn.is_in_memory_db():
            conn.inc_thread_sharing()
            shared[conn.alias] = conn
    return shared


_LENT: dict = {}


class LendConnections:
    """Django middleware, first in the chain of the server's handler only: the request's sync
    thread (a new one per request under ASGI) uses the test's in-memory SQLite connections.
    Database connections are thread-critical locals, so this must run in that thread."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        for alias, conn in _LENT.items():
            connections[alias] = conn
        return self.get_response(request)


class AsgiLiveServer:
    """``url`` ("http://127.0.0.1:<port>"), ``stop()``. ``_live_server_modified_settings`` is
    the name pytest-django's ``_live_server_helper`` enables around each test that asks for a
    fixture called ``live_server`` (the host allowed): this server stands in for that fixture."""

    def __init__(self) -> None:
        import uvicorn
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
        from django.core.asgi import get_asgi_application

        self._shared = _shared_in_memory_connections()
        _LENT.update(self._shared)
        # The handler builds its middleware chain once, here: the lender goes first in it.
        with override_settings(MIDDLEWARE=[f"{__name__}.LendConnections", *settings.MIDDLEWARE]):
            app = ASGIStaticFilesHandler(get_asgi_application())
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind((HOST, 0))
        port = self._socket.getsockname()[1]
        self.url = f"http://{HOST}:{port}"
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": HOST})
        config = uvicorn.Config(app, log_level="warning", lifespan="off",
                                timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run,
                                        kwargs={"sockets": [self._socket]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the ASGI live server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._socket.close()
        for conn in self._shared.values():
            conn.dec_thread_sharing()
        _LENT.clear()

    def __str__(self) -> str:
        return self.url
