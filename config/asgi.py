"""ASGI entry point served by daphne: HTTP goes to Django, websockets to Channels consumers."""

import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# One process serves every page and socket from threads: share a connection pool
# (PostgreSQL only; see DATABASES in config.settings). DATABASE_POOL=false turns it off.
os.environ.setdefault("DATABASE_POOL", "true")
# The event loop, the views' threads, the socket renders and the push sender share one
# interpreter lock. A thread woken by I/O waits until the running one yields it, by
# default after 5 ms: each hop of a push or a move could cost that much.
sys.setswitchinterval(0.001)

# Django must be set up before anything imports models (consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.middleware import NoSolverASGI  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402

# Nothing daphne serves runs the solver (its tasks do, on the "solver" queue's workers).
application = NoSolverASGI(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            # A socket opened from another site's page is refused: its Origin must be one of
            # ALLOWED_HOSTS, because the session cookie would otherwise authenticate it.
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)
