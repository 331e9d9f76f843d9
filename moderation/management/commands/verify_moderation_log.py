"""``manage.py verify_moderation_log``: check the moderation log's hash chain.

Prints the chain's state and its head digest (keep it elsewhere: a later run that
prints a different head for the same number of entries means the chain was rewritten);
exits with status 1 and names the first entry that does not fit when it is broken.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from moderation.selectors.log_chain import verify


class Command(BaseCommand):
    help = "Check the moderation log's hash chain and name the first broken entry."

    def handle(self, *args: Any, **options: Any) -> None:
        state = verify()
        if not state.intact:
            raise CommandError(state.sentence(), returncode=1)
        self.stdout.write(state.sentence())
        if state.head:
            self.stdout.write(f"Head digest: {state.head}")
