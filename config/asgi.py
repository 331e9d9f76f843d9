"""ASGI entry point served by daphne: HTTP goes to Django, websockets to Channels consumers."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# One process serves every page and socket from threads: share a connection pool
# (PostgreSQL only; see DATABASES in config.settings). DATABASE_POOL=false turns it off.
os.environ.setdefault("DATABASE_POOL", "true")

# Django must be set up before anything imports models (consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # A socket opened from another site's page is refused: its Origin must be one of
        # ALLOWED_HOSTS, because the session cookie would otherwise authenticate it.
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
