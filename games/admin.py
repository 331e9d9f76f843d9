"""Admin pages: tables with their seats, games without their secrets, the move log read only."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Game, Move, Seat, Table


class SeatInline(admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    fields = ["number", "kind", "user", "bot_level"]
    raw_id_fields = ["user"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ["id", "creator", "preset", "status", "turn_seconds", "created_at"]
    list_filter = ["status", "preset"]
    inlines = [SeatInline]
    # The round seed and the round (which holds it) would let an admin deal the games.
    exclude = ["round_seed", "round"]
    readonly_fields = ["ruleset", "standings", "winner_seat", "started_at", "finished_at"]
    raw_id_fields = ["creator"]


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


@admin.register(Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin[Game]):
    """Games change only through moves (games.services); the admin only shows them."""

    list_display = ["id", "table", "number", "status", "version", "turn_number", "current_seat"]
    list_filter = ["status"]
    # The seed and the cached state hold every rack and the pool order.
    exclude = ["seed", "state"]
    inlines = [MoveInline]
