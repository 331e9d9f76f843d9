"""``manage.py grant_app_role [ROLE]``: run as the tables' owner after ``migrate``, give the
app's database role what it needs (:mod:`moderation.db_role`): every table to read and
write, the moderation log only to read and append to. ROLE is by default DATABASE_URL's
user, when DATABASE_OWNER_URL names another; the command connects as that owner."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from moderation.db_role import app_role, grants, owner_connection


class Command(BaseCommand):
    help = "Grant the app's (non-owner) database role what it needs, the log append-only."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "role",
            nargs="?",
            help="The app's role, which exists already (default: DATABASE_URL's user, "
            "when DATABASE_OWNER_URL names another).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        role = options["role"] or app_role()
        if role is None:
            raise CommandError(
                "Name the app's role, or set DATABASE_OWNER_URL to the owner and "
                "DATABASE_URL to the app's role."
            )
        with owner_connection() as connection:
            try:
                statements = grants(role)
            except ValueError as error:
                raise CommandError(str(error)) from None
            with transaction.atomic(), connection.cursor() as cursor:
                for statement in statements:
                    cursor.execute(statement)
        self.stdout.write(f"Granted {role} the app's rights ({len(statements)} steps).")
