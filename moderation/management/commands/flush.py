"""``manage.py flush`` (and the tests' flush after a transactional test), as the tables'
owner: the app's role may not TRUNCATE (:mod:`moderation.db_role`)."""

from __future__ import annotations

from typing import Any

from django.core.management.commands import flush

from moderation.db_role import owner_connection


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        with owner_connection(options["database"]):
            super().handle(**options)
