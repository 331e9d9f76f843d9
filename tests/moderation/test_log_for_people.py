"""The moderation log written for people: a ruling's changes read as sentences with
names, a superseding names both rulings in words, previews take no ruling numbers, and
one filter asks for everything about a member (their cases, the rulings naming them,
what they did)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from games.models import Game
from leagues.models import Fixture
from moderation.models import Case, Category, LogEntry, Ruling
from moderation.services.previews import preview
from moderation.services.rulings import rule
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.moderation.conftest import open_case
from tests.moderation.test_rulings import claimed

pytestmark = pytest.mark.django_db
URL = reverse("moderation:log")


@pytest.fixture
def case(casual_game: Game, alice: User, bob: User, site_moderator: User) -> Case:
    return claimed(open_case(casual_game, alice, Category.ABUSE, accused=bob), site_moderator)


def test_a_superseded_suspension_reads_as_sentences_with_names(
    case: Case, bob: User, site_moderator: User
) -> None:
    suspended = rule(
        case.pk,
        site_moderator,
        Ruling.Kind.SUSPEND,
        "Insults.",
        details={"scope": "site", "days": 2},
        target=bob,
    )
    rule(case.pk, site_moderator, Ruling.Kind.DISMISS, "Too harsh.", supersedes_id=suspended.pk)
    superseded = LogEntry.objects.get(action=LogEntry.Action.SUPERSEDED)
    assert superseded.summary == (
        f"Superseded the ruling “Suspend a member (Bob)” of case {case.pk} with a new "
        "ruling: “Dismiss”."
    )
    html = client_as(site_moderator).get(URL).content.decode()
    assert "Bob was suspended from the whole site until" in html
    assert "Bob&#x27;s suspension was lifted." in html
    for raw in ("lifted: [", "suspended: [", "restore_move", "ruling: ", "kind: ", "undone: "):
        assert f"<li>{raw}" not in html, raw
    assert f'href="{reverse("moderation:ruling", args=[suspended.pk])}"' in html


def test_previews_take_no_ruling_numbers(case: Case, bob: User, site_moderator: User) -> None:
    warned = rule(case.pk, site_moderator, Ruling.Kind.WARN, "Mind it.", target=bob)
    for _ in range(3):
        preview(case, site_moderator, Ruling.Kind.DISMISS, "Look.", supersedes_id=warned.pk)
    dismissed = rule(case.pk, site_moderator, Ruling.Kind.DISMISS, "No.", supersedes_id=warned.pk)
    assert dismissed.pk == warned.pk + 1
    assert not Ruling.objects.filter(pk__lt=0).exists()


def test_the_member_filter_finds_everything_about_and_by_a_member(
    case: Case,
    bob: User,
    dave: User,
    site_moderator: User,
    league_game: Game,
    league_fixture: Fixture,
) -> None:
    """Bob: accused in the casual case (its claim and ruling are about him), filer of a
    league case, named by a warning in a third case he is no party to otherwise."""
    rule(case.pk, site_moderator, Ruling.Kind.DISMISS, "Nothing to see.")
    filed = open_case(league_game, bob, Category.BUG, fixture=league_fixture)
    LogEntry.objects.create(
        at=filed.opened_at,
        actor=bob,
        action=LogEntry.Action.FILED,
        case=filed,
        club_id=filed.club_id,
        summary="Bob filed a report.",
    )
    carol = UserFactory(username="carol2", display_name="Carol")
    elsewhere = LogEntry.objects.create(
        at=filed.opened_at,
        actor=carol,
        action=LogEntry.Action.EVIDENCE_OPENED,
        summary="Carol opened something.",
    )
    client = client_as(site_moderator)
    about_bob = client.get(URL, {"member": "BOB"})
    assert about_bob.status_code == 200
    entries = list(about_bob.context["entries"])
    assert {e.case_id for e in entries} == {case.pk, filed.pk}
    assert elsewhere not in entries
    assert {e.action for e in entries} >= {"ruled", "filed"}
    assert list(client.get(URL, {"member": "dave"}).context["entries"]) == [
        e for e in LogEntry.objects.order_by("-at", "-pk") if e.case_id == filed.pk
    ]
    unknown = client.get(URL, {"member": "nobody"})
    assert unknown.status_code == 400
    assert "No member has that username." in unknown.content.decode()


def test_the_filter_form_does_not_keep_what_the_browser_typed(site_moderator: User) -> None:
    """The form is not restored by the browser on Back (autocomplete off): it shows the
    filters of the list it stands above (checked in the browser too)."""
    html = client_as(site_moderator).get(URL, {"case": "7"}).content.decode()
    assert 'class="log-filters" autocomplete="off"' in html
    assert 'name="case" value="7"' in html
