"""The club pages as the owner, an organiser, a member, a member of another club and a
visitor see them; the wrong methods; private clubs hidden from outsiders."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from leagues.models import Club, ClubInvitation, JoinRequest, Membership, Pending, Role
from leagues.notices import LeagueNotice
from leagues.services import clubs
from notifications.models import Notification
from tests.conftest import client_as
from tests.leagues.conftest import add_member

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, club: Club, **kwargs: object) -> str:
    return reverse(f"leagues:{name}", kwargs={"slug": club.slug, **kwargs})


def role_of(club: Club, user: User) -> str | None:
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def to_login(response: object) -> bool:
    return response.status_code == 302 and response["Location"].startswith(  # type: ignore[attr-defined]
        reverse("login")
    )


# --- the list --------------------------------------------------------------------------


def test_the_list_shows_public_clubs_and_the_viewers_private_ones(
    club: Club, private_club: Club, alice: User, rival: User
) -> None:
    visitor = client_as(None).get(reverse("leagues:clubs")).content.decode()
    assert "Tile Club" in visitor and "Other Club" in visitor and "Back Room" not in visitor

    owner = client_as(alice).get(reverse("leagues:clubs")).content.decode()
    assert "Back Room" in owner and "Owner" in owner


def test_the_list_searches_by_name_and_htmx_gets_the_results_only(
    club: Club, rival: User, alice: User
) -> None:
    response = client_as(alice).get(reverse("leagues:clubs"), {"q": "  oth "}, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "Other Club" in html and "Tile Club" not in html
    assert "<header" not in html and 'id="club-results"' in html


def test_going_back_to_a_search_restores_the_whole_page(club: Club, alice: User) -> None:
    restore = {**HTMX, "HTTP_HX_HISTORY_RESTORE_REQUEST": "true"}
    response = client_as(alice).get(reverse("leagues:clubs"), {"q": "tile"}, **restore)

    assert "<header" in response.content.decode()
    assert "HX-Request" in response["Vary"]


def test_the_list_answers_only_reads(alice: User) -> None:
    assert client_as(alice).post(reverse("leagues:clubs")).status_code == 405


# --- a new club ------------------------------------------------------------------------


def test_a_member_creates_a_club_and_lands_on_its_page(alice: User) -> None:
    data = {"name": "Tile Club", "slug": "", "description": "Tuesdays", "is_private": "on"}
    response = client_as(alice).post(reverse("leagues:new_club"), data)

    club = Club.objects.get()
    assert response.status_code == 302 and response["Location"] == url("club", club)
    assert club.is_private and role_of(club, alice) == Role.OWNER


def test_a_refused_new_club_shows_the_form_again_with_the_reason(club: Club, bob: User) -> None:
    response = client_as(bob).post(reverse("leagues:new_club"), {"name": "tile club"})

    assert response.status_code == 400
    assert "That name is not available" in response.content.decode()
    assert client_as(bob).post(reverse("leagues:new_club"), {"name": ""}).status_code == 400
    assert Club.objects.count() == 1


def test_the_new_club_form_does_not_confirm_a_private_clubs_name_or_address(
    private_club: Club, bob: User
) -> None:
    """A private club's name and address get the one sentence any taken name gets: it
    neither echoes them nor says that a club has them (finding 14)."""
    new_club = reverse("leagues:new_club")
    by_name = client_as(bob).post(new_club, {"name": private_club.name.upper()})
    by_address = client_as(bob).post(new_club, {"name": "Other", "slug": private_club.slug})
    reserved = client_as(bob).post(new_club, {"name": "Another", "slug": "new"})

    assert by_name.status_code == by_address.status_code == reserved.status_code == 400
    assert "That name is not available: choose another." in by_name.text
    assert "That address is not available: choose another." in by_address.text
    assert "That address is not available: choose another." in reserved.text
    for response in (by_name, by_address):
        assert "exists" not in response.text and f"/clubs/{private_club.slug}/" not in response.text
    assert Club.objects.count() == 1


def test_visitors_log_in_before_creating_a_club(db: None) -> None:
    assert to_login(client_as(None).get(reverse("leagues:new_club")))
    assert to_login(client_as(None).post(reverse("leagues:new_club"), {"name": "Mine"}))
    assert not Club.objects.exists()


# --- a club's page ---------------------------------------------------------------------


def test_everyone_sees_a_public_clubs_page_with_its_members_and_roles(
    club: Club, alice: User, organiser: User, member: User, rival: User
) -> None:
    for user in (alice, organiser, member, rival, None):
        response = client_as(user).get(url("club", club))
        html = response.content.decode()
        assert response.status_code == 200
        assert "We meet on Tuesdays." in html
        assert "Olga" in html and "Organiser" in html and "Mia" in html
    assert "Invite members" in client_as(organiser).get(url("club", club)).content.decode()
    assert "Invite members" not in client_as(member).get(url("club", club)).content.decode()
    assert "Ask to join" in client_as(rival).get(url("club", club)).content.decode()
    assert "Log in to ask to join" in client_as(None).get(url("club", club)).content.decode()


def test_organisers_see_the_requests_waiting_on_the_club_page(
    club: Club, organiser: User, member: User, bob: User
) -> None:
    clubs.request_to_join(club, bob, "Tuesdays suit me")

    assert "Tuesdays suit me" in client_as(organiser).get(url("club", club)).content.decode()
    assert "Tuesdays suit me" not in client_as(member).get(url("club", club)).content.decode()


def test_a_private_club_does_not_exist_for_outsiders(
    private_club: Club, alice: User, rival: User, bob: User
) -> None:
    add_member(private_club, bob)
    for name in ("club", "members", "invitation"):
        assert client_as(rival).get(url(name, private_club)).status_code == 404
    assert client_as(None).get(url("club", private_club)).status_code == 404
    assert client_as(None).get(url("members", private_club)).status_code == 404
    assert client_as(rival).get(url("settings", private_club)).status_code == 404
    assert client_as(rival).post(url("request_to_join", private_club)).status_code == 404
    assert client_as(bob).get(url("club", private_club)).status_code == 200
    assert client_as(alice).get(url("club", private_club)).status_code == 200


def test_a_club_page_answers_only_reads(club: Club, alice: User) -> None:
    assert client_as(alice).post(url("club", club)).status_code == 405
    assert client_as(alice).delete(url("members", club)).status_code == 405


# --- settings --------------------------------------------------------------------------


def test_organisers_change_the_settings_and_others_may_not(
    club: Club, alice: User, organiser: User, member: User, rival: User
) -> None:
    data = {"name": "Tile Society", "description": "New", "is_private": ""}
    assert client_as(alice).get(url("settings", club)).status_code == 200
    assert client_as(member).get(url("settings", club)).status_code == 403
    assert client_as(rival).get(url("settings", club)).status_code == 403
    assert to_login(client_as(None).get(url("settings", club)))
    assert client_as(member).post(url("settings", club), data).status_code == 403
    club.refresh_from_db()
    assert club.name == "Tile Club"

    response = client_as(organiser).post(url("settings", club), data)

    assert response.status_code == 302
    club.refresh_from_db()
    assert club.name == "Tile Society"


def test_the_settings_show_the_invitation_link_and_renewing_voids_it(
    club: Club, organiser: User, member: User
) -> None:
    old = club.invite_code
    assert old in client_as(organiser).get(url("settings", club)).content.decode()

    assert client_as(member).post(url("renew_link", club)).status_code == 403
    assert client_as(organiser).get(url("renew_link", club)).status_code == 405
    assert client_as(organiser).post(url("renew_link", club)).status_code == 302
    club.refresh_from_db()
    assert club.invite_code != old


# --- invitations -----------------------------------------------------------------------


def test_an_organiser_invites_by_username_inline(club: Club, organiser: User, bob: User) -> None:
    response = client_as(organiser).post(url("invite", club), {"username": "bob"}, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "Bob is invited" in html and "@bob" in html and "<header" not in html
    assert ClubInvitation.objects.get().user == bob


def test_an_invitation_refused_comes_back_in_the_form(club: Club, organiser: User) -> None:
    response = client_as(organiser).post(url("invite", club), {"username": "nobody"}, **HTMX)

    assert response.status_code == 400
    assert "No member is called" in response.content.decode()
    response = client_as(organiser).post(url("invite", club), {"username": ""})
    assert response.status_code == 400


def test_members_and_outsiders_invite_nobody(
    club: Club, member: User, rival: User, bob: User
) -> None:
    assert client_as(member).post(url("invite", club), {"username": "bob"}).status_code == 403
    assert client_as(rival).post(url("invite", club), {"username": "bob"}).status_code == 403
    assert to_login(client_as(None).post(url("invite", club), {"username": "bob"}))
    assert client_as(member).get(url("invite", club)).status_code == 405
    assert not ClubInvitation.objects.exists()


def test_the_invited_member_answers_from_the_invitation_page(
    private_club: Club, alice: User, bob: User, rival: User
) -> None:
    clubs.invite(private_club, alice, "bob")
    notice = Notification.objects.get(user=bob, kind=LeagueNotice.CLUB_INVITATION)

    page = client_as(bob).get(notice.link)
    assert page.status_code == 200 and "Accept and join" in page.content.decode()
    assert client_as(rival).post(url("accept_invitation", private_club)).status_code == 404

    response = client_as(bob).post(url("accept_invitation", private_club))

    assert response.status_code == 302 and response["Location"] == url("club", private_club)
    assert role_of(private_club, bob) == Role.MEMBER
    assert client_as(bob).get(notice.link).status_code == 302  # to the club: a member now
    again = client_as(bob).post(url("accept_invitation", private_club))
    assert again.status_code == 409


def test_declining_an_invitation(club: Club, alice: User, bob: User) -> None:
    clubs.invite(club, alice, "bob")

    assert client_as(bob).get(url("decline_invitation", club)).status_code == 405
    response = client_as(bob).post(url("decline_invitation", club))

    assert response.status_code == 302
    assert ClubInvitation.objects.get().status == Pending.DECLINED


def test_an_organiser_withdraws_an_invitation_a_member_may_not(
    club: Club, alice: User, member: User, bob: User
) -> None:
    invitation = clubs.invite(club, alice, "bob")
    path = url("withdraw_invitation", club, pk=invitation.pk)

    assert client_as(member).post(path).status_code == 403
    assert client_as(alice).post(path).status_code == 302
    assert client_as(alice).post(path).status_code == 409


def test_the_invitation_link_asks_first_joins_on_confirming_and_sends_a_visitor_to_log_in(
    club: Club, bob: User
) -> None:
    path = url("join_link", club, code=club.invite_code)

    response = client_as(None).get(path)
    assert to_login(response) and "next=" in response["Location"]

    # Opening the link (or a preview fetching it) asks; only the confirmation joins.
    response = client_as(bob).get(path)
    assert response.status_code == 200 and f"Join {club.name}" in response.text
    assert role_of(club, bob) is None
    response = client_as(bob).post(path)
    assert response.status_code == 302 and response["Location"] == url("club", club)
    assert role_of(club, bob) == Role.MEMBER
    assert client_as(bob).get(path).status_code == 302
    assert client_as(bob).get(url("join_link", club, code="wrong-code")).status_code == 404
    assert client_as(bob).post(url("join_link", club, code="wrong-code")).status_code == 404


# --- requests, leaving, members --------------------------------------------------------


def test_asking_to_join_and_an_organiser_approving(
    club: Club, organiser: User, member: User, bob: User
) -> None:
    response = client_as(bob).post(url("request_to_join", club), {"message": "Hi"})
    assert response.status_code == 302
    join_request = JoinRequest.objects.get()
    assert client_as(bob).post(url("request_to_join", club)).status_code == 409
    approve = url("approve_request", club, pk=join_request.pk)
    assert "Hi" in client_as(organiser).get(url("members", club)).content.decode()

    assert client_as(member).post(approve).status_code == 403
    assert client_as(organiser).get(approve).status_code == 405
    assert client_as(organiser).post(approve).status_code == 302
    assert role_of(club, bob) == Role.MEMBER


def test_a_request_message_too_long_is_refused(club: Club, bob: User) -> None:
    response = client_as(bob).post(url("request_to_join", club), {"message": "x" * 501})

    assert response.status_code == 400
    assert not JoinRequest.objects.exists()


def test_members_leave_but_the_owner_is_told_to_hand_over_first(
    club: Club, alice: User, member: User
) -> None:
    response = client_as(member).post(url("leave", club))
    assert response.status_code == 302 and response["Location"] == reverse("leagues:clubs")
    assert role_of(club, member) is None

    response = client_as(alice).post(url("leave", club))
    assert response.status_code == 409
    assert "make another member its owner" in response.content.decode()


def test_removing_members_and_changing_roles(
    club: Club, alice: User, organiser: User, moderator: User, member: User
) -> None:
    assert client_as(moderator).post(url("remove_member", club, pk=member.pk)).status_code == 403
    assert client_as(organiser).post(url("remove_member", club, pk=alice.pk)).status_code == 403
    assert client_as(organiser).post(url("remove_member", club, pk=moderator.pk)).status_code == 302
    assert role_of(club, moderator) is None

    role = url("change_role", club, pk=member.pk)
    assert client_as(organiser).post(role, {"role": "organiser"}).status_code == 403
    assert client_as(alice).post(role, {"role": "owner"}).status_code == 400
    assert client_as(alice).post(role, {"role": "organiser"}).status_code == 302
    assert role_of(club, member) == Role.ORGANISER


def test_the_owner_hands_the_club_over_from_the_members_page(
    club: Club, alice: User, organiser: User, member: User
) -> None:
    page = client_as(alice).get(url("members", club)).content.decode()
    assert "Make Mia the owner" in page
    assert "Set role" not in client_as(organiser).get(url("members", club)).content.decode()

    assert client_as(organiser).post(url("transfer", club, pk=member.pk)).status_code == 403
    assert client_as(alice).post(url("transfer", club, pk=member.pk)).status_code == 302
    assert role_of(club, member) == Role.OWNER and role_of(club, alice) == Role.ORGANISER


def test_the_header_links_the_clubs(alice: User) -> None:
    html = client_as(alice).get(reverse("leagues:clubs")).content.decode()

    assert f'href="{reverse("leagues:clubs")}" aria-current="page">Clubs</a>' in html
