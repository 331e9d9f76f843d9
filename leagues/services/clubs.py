"""Clubs and their members: creating and editing a club, invitations (by username, or
the club's link), requests to join, leaving, removing members and their roles.

Every function is one transaction that starts by locking the club's row. That lock is
the one order all changes to a club's members follow, so two organisers answering the
same request, an owner handing the club over while removing a member, or a member
accepting an invitation while it is withdrawn, happen one after the other: the second
sees what the first committed and is refused with a sentence, never half applied.

Who may do what is checked here, against the rows read under that lock (the pages ask
:mod:`leagues.permissions` for what to show; the roles it names are the same). Refusals are
:class:`leagues.errors.LeaguesError` subclasses whose ``message`` is for the member;
nothing has changed when one is raised. Members hear of what concerns them through
:func:`notifications.services.notices.create` (an invitation; club news: a request to
answer, an answer, a new role), created in the same transaction and sent after commit.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TypeVar

from django.db import IntegrityError, models, transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Table
from leagues.conf import ensure_may_take_part
from leagues.errors import Conflict, LeaguesError, NotAllowed, NotFound
from leagues.models import (
    Club,
    ClubInvitation,
    JoinRequest,
    Membership,
    Pending,
    Role,
    new_invite_code,
)
from leagues.notices import LeagueNotice
from leagues.permissions import ORGANISING, RANK, ensure_staff
from leagues.selectors.clubs import club_of_link
from leagues.services import bounds
from leagues.slugs import CLUB_SLUGS_RESERVED, MAX_LENGTH, slug_for
from notifications.models import Notification
from notifications.services import notices

A = TypeVar("A", ClubInvitation, JoinRequest)
NO_SUCH_CLUB = "There is no such club."
# A taken name or address is refused in one sentence that neither echoes it nor says
# whose it is: a private club's name and address are not confirmed to outsiders (an
# address reserved for the site's own pages gets the same answer).
NAME_TAKEN = "That name is not available: choose another."
ADDRESS_TAKEN = "That address is not available: choose another."
NAME_OR_ADDRESS_TAKEN = "That name or address is not available: choose another."
NAME_LENGTH = Club._meta.get_field("name").max_length or 80
DESCRIPTION_LENGTH = 2000
MESSAGE_LENGTH = 500
ASSIGNABLE = (Role.ORGANISER, Role.MODERATOR, Role.MEMBER)
"""Roles the owner gives; ownership is handed over with :func:`transfer_ownership`."""


# --- the club itself -------------------------------------------------------------------


def create_club(
    creator: User, name: str, *, slug: str = "", description: str = "", is_private: bool = False
) -> Club:
    """A new club owned by ``creator``. Its address is ``slug``, or one made from the name
    (``tile-club``, ``tile-club-2``, ...)."""
    name, description = _checked_name(name), _checked_description(description)
    with transaction.atomic():
        _check_name_free(name)
        address = _checked_slug(slug) if slug else _slug_from(name)
        try:
            # A savepoint: another member may create the same name or address meanwhile.
            with transaction.atomic():
                club = Club.objects.create(
                    name=name, slug=address, description=description, is_private=is_private
                )
        except IntegrityError:
            raise Conflict(NAME_OR_ADDRESS_TAKEN) from None
        Membership.objects.create(club=club, user=creator, role=Role.OWNER)
    return club


def update_club(club: Club, by: User, *, name: str, description: str, is_private: bool) -> Club:
    """Rename, describe, or make public or private (the address stays, so links do too)."""
    name, description = _checked_name(name), _checked_description(description)
    with transaction.atomic():
        locked = _lock(club)
        _acting(locked, by, ORGANISING, "change the club's settings")
        _check_name_free(name, besides=locked)
        locked.name, locked.description, locked.is_private = name, description, is_private
        try:
            with transaction.atomic():
                locked.save(update_fields=["name", "description", "is_private"])
        except IntegrityError:
            raise Conflict(NAME_TAKEN) from None
        mark_fixture_tables(locked)
    return locked


def mark_fixture_tables(club: Club) -> int:
    """Mark the tables of ``club``'s fixtures private as the club is, or not (how many
    changed): who may see them follows the club's setting (:mod:`leagues.selectors.sight`)."""
    tables = Table.objects.filter(fixture__matchday__season__league__club=club)
    return tables.exclude(private=club.is_private).update(private=club.is_private)


