from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from accounts.demo import DEMO_ACCOUNTS
from accounts.models import User


class Command(BaseCommand):
    help = "Create the demo accounts (alice, bob, carol) or reset their passwords."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Also run when DEBUG is off (the passwords are public: never on a real site).",
        )

    @transaction.atomic
    def handle(self, *args: Any, force: bool = False, **options: Any) -> None:
        if not settings.DEBUG and not force:
            self.stderr.write("DEBUG is off: no demo accounts, their passwords are public.")
            return
        for account in DEMO_ACCOUNTS:
            user, created = User.objects.get_or_create(
                username=account.username,
                defaults={
                    "display_name": account.display_name,
                    "email": f"{account.username}@example.com",
                },
            )
            # Reset the password every time, so the one printed at start-up always works.
            user.set_password(account.password)
            user.save(update_fields=["password"])
            verb = "created" if created else "ready"
            self.stdout.write(f"{account.username:8} {account.password:20} ({verb})")
