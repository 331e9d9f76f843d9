"""The club pages: the list, a new club, a club's page, its settings and members, and
the ways in (an invitation, the invitation link, a request to join).

A club a viewer may not see (a private one they are not a member of) answers 404 on
every address of it, the same as a club that does not exist. A form refused by a
service shows its page again with the reason and a 4xx status; nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from accounts.limits import limit_posts
from common.requests import AuthenticatedRequest
from leagues.errors import LeaguesError
from leagues.forms.clubs import (
    ClubForm,
    InviteForm,
    JoinRequestForm,
    NewClubForm,
    RoleForm,
    club_initial,
)
from leagues.models import Club
from leagues.permissions import role_in, why_not_staff
from leagues.selectors import clubs as pages
from leagues.services import clubs

NO_SUCH_CLUB = "There is no such club."
ORGANISERS_PAGE = "Only the club's organisers may see this page."
Page = Callable[[AuthenticatedRequest, Club, int], HttpResponse]


# --- finding the club ------------------------------------------------------------------


def visible_club(request: AuthenticatedRequest, slug: str, *, organisers: bool = False) -> Club:
    """The club at ``slug`` if the viewer may see it (else 404, as if there were none);
    with ``organisers``, only if they may use the organisers' powers now (else 403 with
    why not: :func:`leagues.permissions.why_not_staff`)."""
    club = get_object_or_404(Club, slug=slug)
    if not request.user.has_perm("leagues.view_club", club):
        raise Http404(NO_SUCH_CLUB)
    refusal = why_not_staff(request.user, club, refusal=ORGANISERS_PAGE) if organisers else None
    if refusal is not None:
        raise PermissionDenied(refusal)
    return club


def _act(
    request: AuthenticatedRequest,
    club: Club,
    service: Callable[..., object],
    *args: object,
    done: str,
    page: Page,
    then: str = "",
) -> HttpResponse:
    """Run ``service(club, request.user, *args)``; then go to ``then`` (the club's page)
    with ``done``, or show ``page`` again with the reason it was refused."""
    try:
        service(club, request.user, *args)
    except LeaguesError as error:
        return _refused(request, club, error, page)
    if done:
        messages.success(request, done)
    return redirect(then or reverse("leagues:club", kwargs={"slug": club.slug}))


def _manage(
    request: AuthenticatedRequest,
    slug: str,
    service: Callable[..., object],
    *args: object,
    done: str,
) -> HttpResponse:
    """``service(club, request.user, *args)``: an organiser's action on the members' page,
    which it shows again either way."""
    found = visible_club(request, slug)
    members_url = reverse("leagues:members", kwargs={"slug": found.slug})
    return _act(request, found, service, *args, done=done, page=_members_page, then=members_url)


def _refused(
    request: AuthenticatedRequest, club: Club, error: LeaguesError, page: Page
) -> HttpResponse:
    if error.status == 404:
        raise Http404(error.message)
    messages.error(request, error.message)
    club.refresh_from_db()
    return page(request, club, error.status)


# --- the list and a new club -----------------------------------------------------------


@require_safe
@vary_on_headers("HX-Request")
def club_list(request: AuthenticatedRequest) -> HttpResponse:
    """Public clubs and the viewer's own; ``q`` searches their names. The search box
    swaps in the results only (htmx), and puts the search in the address; going back
    to it restores the whole page."""
    query = request.GET.get("q", "")
    listed = pages.club_list(request.user, query, request.GET.get("page"))
    context = {"clubs": listed, "query": " ".join(query.split())[: pages.QUERY_LENGTH]}
    results_only = request.htmx and not request.htmx.history_restore_request
    template = "leagues/club_list.html#results" if results_only else "leagues/club_list.html"
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@limit_posts("new_club_per_member", key="user")
def new_club(request: AuthenticatedRequest) -> HttpResponse:
    if request.method != "POST":
        return render(request, "leagues/new_club.html", {"form": NewClubForm()})
    form = NewClubForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            club = clubs.create_club(
                request.user,
                data["name"],
                slug=data["slug"],
                description=data["description"],
                is_private=data["is_private"],
            )
        except LeaguesError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, f"{club.name} is open. Invite your members.")
            return redirect("leagues:club", slug=club.slug)
    return render(request, "leagues/new_club.html", {"form": form}, status=400)


# --- a club's pages --------------------------------------------------------------------


@require_safe
def club(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    return _club_page(request, visible_club(request, slug))


def _club_page(
    request: AuthenticatedRequest, found: Club, status: int = 200, **extra: Any
) -> HttpResponse:
    context = {
        "page": pages.club_page(found, request.user),
        "request_form": extra.get("request_form") or JoinRequestForm(),
    }
    return render(request, "leagues/club.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_settings(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    found = visible_club(request, slug, organisers=True)
    if request.method != "POST":
        return _settings_page(request, found, form=ClubForm(initial=club_initial(found)))
    form = ClubForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            clubs.update_club(
                found,
                request.user,
                name=data["name"],
                description=data["description"],
                is_private=data["is_private"],
            )
        except LeaguesError as error:
            if error.status == 404:
                raise Http404(error.message) from None
            form.add_error(None, error.message)
        else:
            messages.success(request, "The club's settings are saved.")
            return redirect("leagues:club", slug=found.slug)
    return _settings_page(request, found, status=400, form=form)


def _settings_page(
    request: AuthenticatedRequest, found: Club, status: int = 200, form: ClubForm | None = None
) -> HttpResponse:
    context = {
        "club": found,
        "viewer": pages.viewer_of(found, request.user),
        "form": form or ClubForm(initial=club_initial(found)),
        "invite_link": request.build_absolute_uri(
            reverse("leagues:join_link", kwargs={"slug": found.slug, "code": found.invite_code})
        ),
    }
    return render(request, "leagues/club_settings.html", context, status=status)


@login_required
@require_POST
def renew_link(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    found = visible_club(request, slug)
    done = "A new invitation link is ready; the old one no longer works."
    return _act(
        request,
        found,
        clubs.renew_invite_link,
        done=done,
        page=_settings_page,
        then=reverse("leagues:settings", kwargs={"slug": found.slug}),
    )


@require_safe
def members(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    """Every member with their role; organisers manage them here."""
    return _members_page(request, visible_club(request, slug))


def _members_page(
    request: AuthenticatedRequest, found: Club, status: int = 200, **extra: Any
) -> HttpResponse:
    viewer = pages.viewer_of(found, request.user)
    context = {
        "club": found,
        "viewer": viewer,
        "members": pages.members_page(found, request.GET.get("page")),
        "invitations": pages.pending_invitations(found) if viewer.organises else [],
        "requests": pages.pending_requests(found) if viewer.organises else [],
        "invite_form": extra.get("invite_form") or InviteForm(),
        "role_form": RoleForm(),
    }
    return render(request, "leagues/members.html", context, status=status)


# --- invitations -----------------------------------------------------------------------


@login_required
@require_POST
@limit_posts("club_invitations_per_member", key="user")
def invite(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    """Invite a member by username; htmx swaps in the form and the invitations waiting."""
    found = visible_club(request, slug)
    form = InviteForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            invitation = clubs.invite(found, request.user, form.cleaned_data["username"])
        except LeaguesError as error:
            if error.status == 404:
                raise Http404(error.message) from None
            form.add_error("username", error.message)
            status = error.status
        else:
            notice = f"{invitation.user} is invited: they will find it in their notifications."
            if not request.htmx:
                messages.success(request, notice)
                return redirect("leagues:members", slug=found.slug)
            context = {
                "club": found,
                "invitations": pages.pending_invitations(found),
                "invite_form": InviteForm(),
                "notice": notice,
            }
            return render(request, "leagues/members.html#invitations", context)
    if not request.htmx:
        return _members_page(request, found, status, invite_form=form)
    context = {
        "club": found,
        "invitations": pages.pending_invitations(found),
        "invite_form": form,
    }
    return render(request, "leagues/members.html#invitations", context, status=status)


@login_required
@require_safe
def invitation(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    """The member's invitation to a club (where its notification leads), to answer."""
    found = get_object_or_404(Club, slug=slug)
    return _invitation_page(request, found)


def _invitation_page(request: AuthenticatedRequest, found: Club, status: int = 200) -> HttpResponse:
    viewer = pages.viewer_of(found, request.user)
    if viewer.invitation is None:
        if not request.user.has_perm("leagues.view_club", found):
            raise Http404(NO_SUCH_CLUB)
        if status == 200:
            if viewer.is_member:
                messages.info(request, f"You are a member of {found.name}.")
            else:
                messages.info(request, "You have no invitation to this club waiting.")
            return redirect("leagues:club", slug=found.slug)
    context = {"club": found, "viewer": viewer}
    return render(request, "leagues/invitation.html", context, status=status)


@login_required
@require_POST
def accept_invitation(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(Club, slug=slug)
    done = f"Welcome to {found.name}!"
    return _act(request, found, clubs.accept_invitation, done=done, page=_invitation_page)


@login_required
@require_POST
def decline_invitation(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(Club, slug=slug)
    done = f"You declined the invitation to {found.name}."
    return _act(
        request,
        found,
        clubs.decline_invitation,
        done=done,
        page=_invitation_page,
        then=reverse("leagues:clubs"),
    )


@login_required
@require_POST
def withdraw_invitation(request: AuthenticatedRequest, slug: str, pk: int) -> HttpResponse:
    done = "The invitation is withdrawn."
    return _manage(request, slug, clubs.withdraw_invitation, pk, done=done)


@require_http_methods(["GET", "HEAD", "POST"])
def join_link(request: AuthenticatedRequest, slug: str, code: str) -> HttpResponse:
    """The club's invitation link: it asks a signed-in member to confirm (a GET changes
    nothing: link previews and prefetches must not join anyone), and joins on the
    confirmation's POST; a visitor logs in (or signs up) first and comes back here."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        if request.method != "POST":
            club = pages.club_of_link(slug, code)
            if role_in(request.user, club) is None:
                return render(request, "leagues/join_link.html", {"club": club})
        membership, joined = clubs.join_by_link(slug, code, request.user)
    except LeaguesError as error:
        context = {"message": error.message}
        return render(request, "leagues/link_invalid.html", context, status=error.status)
    name = membership.club.name
    if joined:
        messages.success(request, f"Welcome to {name}!")
    else:
        messages.info(request, f"You are a member of {name} already.")
    return redirect("leagues:club", slug=slug)


# --- requests to join, leaving ---------------------------------------------------------


@login_required
@require_POST
def request_to_join(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    found = visible_club(request, slug)
    form = JoinRequestForm(request.POST)
    if not form.is_valid():
        return _club_page(request, found, 400, request_form=form)
    done = "Your request is sent: the organisers will answer it."
    return _act(
        request,
        found,
        clubs.request_to_join,
        form.cleaned_data["message"],
        done=done,
        page=_club_page,
    )


@login_required
@require_POST
def withdraw_request(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    found = visible_club(request, slug)
    done = "Your request to join is withdrawn."
    return _act(request, found, clubs.withdraw_request, done=done, page=_club_page)


@login_required
@require_POST
def approve_request(request: AuthenticatedRequest, slug: str, pk: int) -> HttpResponse:
    done = "The request is approved: welcome to your new member."
    return _manage(request, slug, clubs.approve_request, pk, done=done)


@login_required
@require_POST
def decline_request(request: AuthenticatedRequest, slug: str, pk: int) -> HttpResponse:
    done = "The request is declined."
    return _manage(request, slug, clubs.decline_request, pk, done=done)


@login_required
@require_POST
def leave(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    found = visible_club(request, slug)
    done = f"You have left {found.name}."
    return _act(
        request, found, clubs.leave, done=done, page=_club_page, then=reverse("leagues:clubs")
    )


# --- members and roles -----------------------------------------------------------------


@login_required
@require_POST
def remove_member(request: AuthenticatedRequest, slug: str, pk: int) -> HttpResponse:
    done = "The member is removed from the club."
    return _manage(request, slug, clubs.remove_member, pk, done=done)


@login_required
@require_POST
def change_role(request: AuthenticatedRequest, slug: str, pk: int) -> HttpResponse:
    role = request.POST.get("role", "")  # the service names the roles it gives
    done = "The role is changed."
    return _manage(request, slug, clubs.change_role, pk, role, done=done)


@login_required
@require_POST
def transfer_ownership(request: AuthenticatedRequest, slug: str, pk: int) -> HttpResponse:
    done = "The club has a new owner; you stay on as an organiser."
    return _manage(request, slug, clubs.transfer_ownership, pk, done=done)
