"""``manage.py backup_database FILE``: a backup of the site's database, as the tables'
owner (:mod:`config.backup`); FILE is written in pg_dump's custom format."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from config import backup
from moderation.selectors.log_chain import verify


class Command(BaseCommand):
    help = "Back up the site's database (pg_dump, as the owner) into FILE."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="Where to write the backup.")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            backup.dump(path)
        except backup.BackupError as error:
            raise CommandError(str(error)) from None
        # What the log's chain was when the backup was taken: a restore says the same.
        state = verify()
        self.stdout.write(f"Backed up to {path} ({path.stat().st_size:,} bytes).")
        self.stdout.write(state.sentence())
        if state.head:
            self.stdout.write(f"Head digest: {state.head}")
