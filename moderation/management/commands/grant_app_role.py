"""``manage.py grant_app_role ROLE``: run as the tables' owner after ``migrate``, give the
app's database role what it needs (:mod:`moderation.db_role`): every table to read and
write, the moderation log only to read and append to."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

from moderation.db_role import grants


class Command(BaseCommand):
    help = "Grant the app's (non-owner) database role what it needs, the log append-only."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", help="The app's role, which exists already.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            statements = grants(options["role"])
        except ValueError as error:
            raise CommandError(str(error)) from None
        with transaction.atomic(), connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
        self.stdout.write(f"Granted {options['role']} the app's rights ({len(statements)} steps).")
