from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from accounts.demo import DEMO_ACCOUNTS
from accounts.models import User


class Command(BaseCommand):
    help = (
        "Create the demo accounts (alice, bob, carol; maud, a site moderator) that do not "
        "exist yet. An existing account of that name is never changed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Also run when DEBUG is off (the passwords are public: never on a real site).",
        )
        parser.add_argument(
            "--if-embedded",
            action="store_true",
            help="Only on the embedded PostgreSQL that `make run` starts (DATABASE_EMBEDDED "
            "is set): elsewhere do nothing (`make run` passes this).",
        )

    @transaction.atomic
    def handle(
        self, *args: Any, force: bool = False, if_embedded: bool = False, **options: Any
    ) -> None:
        if if_embedded and not settings.DATABASE_EMBEDDED:
            self.stdout.write(
                "Not the embedded database: no demo accounts (run seed_demo to add them)."
            )
            return
        if not settings.DEBUG and not force:
            self.stderr.write("DEBUG is off: no demo accounts, their passwords are public.")
            return
        for account in DEMO_ACCOUNTS:
            # Only created, never updated: an account of that name may be someone's own,
            # or a demo account whose member chose a password of their own.
            user, created = User.objects.get_or_create(
                username=account.username,
                defaults={
                    "display_name": account.display_name,
                    "email": f"{account.username}@example.com",
                    "password": make_password(account.password),
                },
            )
            if created:
                for name in account.groups:
                    user.groups.add(Group.objects.get_or_create(name=name)[0])
                self.stdout.write(f"{account.username:8} {account.password:20} (created)")
            else:
                self.stdout.write(f"{account.username:8} (exists: left as it is)")
