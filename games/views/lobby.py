"""The lobby: new tables, the lists of tables and games, a table's page, taking a seat."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.limits import limit_posts
from accounts.models import User
from common.parsing import parse_number, parse_optional_number
from common.refusals import answers_bad_input, client_redirect, refused
from common.requests import AuthenticatedRequest
from games import services
from games.conf import play_now_bot_seconds
from games.errors import Barred, GameActionError, NotFound, TableError
from games.forms import MAX_SEATS, TableForm
from games.models import Table
from games.selectors import listing
from games.selectors.chat import table_chat
from games.selectors.scoreboard import scoreboard
from games.views.common import table_or_404


@login_required
@require_safe
def lobby(request: AuthenticatedRequest) -> HttpResponse:
    user = request.user
    return render(
        request,
        "games/lobby.html",
        {
            **listing.my_lists(user),
            "open_tables": listing.open_tables(user),
            "to_watch": listing.games_to_watch(user),
            "finished": listing.finished_tables(user),
        },
    )


@login_required
@require_safe
def my_games(request: AuthenticatedRequest) -> HttpResponse:
    """The member's games and invitations, read again by htmx on the home page after a push
    (the page comes with them). The address itself, opened in the browser, leads to the
    home page where the list belongs."""
    if not request.htmx:
        return redirect("home")
    return render(request, "games/lobby.html#my-games", listing.my_lists(request.user))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@limit_posts("new_table_per_member", key="user")
@limit_posts("new_table_per_address", key="ip")
def new_table(request: AuthenticatedRequest) -> HttpResponse:
    if request.method != "POST":
        form = TableForm(creator=request.user)
        return render(request, "games/new_table.html", {"form": form})
    form = TableForm(request.POST, creator=request.user)
    status = 400
    if form.is_valid():
        data = form.cleaned_data
        try:
            table = services.create_table(
                request.user, data["settings"], data["plans"], private=data["private"]
            )
        except GameActionError as error:
            form.add_error(None, error.message)
            # A suspended member is refused (403); the rest is the form's to correct (400).
            status = 403 if isinstance(error, Barred) else 400
        else:
            if table.status == Table.Status.PLAYING:
                return redirect("games:current", pk=table.pk)
            messages.success(request, "Your table is set: it starts when every seat is taken.")
            return redirect("games:table", pk=table.pk)
    return render(request, "games/new_table.html", {"form": form}, status=status)


@login_required
@require_safe
def table(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """A table: its seats and rules while it waits, the round's scoreboard once it plays.

    htmx polls the seats while the table waits; once the round starts, members go to
    their game.
    """
    found = table_or_404(request, pk, Table.objects.with_seats().select_related("creator"))
    summary = listing.table_summary(found, request.user)
    if request.htmx and found.status != Table.Status.OPEN and summary.is_member:
        return client_redirect(request, reverse("games:current", kwargs={"pk": pk}))
    template = "games/table.html#seats" if request.htmx else "games/table.html"
    return _table_page(request, found, summary, template)


def _table_page(
    request: AuthenticatedRequest,
    found: Table,
    summary: listing.TableSummary,
    template: str = "games/table.html",
    status: int = 200,
) -> HttpResponse:
    context = {
        "table": summary,
        "scores": None if found.status == Table.Status.OPEN else scoreboard(found),
        # The seats' poll (htmx) needs no chat: the page's chat has a socket of its own.
        "chat": None if request.htmx else table_chat(found, request.user),
    }
    return render(request, template, context, status=status)


def _refused(
    request: AuthenticatedRequest, pk: int, error: GameActionError, status: int | None = None
) -> HttpResponse:
    """The table page again, with the reason (and ``status``, the refusal's unless
    given): nothing changed."""
    messages.error(request, error.message)
    found = table_or_404(request, pk, Table.objects.with_seats().select_related("creator"))
    summary = listing.table_summary(found, request.user)
    return _table_page(request, found, summary, status=status or error.status)


@login_required
@require_POST
@answers_bad_input
def join(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Sit at the table: at seat number ``seat``, or at the first open one."""
    table_or_404(request, pk)
    seat = parse_optional_number(request.POST.get("seat"), high=MAX_SEATS - 1)
    try:
        joined = services.join_table(pk, request.user, seat)
    except NotFound as error:
        raise Http404(error.message) from None
    except GameActionError as error:
        return _refused(request, pk, error)
    if joined.status == Table.Status.PLAYING:
        return redirect("games:current", pk=pk)
    messages.success(request, "You have a seat. The game starts when every seat is taken.")
    return redirect("games:table", pk=pk)


