"""Admin pages: tables with their seats, games without their secrets, the move log read only."""

from typing import Any

from django.contrib import admin
from django.forms import BaseModelFormSet, ModelForm
from django.http import HttpRequest
from django.utils import timezone

from games.models import Game, Move, Result, Seat, Table
from games.services import notifications


def has_started(table: Any) -> bool:
    return isinstance(table, Table) and table.status != Table.Status.OPEN


class SeatInline(admin.TabularInline[Seat, Table]):
    """Seats may be rearranged while the table waits for players. Once it started they
    are fixed: whoever sat down in a game in play would see that seat's rack.

    (Django passes an inline's permission checks the parent table, though the stubs
    name the inline's model.)
    """

    model = Seat
    extra = 0
    fields = ["number", "kind", "user", "bot_level"]
    raw_id_fields = ["user"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not has_started(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not has_started(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not has_started(obj) and super().has_delete_permission(request, obj)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    """A table is arranged here while it waits for players. Once its round started, its
    rules and clock are what the games are played under, and its seats say whose racks
    are whose: the table is shown, not changed, and not deleted (its games and their move
    logs would go with it), whether from its page or by the list's delete action."""

    list_display = ["id", "creator", "preset", "status", "turn_seconds", "created_at"]
    list_filter = ["status", "preset"]
    inlines = [SeatInline]
    # The round seed and the round (which holds it) would let an admin deal the games.
    exclude = ["round_seed", "round"]
    # The status moves only through the games' services (a round starts, ends).
    readonly_fields = ["status", "ruleset", "started_at", "finished_at"]
    raw_id_fields = ["creator"]

    def has_change_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return not has_started(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        # Without a table (the list's delete action), Django asks again for each selected
        # table before it deletes any.
        return not has_started(obj) and super().has_delete_permission(request, obj)

    def save_related(
        self,
        request: HttpRequest,
        form: ModelForm[Table],
        formsets: list[BaseModelFormSet[Any, Any]],
        change: bool,
    ) -> None:
        """A seat kept for a member here is an invitation from the table's creator, as
        in the lobby; one taken back settles the member's invitation."""
        super().save_related(request, form, formsets, change)
        table = form.instance
        notifications.invited(table, table.creator)
        notifications.seats_changed(table, timezone.now())


class ReadOnlyMixin:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MoveInline(ReadOnlyMixin, admin.TabularInline[Move, Game]):
    model = Move
    extra = 0
    fields = readonly_fields = ("seq", "turn_number", "seat", "by", "user", "action", "created_at")


class ResultInline(ReadOnlyMixin, admin.TabularInline[Result, Game]):
    """Every result row of the game, superseded ones too (rulings change results through
    games.services.results.supersede, never here)."""

    model = Result
    extra = 0
    fk_name = "game"
    fields = readonly_fields = (
        "seat",
        "member",
        "score",
        "rack_value",
        "place",
        "is_winner",
        "source",
        "supersedes",
        "reason",
        "decided_by",
        "created_at",
    )


@admin.register(Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin[Game]):
    """Games change only through moves (games.services); the admin only shows them."""

    list_display = ["id", "table", "number", "status", "version", "turn_number", "current_seat"]
    list_filter = ["status"]
    # The seed and the cached state hold every rack and the pool order.
    exclude = ["seed", "state"]
    inlines = [ResultInline, MoveInline]
