from typing import Any

import factory
from django.utils import timezone
from django.utils.text import slugify
from factory.django import DjangoModelFactory, Password

from accounts.models import User
from engine.ruleset import Ruleset
from games.models import Seat, Table
from games.models.table_settings import TableSettings
from leagues.models import Club, League, Membership, Role, Season
from moderation.models import Case, Category, Ruling

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


class ClubFactory(DjangoModelFactory[Club]):
    """A public club written straight to the models (``clubs.create_club`` is the way a
    member makes one); ``owner=user`` gives it its owner."""

    class Meta:
        model = Club
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.LazyAttribute(lambda club: slugify(club.name))

    @factory.post_generation
    def owner(club: Club, create: bool, user: User | None, **kwargs: Any) -> None:
        if create and user is not None:
            Membership.objects.create(club=club, user=user, role=Role.OWNER)


class LeagueFactory(DjangoModelFactory[League]):
    """A league of 2-seat correspondence fixtures (pass ``table_settings`` for others)."""

    class Meta:
        model = League

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.LazyAttribute(lambda league: slugify(league.name))
    table_settings = factory.LazyFunction(
        lambda: TableSettings(clock=Table.Clock.CORRESPONDENCE).to_dict()
    )


class SeasonFactory(DjangoModelFactory[Season]):
    """Season 1 of ``league``, taking registrations, with the league's house rules copied
    as opening a season copies them; keywords given (``status``, ``division_size``, ...)
    win over them."""

    class Meta:
        model = Season

    league = factory.SubFactory(LeagueFactory)
    number = 1

    @classmethod
    def _create(cls, model_class: type[Season], *args: Any, **kwargs: Any) -> Season:
        rules = kwargs["league"].house_rules()
        return super()._create(model_class, *args, **{**rules, **kwargs})


class CaseFactory(DjangoModelFactory[Case]):
    """A case of ``game`` (always given), opened now; its reports are written apart
    (``tests.moderation.conftest.open_case`` writes the first one)."""

    class Meta:
        model = Case

    category = Category.OTHER
    opened_at = factory.LazyFunction(timezone.now)


class RulingFactory(DjangoModelFactory[Ruling]):
    """A ruling in ``case`` by ``by`` (both always given), applied now, written straight
    to the models: none of its effects is made (the rulings service makes them)."""

    class Meta:
        model = Ruling

    kind = Ruling.Kind.DISMISS
    status = Ruling.Status.APPLIED
    note = "Nothing to change."
    created_at = factory.LazyFunction(timezone.now)
    applied_at = factory.SelfAttribute("created_at")