@login_required
@require_POST
@answers_bad_input
def change_seat(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """The creator of a waiting table makes an empty seat open, a bot's, or an
    invitation (``seat``: its number; ``occupant``: open, bot-easy, bot-normal,
    bot-strong or invite, with ``username``)."""
    table_or_404(request, pk)
    number = parse_number(request.POST.get("seat"), high=MAX_SEATS - 1)
    try:
        plan = _seat_plan(request.POST.get("occupant", ""), request.POST.get("username", ""))
        table = services.change_seat(pk, request.user, number, plan)
    except NotFound as error:
        raise Http404(error.message) from None
    except GameActionError as error:
        return _refused(request, pk, error)
    if table.status == Table.Status.PLAYING:
        return redirect("games:current", pk=pk)
    messages.success(request, f"Seat {number + 1} is changed.")
    return redirect("games:table", pk=pk)


def _seat_plan(occupant: str, username: str) -> services.SeatPlan:
    if occupant == "open":
        return services.SeatPlan.open()
    if occupant.startswith("bot-"):
        return services.SeatPlan.bot(occupant.removeprefix("bot-"))
    if occupant == "invite":
        member = User.objects.filter(username__iexact=username.strip()).first()
        if member is None:
            raise TableError(f"There is no member called {username.strip()!r}.")
        return services.SeatPlan.reserved_for(member)
    raise TableError("Choose who takes the seat: open, a bot or an invited member.")


@login_required
@require_POST
def cancel(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """The creator calls off their table while it waits for players."""
    table_or_404(request, pk)
    try:
        services.cancel_table(pk, request.user)
    except NotFound as error:
        raise Http404(error.message) from None
    except GameActionError as error:
        return _refused(request, pk, error)
    messages.success(request, f"Table {pk} is called off.")
    return redirect("games:lobby")


@login_required
@require_POST
@limit_posts("new_table_per_member", key="user")
def play_now(request: AuthenticatedRequest) -> HttpResponse:
    """A live game at once: a seat at a table waiting for a player, or a new table where
    a bot sits down if nobody comes soon."""
    try:
        table = services.play_now(request.user)
    except GameActionError as error:
        # A suspended member: refused wherever they would sit, at a waiting table or a new one.
        return refused(request, error)
    if table.status == Table.Status.OPEN and table.creator_id == request.user.pk:
        wait = int(play_now_bot_seconds())
        messages.success(
            request, f"Waiting for an opponent: if nobody sits down within {wait} s, a bot will."
        )
    return _seated_at(request, table)


@login_required
@require_POST
@limit_posts("new_table_per_member", key="user")
def play_again(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """A finished table's player asks for another round with the same seats."""
    table_or_404(request, pk)
    try:
        again = services.play_again(pk, request.user)
    except NotFound as error:
        raise Http404(error.message) from None
    except GameActionError as error:
        # htmx: the button on the game's result, whose message area gets the sentence.
        return refused(request, error, partial(_refused, request, pk, error))
    return _seated_at(request, again)


def _seated_at(request: AuthenticatedRequest, table: Table) -> HttpResponse:
    """Where a member goes once seated: the game if the round started, else its table."""
    name = "games:current" if table.status == Table.Status.PLAYING else "games:table"
    return client_redirect(request, reverse(name, kwargs={"pk": table.pk}))


@login_required
@require_safe
def current(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """The table's latest game (the one being played, or the last one)."""
    found = table_or_404(request, pk)
    latest = listing.current_game_id(found.pk)
    if latest is None:
        return redirect("games:table", pk=pk)
    return redirect("games:game", pk=latest)
