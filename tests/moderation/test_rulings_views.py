"""The rulings pages: the case's moderator previews and applies a ruling; players of the
game, outsiders and the wrong method are refused; a second moderator confirms."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game, Result
from leagues.models import Membership, Role
from moderation.models import Case, Category, Ruling, Suspension
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case
from tests.moderation.test_rulings import claimed, league_case

pytestmark = pytest.mark.django_db

__all__ = ["league_case"]


def void(note: str = "Dealt from a broken pool.", step: str = "apply") -> dict[str, Any]:
    return {"kind": "void", "note": note, "step": step}


def test_the_moderator_previews_then_applies(
    league_case: Case, league_game: Game, club_moderator: User
) -> None:
    client = client_as(club_moderator)
    url = reverse("moderation:rule", args=[league_case.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert b"Set the result" in page.content
    shown = client.post(url, void(step="preview"))
    assert shown.status_code == 200
    assert b"Preview: what the ruling changes" in shown.content
    assert b"Division 1: the standings" in shown.content
    assert not Ruling.objects.exists()
    done = client.post(url, void())
    ruling = Ruling.objects.get()
    assert done.status_code == 302 and done["Location"] == reverse(
        "moderation:ruling", args=[ruling.pk]
    )
    assert {r.source for r in Result.objects.current().of_game(league_game)} == {"void"}
    page = client.get(done["Location"])
    assert page.status_code == 200 and b"Dealt from a broken pool." in page.content
    assert b"Supersede this ruling" in page.content


def test_a_refusal_is_said_on_the_form_and_changes_nothing(
    league_case: Case, club_moderator: User
) -> None:
    url = reverse("moderation:rule", args=[league_case.pk])
    answer = client_as(club_moderator).post(
        url, {"kind": "set_result", "note": "x", "step": "apply", "score_0": "many"}
    )
    assert answer.status_code == 400
    assert b"whole number" in answer.content
    assert client_as(club_moderator).post(url, {"kind": "void", "note": ""}).status_code == 400
    assert not Ruling.objects.exists()


def test_players_outsiders_and_the_wrong_method_are_refused(
    league_case: Case, bob: User, dave: User, club_moderator: User
) -> None:
    url = reverse("moderation:rule", args=[league_case.pk])
    for user in (bob, dave, UserFactory(username="olly")):
        assert client_as(user).get(url).status_code == 404
        assert client_as(user).post(url, void()).status_code == 404
    assert client_as(club_moderator).put(url).status_code == 405
    assert Client().get(url).status_code == 302  # to the log-in page
    assert not Ruling.objects.exists()


def test_another_moderator_reads_but_may_not_rule_on_a_claimed_case(
    league_case: Case, running: RunningSeason
) -> None:
    other = UserFactory(username="max")
    Membership.objects.create(club=running.club, user=other, role=Role.MODERATOR)
    url = reverse("moderation:rule", args=[league_case.pk])
    page = client_as(other).get(url)
    assert page.status_code == 200 and b"only they rule on it" in page.content
    assert client_as(other).post(url, void()).status_code == 403


def test_a_decided_case_names_no_moderator_who_alone_rules_on_it(
    league_case: Case, club_moderator: User, running: RunningSeason
) -> None:
    other = UserFactory(username="max")
    Membership.objects.create(club=running.club, user=other, role=Role.MODERATOR)
    url = reverse("moderation:rule", args=[league_case.pk])
    client_as(club_moderator).post(url, {"kind": "dismiss", "note": "Nothing.", "step": "apply"})
    league_case.refresh_from_db()
    assert league_case.status == Case.Status.DECIDED
    page = client_as(other).get(url).content.decode()
    assert "moderates this case" not in page
    assert 'class="form ruling-form"' in page


def test_a_second_moderator_confirms_from_the_rulings_page(
    league_case: Case, club_moderator: User, running: RunningSeason, bob: User
) -> None:
    other = UserFactory(username="max")
    Membership.objects.create(club=running.club, user=other, role=Role.MODERATOR)
    client_as(club_moderator).post(reverse("moderation:rule", args=[league_case.pk]), void())
    ruling = Ruling.objects.get()
    assert ruling.status == Ruling.Status.PROPOSED
    page_url = reverse("moderation:ruling", args=[ruling.pk])
    confirm_url = reverse("moderation:ruling_confirm", args=[ruling.pk])
    assert b"Confirm and apply" not in client_as(club_moderator).get(page_url).content
    assert b"Confirm and apply" in client_as(other).get(page_url).content
    assert client_as(bob).get(page_url).status_code == 404
    assert client_as(bob).post(confirm_url).status_code == 404
    assert client_as(club_moderator).post(confirm_url).status_code == 403
    assert client_as(other).get(confirm_url).status_code == 405
    assert client_as(other).post(confirm_url).status_code == 302
    ruling.refresh_from_db()
    assert ruling.status == Ruling.Status.APPLIED and ruling.confirmed_by == other


def test_a_site_moderator_suspends_a_member_from_the_form(
    casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    case = claimed(open_case(casual_game, alice, Category.ABUSE, accused=bob), site_moderator)
    url = reverse("moderation:rule", args=[case.pk])
    form = {"kind": "suspend", "note": "Abuse in chat, again.", "target": "bob", "days": "3"}
    shown = client_as(site_moderator).post(url, {**form, "scope": "site", "step": "preview"})
    assert shown.status_code == 200 and b"Confirm and apply" in shown.content
    done = client_as(site_moderator).post(url, {**form, "scope": "site", "step": "apply"})
    assert done.status_code == 302
    suspension = Suspension.objects.get()
    assert suspension.user == bob and suspension.club is None
    assert (suspension.ends_at - suspension.starts_at).days == 3


def test_the_member_a_warning_names_is_chosen_from_a_labelled_list(
    league_case: Case, club_moderator: User
) -> None:
    page = client_as(club_moderator).get(reverse("moderation:rule", args=[league_case.pk]))
    assert b'<label for="id_target">Member</label>' in page.content
    assert b'<select name="target" id="id_target">' in page.content


def test_the_second_moderator_previews_what_confirming_changes_and_nothing_changes(
    league_case: Case,
    league_game: Game,
    club_moderator: User,
    running: RunningSeason,
    django_capture_on_commit_callbacks: Any,
) -> None:
    other = UserFactory(username="max")
    Membership.objects.create(club=running.club, user=other, role=Role.MODERATOR)
    client_as(club_moderator).post(reverse("moderation:rule", args=[league_case.pk]), void())
    ruling = Ruling.objects.get()
    before = sorted(Result.objects.current().of_game(league_game).values_list("pk", flat=True))
    page_url = reverse("moderation:ruling", args=[ruling.pk])

    with django_capture_on_commit_callbacks() as callbacks:
        shown = client_as(other).get(page_url)

    assert shown.status_code == 200
    assert b"Preview: what the ruling changes" in shown.content
    assert b"Division 1: the standings" in shown.content
    assert b"(void)" in shown.content
    assert b"Preview: what" not in client_as(club_moderator).get(page_url).content
    ruling.refresh_from_db()
    assert ruling.status == Ruling.Status.PROPOSED and ruling.confirmed_by is None
    after = sorted(Result.objects.current().of_game(league_game).values_list("pk", flat=True))
    assert after == before and not callbacks


def test_a_party_reads_the_rulings_that_took_effect_on_the_hub_and_opens_the_outcome(
    league_case: Case, club_moderator: User, running: RunningSeason, bob: User
) -> None:
    other = UserFactory(username="max")
    Membership.objects.create(club=running.club, user=other, role=Role.MODERATOR)
    client_as(club_moderator).post(reverse("moderation:rule", args=[league_case.pk]), void())
    ruling = Ruling.objects.get()
    hub = reverse("moderation:case", args=[league_case.pk])
    ruling_url = reverse("moderation:ruling", args=[ruling.pk]).encode()
    outcome_url = reverse("moderation:appeal_new", args=[league_case.pk]).encode()

    proposed = client_as(bob).get(hub)
    assert b"No ruling yet." in proposed.content and ruling_url not in proposed.content
    assert b"you can appeal its outcome here" in proposed.content
    assert ruling_url in client_as(club_moderator).get(hub).content

    client_as(other).post(reverse("moderation:ruling_confirm", args=[ruling.pk]))
    applied = client_as(bob).get(hub)
    assert outcome_url in applied.content and ruling_url not in applied.content
    assert client_as(bob).get(outcome_url.decode()).status_code == 200


def test_a_moderator_who_is_a_party_reads_the_hub_as_a_party(
    league_case: Case, club_moderator: User, running: RunningSeason, dave: User
) -> None:
    Membership.objects.filter(club=running.club, user=dave).update(role=Role.MODERATOR)
    hub = reverse("moderation:case", args=[league_case.pk])

    as_party = client_as(dave).get(hub)
    as_moderator = client_as(club_moderator).get(hub)

    assert as_party.status_code == 200 and as_moderator.status_code == 200
    assert b"My move was refused." in as_moderator.content
    assert b"What was done" in as_moderator.content
    assert b"My move was refused." not in as_party.content  # bob's report
    assert b"What was done" not in as_party.content
    assert b"Make a ruling" not in as_party.content


def test_the_form_offers_only_the_kinds_the_games_state_allows(
    league_case: Case, league_game: Game, club_moderator: User
) -> None:
    """A finished game: its result may change, its clocks are gone and it is not
    rewound; those two kinds are disabled with the reason beside them."""
    assert league_game.is_over
    url = reverse("moderation:rule", args=[league_case.pk])
    page = client_as(club_moderator).get(url).content.decode()
    assert '<input type="radio" name="kind" value="void">' in page
    for kind in ("pause", "rewind"):
        assert f'value="{kind}" disabled aria-describedby="kind-refused-{kind}"' in page
    assert "The game is over: a finished game is not rewound" in page
    assert "The game is over: there is no clock to pause." in page
    # Posted anyway, the service refuses it with the same sentence and nothing changes.
    answer = client_as(club_moderator).post(
        url, {"kind": "rewind", "note": "Back.", "turn": "1", "step": "apply"}
    )
    assert answer.status_code == 400
    assert not Ruling.objects.exists()


def test_a_running_games_form_disables_the_result_kinds(
    casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    case = claimed(open_case(casual_game, alice, Category.BUG), site_moderator)
    page = client_as(site_moderator).get(reverse("moderation:rule", args=[case.pk]))
    html = page.content.decode()
    for kind in ("void", "set_result", "forfeit"):
        assert f'value="{kind}" disabled' in html, kind
    assert '<input type="radio" name="kind" value="pause">' in html
    assert "The game is still being played: only a finished game&#x27;s result" in html


def test_the_forfeit_help_says_what_its_zero_sum_preview_shows(
    league_case: Case, league_game: Game, club_moderator: User
) -> None:
    """Walk turn 4, W8: the help said "the others keep their results" while its own
    preview gave the forfeited points and the win to another seat."""
    url = reverse("moderation:rule", args=[league_case.pk])
    client = client_as(club_moderator)
    winner = Result.objects.current().of_game(league_game).get(is_winner=True)
    assert league_game.engine_ruleset().score_mode == "zero_sum"

    form = client.get(url).content.decode()
    preview = client.post(
        url, {"kind": "forfeit", "seat": str(winner.seat), "note": "Colluded.", "step": "preview"}
    ).content.decode()

    assert "the others keep their results" not in form
    assert "Under zero-sum scoring the points it loses go to the winner" in form
    assert "if it had won, the best of the others wins instead" in form
    # What the preview shows: the other seat takes the win and the points.
    assert preview.count(str(winner.score)) >= 2 and "Preview: what the ruling changes" in preview
