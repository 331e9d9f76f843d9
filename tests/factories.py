import factory
from factory.django import DjangoModelFactory, Password

from accounts.models import User
from engine.ruleset import Ruleset
from games.models import Seat, Table

PASSWORD = "tiles-and-racks-42"


class UserFactory(DjangoModelFactory[User]):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    display_name = factory.LazyAttribute(lambda user: user.username.title())
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = Password(PASSWORD)


class TableFactory(DjangoModelFactory[Table]):
    """An open table of the standard rules; its seats come from SeatFactory."""

    class Meta:
        model = Table

    creator = factory.SubFactory(UserFactory)
    ruleset = factory.LazyAttribute(lambda table: Ruleset(players=table.players).to_dict())
    turn_seconds = 60
    games_in_round = factory.SelfAttribute("players")

    class Params:
        players = 2


class SeatFactory(DjangoModelFactory[Seat]):
    """An open seat; pass kind and user (or bot_level) for another kind."""

    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    number = factory.Sequence(lambda n: n % 4)
