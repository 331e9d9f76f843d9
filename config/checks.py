"""System checks of the project's own settings."""

from typing import Any

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.database)
def database_url(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """No DATABASE_URL, no database: said when ``migrate`` (or ``check --database``)
    starts, before the dummy backend that stands in for it refuses the first query. A
    warning, not an error: makemigrations runs these checks too, and needs no database."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.dummy":
        return []
    return [checks.Warning(settings.DATABASE_URL_MISSING, id="config.W001")]