def renew_invite_link(club: Club, by: User) -> Club:
    """A new invitation link: the old one stops working."""
    with transaction.atomic():
        locked = _lock(club)
        _acting(locked, by, ORGANISING, "renew the invitation link")
        locked.invite_code = new_invite_code()
        locked.save(update_fields=["invite_code"])
    return locked


# --- invitations -----------------------------------------------------------------------


def invite(club: Club, by: User, username: str) -> ClubInvitation:
    """Invite the member called ``username``; they are notified once, with a link to
    the invitation, and e-mailed (as they chose) unless the club invited them within
    the day already: an invitation withdrawn and sent again is not a second e-mail."""
    with transaction.atomic():
        locked = _lock(club)
        _acting(locked, by, ORGANISING, "invite members")
        user = _member_called(username)
        if _membership(locked, user) is not None:
            raise Conflict(f"{user} is a member already.")
        if _pending(ClubInvitation, locked, user) is not None:
            raise Conflict(f"{user} is invited already.")
        if _pending(JoinRequest, locked, user) is not None:
            raise Conflict(f"{user} has asked to join: approve their request instead.")
        now = timezone.now()
        bounds.check_invitation(locked, now)
        mailed = bounds.invited_within_a_day(locked, user, now)
        invitation = ClubInvitation.objects.create(club=locked, user=user, invited_by=by)
        notices.create(
            user.pk,
            LeagueNotice.CLUB_INVITATION,
            f"{by} invited you to join {locked.name}.",
            reverse("leagues:invitation", kwargs={"slug": locked.slug}),
            subject=invitation,
            key=f"{LeagueNotice.CLUB_INVITATION}:invitation-{invitation.pk}",
            mail=not mailed,
        )
    return invitation


def accept_invitation(club: Club, user: User) -> Membership:
    """``user`` accepts their invitation to ``club`` and is a member from now on."""
    with transaction.atomic():
        locked = _lock(club)
        invitation = _invitation_of(locked, user)
        ensure_may_take_part(user, locked.pk, "join")
        _decide(invitation, Pending.ACCEPTED)
        membership = _admit(locked, user)
        _tell(
            invitation.invited_by_id, locked, f"{user} accepted your invitation to {locked.name}."
        )
    return membership


def decline_invitation(club: Club, user: User) -> None:
    with transaction.atomic():
        _decide(_invitation_of(_lock(club), user), Pending.DECLINED)


def withdraw_invitation(club: Club, by: User, invitation_id: int) -> None:
    """An organiser takes back an invitation not answered yet."""
    with transaction.atomic():
        locked = _lock(club)
        _acting(locked, by, ORGANISING, "withdraw invitations")
        invitation = _pending_by_id(ClubInvitation, locked, invitation_id, "invitation")
        _decide(invitation, Pending.WITHDRAWN)


def join_by_link(slug: str, code: str, user: User) -> tuple[Membership, bool]:
    """Join the club whose invitation link is ``/clubs/<slug>/join/<code>/``; returns the
    membership and whether it is new (a member following the link again stays as is)."""
    with transaction.atomic():
        club = club_of_link(slug, code, Club.objects.select_for_update())
        membership = _membership(club, user)
        if membership is not None:
            return membership, False
        ensure_may_take_part(user, club.pk, "join")
        return _admit(club, user), True


# --- requests to join ------------------------------------------------------------------


