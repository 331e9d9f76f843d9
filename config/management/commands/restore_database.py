"""``manage.py restore_database FILE [--into NAME]``: load a backup of
``backup_database`` into an empty database, as the tables' owner, give the app's role
its rights there, and check the moderation log's chain (:mod:`config.backup`).

The database is DATABASE_URL's (made afresh and empty, owned by the owner), or NAME on
the same server: a restore drill loads last night's backup beside the site's database
and checks it, while the site runs on."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections

from config import backup
from moderation.db_role import app_role
from moderation.selectors.log_chain import verify


class Command(BaseCommand):
    help = "Restore a backup into an empty database (as the owner) and check the log's chain."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="A backup made by backup_database.")
        parser.add_argument(
            "--into",
            metavar="NAME",
            help="Another database on the same server (default: DATABASE_URL's).",
        )
        parser.add_argument(
            "--app-role",
            metavar="ROLE",
            help="The app's role to grant its rights (default: DATABASE_URL's user, when "
            "DATABASE_OWNER_URL names another; with one role, nothing to grant).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["into"] or connections[DEFAULT_DB_ALIAS].settings_dict["NAME"]
        role = options["app_role"] or app_role()
        with backup.database(name) as connection:
            try:
                backup.restore(options["file"], connection)
            except backup.BackupError as error:
                raise CommandError(str(error)) from None
            if role:
                call_command("grant_app_role", role, stdout=io.StringIO())
            state = verify()
        if not state.intact:
            raise CommandError(f"Restored into {name}, but {state.sentence()}", returncode=1)
        granted = f"; {role} granted the app's rights" if role else ""
        self.stdout.write(f"Restored {options['file']} into {name}{granted}.")
        self.stdout.write(state.sentence())
        if state.head:
            self.stdout.write(f"Head digest: {state.head}")
