"""The demo accounts `make run` creates, so a fresh checkout can be tried at once.

Kept free of Django imports: the launcher prints them before Django is set up.
"""

from typing import NamedTuple


class DemoAccount(NamedTuple):
    username: str
    display_name: str
    password: str
    groups: tuple[str, ...] = ()
    """Django groups the account is put in when created (the site moderators' group)."""


DEMO_ACCOUNTS = (
    DemoAccount("alice", "Alice", "alice-plays-tiles"),
    DemoAccount("bob", "Bob", "bob-plays-tiles"),
    DemoAccount("carol", "Carol", "carol-plays-tiles"),
    # A site moderator, to try the moderation queue (moderation.models.SITE_MODERATORS).
    DemoAccount("maud", "Maud", "maud-moderates-tiles", groups=("Site moderators",)),
)