def request_to_join(club: Club, user: User, message: str = "") -> JoinRequest:
    """Ask to join a public club; its organisers are told."""
    message = message.strip()
    if len(message) > MESSAGE_LENGTH:
        raise LeaguesError(f"Keep the message under {MESSAGE_LENGTH} characters.")
    with transaction.atomic():
        locked = _lock(club)
        if _membership(locked, user) is not None:
            raise Conflict("You are a member already.")
        if locked.is_private:
            # Only members see a private club; others join by invitation.
            raise NotFound(NO_SUCH_CLUB)
        if _pending(ClubInvitation, locked, user) is not None:
            raise Conflict("You are invited already: accept the invitation to join.")
        if _pending(JoinRequest, locked, user) is not None:
            raise Conflict("You have asked already: an organiser will answer.")
        # A suspended member could not be let in: asking would only trouble the organisers.
        ensure_may_take_part(user, locked.pk, "join")
        bounds.check_join_request(locked, user, timezone.now())
        join_request = JoinRequest.objects.create(club=locked, user=user, message=message)
        link = reverse("leagues:members", kwargs={"slug": locked.slug})
        key = f"{LeagueNotice.CLUB_NEWS}:request-{join_request.pk}"
        for organiser_id in _organiser_ids(locked):
            text = f"{user} asks to join {locked.name}."
            _tell(organiser_id, locked, text, link=link, subject=join_request, key=key)
    return join_request


def withdraw_request(club: Club, user: User) -> None:
    with transaction.atomic():
        locked = _lock(club)
        join_request = _pending(JoinRequest, locked, user)
        if join_request is None:
            raise Conflict("You have no request to join this club waiting.")
        _decide(join_request, Pending.WITHDRAWN)


def approve_request(club: Club, by: User, request_id: int) -> Membership:
    """An organiser lets the member in; they are told."""
    with transaction.atomic():
        locked, join_request = _answer_request(club, by, request_id, Pending.ACCEPTED)
        ensure_may_take_part(join_request.user, locked.pk, "admit")
        membership = _admit(locked, join_request.user)
        _tell(join_request.user_id, locked, f"You are a member of {locked.name} now: welcome!")
    return membership


def decline_request(club: Club, by: User, request_id: int) -> None:
    with transaction.atomic():
        locked, join_request = _answer_request(club, by, request_id, Pending.DECLINED)
        _tell(
            join_request.user_id,
            locked,
            f"{locked.name} declined your request to join.",
            link=reverse("leagues:clubs"),
        )


def _answer_request(
    club: Club, by: User, request_id: int, answer: Pending
) -> tuple[Club, JoinRequest]:
    """Within the caller's transaction: the club locked, ``by`` checked to be one who
    answers requests, and the pending request ``request_id`` given ``answer``."""
    locked = _lock(club)
    _acting(locked, by, ORGANISING, "answer requests to join")
    join_request = _pending_by_id(JoinRequest, locked, request_id, "request")
    _decide(join_request, answer, by)
    return locked, join_request


# --- members and roles -----------------------------------------------------------------


def leave(club: Club, user: User) -> None:
    """``user`` leaves the club; its owner hands it over first."""
    with transaction.atomic():
        locked = _lock(club)
        membership = _membership(locked, user)
        if membership is None:
            raise Conflict("You are not a member of this club.")
        if membership.role == Role.OWNER:
            raise Conflict("You own this club: make another member its owner before you leave.")
        membership.delete()


def remove_member(club: Club, by: User, user_id: int) -> None:
    """An organiser removes a member of a lower role (the owner: anyone but themself)."""
    with transaction.atomic():
        locked = _lock(club)
        acting = _acting(locked, by, ORGANISING, "remove members")
        membership = _member_by_id(locked, user_id)
        if membership.pk == acting.pk:
            raise Conflict("To leave the club yourself, use Leave the club.")
        if RANK[Role(membership.role)] >= RANK[Role(acting.role)]:
            who = "the owner" if membership.role == Role.OWNER else "an organiser"
            raise NotAllowed(f"You may not remove {who}.")
        membership.delete()
        _tell(
            membership.user_id,
            locked,
            f"You are no longer a member of {locked.name}.",
            link=reverse("leagues:clubs"),
        )


