"""``manage.py migrate``, as the tables' owner (DATABASE_OWNER_URL, when the app's role
is another: :mod:`moderation.db_role`)."""

from __future__ import annotations

from typing import Any

from django.core.management.commands import migrate

from moderation.db_role import owner_connection


class Command(migrate.Command):
    def handle(self, *args: Any, **options: Any) -> None:
        with owner_connection(options["database"]):
            super().handle(*args, **options)
