"""The clubs' services: creating and editing a club, invitations by username and by
link, requests to join, leaving, removing members, roles and ownership."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from leagues.errors import Conflict, LeaguesError, NotAllowed, NotFound
from leagues.models import Club, ClubInvitation, JoinRequest, Membership, Pending, Role
from leagues.notices import LeagueNotice
from leagues.services import clubs
from notifications.models import Delivery, Notification
from notifications.services import mail
from notifications.services.notices import set_preference
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def role_of(club: Club, user: User) -> str | None:
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def notices(user: User, kind: str) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=kind).order_by("pk"))


# --- creating and editing --------------------------------------------------------------


def test_the_creator_owns_the_new_club_at_an_address_made_from_its_name(alice: User) -> None:
    club = clubs.create_club(alice, "  The   Tile Club ", description=" Tuesdays. ")

    assert (club.name, club.slug, club.description) == (
        "The Tile Club",
        "the-tile-club",
        "Tuesdays.",
    )
    assert role_of(club, alice) == Role.OWNER
    assert not club.is_private


def test_a_taken_address_gets_a_number_and_a_taken_name_is_refused(alice: User, bob: User) -> None:
    clubs.create_club(alice, "Tile Club")
    second = clubs.create_club(bob, "Tile-Club!")

    assert second.slug == "tile-club-2"
    with pytest.raises(Conflict, match="That name is not available"):
        clubs.create_club(bob, "TILE CLUB")


def test_a_chosen_address_must_be_free_well_formed_and_not_a_page(alice: User) -> None:
    assert clubs.create_club(alice, "Tile Club", slug="tiles").slug == "tiles"
    with pytest.raises(Conflict, match="That address is not available"):
        clubs.create_club(alice, "Other", slug="tiles")
    with pytest.raises(Conflict, match="That address is not available"):
        clubs.create_club(alice, "Other", slug="new")
    with pytest.raises(LeaguesError, match="lower-case letters"):
        clubs.create_club(alice, "Other", slug="Not A Slug")
    assert Club.objects.count() == 1


def test_a_name_made_of_no_letters_still_gets_an_address(alice: User) -> None:
    assert clubs.create_club(alice, "!!").slug == "club"
    assert clubs.create_club(alice, "??").slug == "club-2"


@pytest.mark.parametrize("name", ["", " x ", "y" * 81])
def test_a_name_too_short_or_too_long_is_refused(alice: User, name: str) -> None:
    with pytest.raises(LeaguesError):
        clubs.create_club(alice, name)
    assert not Club.objects.exists()


def test_organisers_edit_the_club_and_its_address_stays(club: Club, organiser: User) -> None:
    clubs.update_club(club, organiser, name="Tile Society", description="New", is_private=True)

    club.refresh_from_db()
    assert (club.name, club.slug, club.description, club.is_private) == (
        "Tile Society",
        "tile-club",
        "New",
        True,
    )


def test_members_and_outsiders_may_not_edit_the_club(
    club: Club, moderator: User, rival: User
) -> None:
    for user in (moderator, rival):
        with pytest.raises(NotAllowed, match="Only the club's organisers"):
            clubs.update_club(club, user, name="Mine", description="", is_private=False)
    club.refresh_from_db()
    assert club.name == "Tile Club"


def test_outsiders_of_a_private_club_are_told_there_is_none(
    private_club: Club, rival: User
) -> None:
    with pytest.raises(NotFound, match="There is no such club"):
        clubs.update_club(private_club, rival, name="Mine", description="", is_private=False)


def test_a_club_cannot_take_another_clubs_name(club: Club, alice: User, rival: User) -> None:
    with pytest.raises(Conflict):
        clubs.update_club(club, alice, name="other club", description="", is_private=False)


# --- invitations by username -----------------------------------------------------------


def test_an_invitation_notifies_the_member_once_with_a_link_to_it(
    club: Club, organiser: User, bob: User
) -> None:
    invitation = clubs.invite(club, organiser, " BOB ")

    assert invitation.user == bob and invitation.status == Pending.PENDING
    [notice] = notices(bob, LeagueNotice.CLUB_INVITATION)
    assert notice.text == "Olga invited you to join Tile Club."
    assert notice.link == reverse("leagues:invitation", kwargs={"slug": "tile-club"})
    assert notice.subject == invitation
    with pytest.raises(Conflict, match="Bob is invited already"):
        clubs.invite(club, organiser, "bob")
    assert len(notices(bob, LeagueNotice.CLUB_INVITATION)) == 1


def test_nobody_is_invited_twice_or_when_a_member_or_unknown(
    club: Club, alice: User, member: User
) -> None:
    with pytest.raises(Conflict, match="Mia is a member already"):
        clubs.invite(club, alice, "mia")
    with pytest.raises(LeaguesError, match="No member is called 'nobody'"):
        clubs.invite(club, alice, "nobody")
    with pytest.raises(LeaguesError, match="Type the username"):
        clubs.invite(club, alice, "  ")
    assert not ClubInvitation.objects.exists()


def test_only_organisers_invite(club: Club, moderator: User, rival: User, bob: User) -> None:
    for user in (moderator, rival):
        with pytest.raises(NotAllowed):
            clubs.invite(club, user, "bob")
    assert not ClubInvitation.objects.exists()


def test_accepting_makes_a_member_reads_the_notice_and_tells_the_inviter(
    club: Club, organiser: User, bob: User
) -> None:
    clubs.invite(club, organiser, "bob")

    membership = clubs.accept_invitation(club, bob)

    assert membership.role == Role.MEMBER
    assert ClubInvitation.objects.get().status == Pending.ACCEPTED
    [invited] = notices(bob, LeagueNotice.CLUB_INVITATION)
    assert invited.read_at is not None
    [news] = notices(organiser, LeagueNotice.CLUB_NEWS)
    assert news.text == "Bob accepted your invitation to Tile Club."
    with pytest.raises(Conflict, match="no invitation to this club waiting"):
        clubs.accept_invitation(club, bob)


def test_declining_leaves_the_member_out_and_the_notice_read(
    club: Club, alice: User, bob: User
) -> None:
    clubs.invite(club, alice, "bob")

    clubs.decline_invitation(club, bob)

    assert role_of(club, bob) is None
    assert ClubInvitation.objects.get().status == Pending.DECLINED
    assert notices(bob, LeagueNotice.CLUB_INVITATION)[0].read_at is not None
    clubs.invite(club, alice, "bob")  # may be invited again later
    assert len(notices(bob, LeagueNotice.CLUB_INVITATION)) == 2


def test_a_withdrawn_invitation_cannot_be_accepted(club: Club, alice: User, bob: User) -> None:
    invitation = clubs.invite(club, alice, "bob")
    clubs.withdraw_invitation(club, alice, invitation.pk)

    with pytest.raises(Conflict):
        clubs.accept_invitation(club, bob)
    assert role_of(club, bob) is None
    with pytest.raises(Conflict, match="This invitation was withdrawn already"):
        clubs.withdraw_invitation(club, alice, invitation.pk)


def test_an_uninvited_outsider_of_a_private_club_hears_of_no_club(
    private_club: Club, bob: User
) -> None:
    with pytest.raises(NotFound):
        clubs.accept_invitation(private_club, bob)


def test_an_invitation_of_another_club_cannot_be_withdrawn_here(
    club: Club, alice: User, rival: User, bob: User
) -> None:
    other = Club.objects.get(name="Other Club")
    invitation = clubs.invite(other, rival, "bob")
    with pytest.raises(NotFound):
        clubs.withdraw_invitation(club, alice, invitation.pk)
    assert ClubInvitation.objects.get().status == Pending.PENDING


# --- the invitation link ---------------------------------------------------------------


def test_the_link_lets_a_member_in_once(club: Club, bob: User) -> None:
    membership, joined = clubs.join_by_link("tile-club", club.invite_code, bob)
    assert joined and membership.role == Role.MEMBER

    again, joined = clubs.join_by_link("tile-club", club.invite_code, bob)
    assert not joined and again.pk == membership.pk


def test_a_renewed_link_voids_the_old_one(club: Club, organiser: User, bob: User) -> None:
    old = club.invite_code
    renewed = clubs.renew_invite_link(club, organiser)

    assert renewed.invite_code != old
    with pytest.raises(NotFound, match="does not work"):
        clubs.join_by_link("tile-club", old, bob)
    with pytest.raises(NotFound, match="does not work"):
        clubs.join_by_link("no-such-club", old, bob)
    assert role_of(club, bob) is None


def test_only_organisers_renew_the_link(club: Club, member: User) -> None:
    with pytest.raises(NotAllowed):
        clubs.renew_invite_link(club, member)


def test_joining_by_link_answers_what_was_waiting(club: Club, alice: User, bob: User) -> None:
    clubs.invite(club, alice, "bob")

    clubs.join_by_link("tile-club", club.invite_code, bob)

    assert ClubInvitation.objects.get().status == Pending.ACCEPTED
    assert notices(bob, LeagueNotice.CLUB_INVITATION)[0].read_at is not None


# --- requests to join ------------------------------------------------------------------


def test_a_request_tells_every_organiser_once(
    club: Club, alice: User, organiser: User, moderator: User, bob: User
) -> None:
    join_request = clubs.request_to_join(club, bob, "  I play on Tuesdays. ")

    assert join_request.message == "I play on Tuesdays."
    for user in (alice, organiser):
        [notice] = notices(user, LeagueNotice.CLUB_NEWS)
        assert notice.text == "Bob asks to join Tile Club."
        assert notice.link == reverse("leagues:members", kwargs={"slug": "tile-club"})
    assert notices(moderator, LeagueNotice.CLUB_NEWS) == []
    with pytest.raises(Conflict, match="You have asked already"):
        clubs.request_to_join(club, bob)


def test_a_request_is_refused_to_members_invited_and_for_private_clubs(
    club: Club, private_club: Club, alice: User, member: User, bob: User
) -> None:
    with pytest.raises(Conflict, match="You are a member already"):
        clubs.request_to_join(club, member)
    with pytest.raises(NotFound):
        clubs.request_to_join(private_club, bob)
    clubs.invite(club, alice, "bob")
    with pytest.raises(Conflict, match="accept the invitation"):
        clubs.request_to_join(club, bob)
    clubs.request_to_join(club, UserFactory(username="carl", display_name="Carl"))
    with pytest.raises(Conflict, match="Carl has asked to join"):
        clubs.invite(club, alice, "carl")
    with pytest.raises(LeaguesError, match="under 500"):
        clubs.request_to_join(club, UserFactory(), "x" * 501)


def test_approving_admits_the_member_and_tells_them(
    club: Club, alice: User, organiser: User, bob: User
) -> None:
    join_request = clubs.request_to_join(club, bob)

    clubs.approve_request(club, organiser, join_request.pk)

    join_request.refresh_from_db()
    assert (join_request.status, join_request.decided_by) == (Pending.ACCEPTED, organiser)
    assert role_of(club, bob) == Role.MEMBER
    [news] = notices(bob, LeagueNotice.CLUB_NEWS)
    assert news.text == "You are a member of Tile Club now: welcome!"
    # The organisers' notices of the request are answered, whoever answered it.
    assert all(n.read_at for n in notices(alice, LeagueNotice.CLUB_NEWS))
    with pytest.raises(Conflict, match="This request was accepted already"):
        clubs.decline_request(club, alice, join_request.pk)


def test_declining_a_request_tells_the_member(club: Club, alice: User, bob: User) -> None:
    join_request = clubs.request_to_join(club, bob)

    clubs.decline_request(club, alice, join_request.pk)

    assert role_of(club, bob) is None
    assert notices(bob, LeagueNotice.CLUB_NEWS)[0].text == (
        "Tile Club declined your request to join."
    )
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        clubs.request_to_join(club, bob)  # may ask again, the next day


def test_only_organisers_answer_requests(
    club: Club, moderator: User, rival: User, bob: User
) -> None:
    join_request = clubs.request_to_join(club, bob)
    for user in (moderator, rival):
        with pytest.raises(NotAllowed):
            clubs.approve_request(club, user, join_request.pk)
    assert role_of(club, bob) is None


def test_a_member_withdraws_their_request(club: Club, bob: User) -> None:
    clubs.request_to_join(club, bob)
    clubs.withdraw_request(club, bob)

    assert JoinRequest.objects.get().status == Pending.WITHDRAWN
    with pytest.raises(Conflict, match="no request"):
        clubs.withdraw_request(club, bob)


# --- leaving and removing --------------------------------------------------------------


def test_a_member_leaves_but_the_owner_hands_over_first(
    club: Club, alice: User, member: User, stranger: User
) -> None:
    clubs.leave(club, member)
    assert role_of(club, member) is None

    with pytest.raises(Conflict, match="make another member its owner"):
        clubs.leave(club, alice)
    with pytest.raises(Conflict, match="not a member"):
        clubs.leave(club, stranger)


def test_organisers_remove_members_below_them_and_nobody_removes_the_owner(
    club: Club, alice: User, organiser: User, moderator: User, member: User
) -> None:
    clubs.remove_member(club, organiser, member.pk)
    clubs.remove_member(club, organiser, moderator.pk)
    assert role_of(club, member) is None and role_of(club, moderator) is None
    assert notices(member, LeagueNotice.CLUB_NEWS)[0].text == (
        "You are no longer a member of Tile Club."
    )

    with pytest.raises(NotAllowed, match="You may not remove the owner"):
        clubs.remove_member(club, organiser, alice.pk)
    with pytest.raises(Conflict, match="use Leave"):
        clubs.remove_member(club, organiser, organiser.pk)
    other = UserFactory(username="oscar")
    Membership.objects.create(club=club, user=other, role=Role.ORGANISER)
    with pytest.raises(NotAllowed, match="You may not remove an organiser"):
        clubs.remove_member(club, organiser, other.pk)
    clubs.remove_member(club, alice, other.pk)  # the owner may
    assert role_of(club, other) is None


def test_members_and_outsiders_remove_nobody(
    club: Club, moderator: User, member: User, rival: User, stranger: User
) -> None:
    for user in (moderator, rival):
        with pytest.raises(NotAllowed):
            clubs.remove_member(club, user, member.pk)
    with pytest.raises(NotFound, match="not in the club"):
        clubs.remove_member(club, club.memberships.get(role=Role.OWNER).user, stranger.pk)
    assert role_of(club, member) == Role.MEMBER


# --- roles and ownership ---------------------------------------------------------------


def test_the_owner_gives_roles_and_the_member_is_told(
    club: Club, alice: User, member: User
) -> None:
    clubs.change_role(club, alice, member.pk, Role.ORGANISER)

    assert role_of(club, member) == Role.ORGANISER
    assert notices(member, LeagueNotice.CLUB_NEWS)[0].text == (
        "You are now an organiser of Tile Club."
    )
    clubs.change_role(club, alice, member.pk, Role.ORGANISER)  # no change, no news
    assert len(notices(member, LeagueNotice.CLUB_NEWS)) == 1


def test_only_the_owner_gives_roles_and_never_ownership_that_way(
    club: Club, alice: User, organiser: User, member: User
) -> None:
    with pytest.raises(NotAllowed, match="Only the owner"):
        clubs.change_role(club, organiser, member.pk, Role.ORGANISER)
    with pytest.raises(LeaguesError, match="make them its owner"):
        clubs.change_role(club, alice, member.pk, Role.OWNER)
    with pytest.raises(Conflict, match="You own the club"):
        clubs.change_role(club, alice, alice.pk, Role.MEMBER)
    assert role_of(club, member) == Role.MEMBER


def test_the_owner_hands_the_club_over_and_stays_an_organiser(
    club: Club, alice: User, member: User
) -> None:
    clubs.transfer_ownership(club, alice, member.pk)

    assert (role_of(club, alice), role_of(club, member)) == (Role.ORGANISER, Role.OWNER)
    assert notices(member, LeagueNotice.CLUB_NEWS)[0].text == (
        "Alice made you the owner of Tile Club."
    )
    clubs.leave(club, alice)  # no longer the owner
    with pytest.raises(NotAllowed):
        clubs.transfer_ownership(club, alice, member.pk)


# --- emails ----------------------------------------------------------------------------


def test_an_invitation_is_emailed_unless_it_was_answered_first(
    club: Club, alice: User, bob: User, mailoutbox: list[Any]
) -> None:
    clubs.invite(club, alice, "bob")
    [notice] = notices(bob, LeagueNotice.CLUB_INVITATION)

    assert mail.send_notification_email(notice.pk) == "sent"
    [email] = mailoutbox
    assert email.subject == "Club invitation: Alice invited you to join Tile Club."
    assert "/clubs/tile-club/invitation/" in email.body

    clubs.decline_invitation(club, bob)
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        clubs.invite(club, alice, "bob")
        clubs.accept_invitation(club, bob)
    [second] = notices(bob, LeagueNotice.CLUB_INVITATION)[1:]
    assert mail.send_notification_email(second.pk) == "read"


def test_club_news_is_emailed_to_who_wants_it_at_once(
    club: Club, alice: User, bob: User, mailoutbox: list[Any]
) -> None:
    set_preference(alice, LeagueNotice.CLUB_NEWS, Delivery.IMMEDIATE)
    clubs.request_to_join(club, bob)
    [notice] = notices(alice, LeagueNotice.CLUB_NEWS)

    assert mail.send_notification_email(notice.pk) == "sent"
    assert mailoutbox[0].subject == "Club news: Bob asks to join Tile Club."