def change_role(club: Club, by: User, user_id: int, role: str) -> Membership:
    """The owner makes a member an organiser, a moderator or a plain member."""
    if role not in ASSIGNABLE:
        raise LeaguesError(
            "Choose organiser, moderator or member; to hand the club over, make them its owner."
        )
    with transaction.atomic():
        locked = _lock(club)
        _acting(locked, by, {Role.OWNER}, "change roles")
        membership = _member_by_id(locked, user_id)
        if membership.role == Role.OWNER:
            raise Conflict("You own the club: to step down, make another member its owner.")
        if membership.role != role:
            membership.role = role
            membership.save(update_fields=["role"])
            label = Role(role).label.lower()
            _tell(membership.user_id, locked, f"You are now {_a(label)} {label} of {locked.name}.")
    return membership


def transfer_ownership(club: Club, by: User, user_id: int) -> Membership:
    """The owner hands the club to another member and stays on as an organiser."""
    with transaction.atomic():
        locked = _lock(club)
        acting = _acting(locked, by, {Role.OWNER}, "hand the club over")
        membership = _member_by_id(locked, user_id)
        if membership.pk == acting.pk:
            raise Conflict("You own the club already.")
        # One owner per club, checked row by row: step down before the new owner steps up.
        acting.role = Role.ORGANISER
        acting.save(update_fields=["role"])
        membership.role = Role.OWNER
        membership.save(update_fields=["role"])
        _tell(membership.user_id, locked, f"{by} made you the owner of {locked.name}.")
    return membership


# --- under the club's lock -------------------------------------------------------------


def _lock(club: Club) -> Club:
    locked = Club.objects.select_for_update().filter(pk=club.pk).first()
    if locked is None:
        raise NotFound(NO_SUCH_CLUB)
    return locked


def _membership(club: Club, user: User) -> Membership | None:
    return Membership.objects.filter(club=club, user=user).first()


def _acting(club: Club, user: User, roles: set[Role] | frozenset[Role], doing: str) -> Membership:
    """``user``'s membership, if their role is one of ``roles`` and no suspension takes
    its powers away (:func:`leagues.permissions.ensure_staff` says which refuses)."""
    membership = _membership(club, user)
    if membership is None and club.is_private:
        raise NotFound(NO_SUCH_CLUB)
    who = "the owner" if roles == {Role.OWNER} else "the club's organisers"
    ensure_staff(user, club, roles, f"Only {who} may {doing}.")
    assert membership is not None  # ensure_staff refuses a non-member
    return membership


def _member_by_id(club: Club, user_id: int) -> Membership:
    membership = (
        Membership.objects.select_related("user").filter(club=club, user_id=user_id).first()
    )
    if membership is None:
        raise NotFound("That member is not in the club.")
    return membership


def _pending(kind: type[A], club: Club, user: User) -> A | None:
    return kind.objects.filter(club=club, user=user, status=Pending.PENDING).first()


def _pending_by_id(kind: type[A], club: Club, pk: int, name: str) -> A:
    found = kind.objects.select_related("user").filter(club=club, pk=pk).first()
    if found is None:
        raise NotFound(f"There is no such {name}.")
    if found.status != Pending.PENDING:
        raise Conflict(f"This {name} was {found.get_status_display().lower()} already.")
    return found


def _invitation_of(club: Club, user: User) -> ClubInvitation:
    invitation = _pending(ClubInvitation, club, user)
    if invitation is not None:
        return invitation
    if club.is_private and _membership(club, user) is None:
        raise NotFound(NO_SUCH_CLUB)
    raise Conflict("You have no invitation to this club waiting: it was answered or withdrawn.")


def _admit(club: Club, user: User) -> Membership:
    """``user`` becomes a member; what they had waiting to join is answered with it."""
    membership, _ = Membership.objects.get_or_create(club=club, user=user)
    waiting = [_pending(ClubInvitation, club, user), _pending(JoinRequest, club, user)]
    for admission in waiting:
        if admission is not None:
            _decide(admission, Pending.ACCEPTED)
    return membership


def _decide(
    admission: ClubInvitation | JoinRequest, status: Pending, by: User | None = None
) -> None:
    """Answer an invitation or a request; its notifications need nothing more."""
    admission.status = status
    admission.decided_at = timezone.now()
    fields = ["status", "decided_at"]
    if isinstance(admission, JoinRequest) and by is not None:
        admission.decided_by = by
        fields.append("decided_by")
    admission.save(update_fields=fields)
    _mark_answered(admission)


def _mark_answered(subject: models.Model) -> None:
    unread = Notification.objects.filter(notices.about(subject), read_at=None)
    by_user: dict[int, list[int]] = defaultdict(list)
    for pk, user_id in unread.values_list("pk", "user_id"):
        by_user[user_id].append(pk)
    for user in User.objects.filter(pk__in=by_user):
        notices.mark_read(user, by_user[user.pk])


def _tell(
    user_id: int,
    club: Club,
    text: str,
    link: str = "",
    subject: models.Model | None = None,
    key: str = "",
) -> None:
    """Club news for ``user_id``, about the club unless said otherwise."""
    link = link or reverse("leagues:club", kwargs={"slug": club.slug})
    kind = LeagueNotice.CLUB_NEWS
    notices.create(user_id, kind, text, link, subject=subject or club, key=key)


def _organiser_ids(club: Club) -> list[int]:
    return list(
        Membership.objects.filter(club=club, role__in=ORGANISING).values_list("user_id", flat=True)
    )


# --- checking what members type --------------------------------------------------------


def _member_called(username: str) -> User:
    username = username.strip().removeprefix("@")
    if not username:
        raise LeaguesError("Type the username of the member to invite.")
    found = list(User.objects.filter(username__iexact=username, is_active=True)[:2])
    exact = [user for user in found if user.username == username]
    if len(exact) == 1 or len(found) == 1:
        return (exact or found)[0]
    raise LeaguesError(f"No member is called {username[:40]!r}: check the spelling.")


def _checked_name(name: str) -> str:
    name = " ".join(name.split())
    if len(name) < 2:
        raise LeaguesError("Give the club a name of at least 2 characters.")
    if len(name) > NAME_LENGTH:
        raise LeaguesError(f"Keep the club's name under {NAME_LENGTH} characters.")
    return name


def _checked_description(description: str) -> str:
    description = description.strip()
    if len(description) > DESCRIPTION_LENGTH:
        raise LeaguesError(f"Keep the description under {DESCRIPTION_LENGTH} characters.")
    return description


def _check_name_free(name: str, besides: Club | None = None) -> None:
    same = Club.objects.filter(name__iexact=name)
    if besides is not None:
        same = same.exclude(pk=besides.pk)
    if same.exists():
        raise Conflict(NAME_TAKEN)


def _checked_slug(slug: str) -> str:
    slug = slug.strip().lower()
    if not slug or len(slug) > MAX_LENGTH or slug != slug_for(slug, taken=lambda s: False):
        raise LeaguesError(
            "An address is made of lower-case letters, digits and hyphens, like tile-club."
        )
    if slug in CLUB_SLUGS_RESERVED or Club.objects.filter(slug=slug).exists():
        raise Conflict(ADDRESS_TAKEN)
    return slug


def _slug_from(name: str) -> str:
    try:
        return slug_for(
            name,
            taken=lambda slug: Club.objects.filter(slug=slug).exists(),
            fallback="club",
            reserved=CLUB_SLUGS_RESERVED,
        )
    except ValueError:
        raise Conflict("Too many clubs have a name like this one: choose another.") from None


def _a(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"
