"""The admin reads moderation, it does not write it: every change to a case goes through
the moderation pages, which log it, and the log itself is only ever appended to by them
(its table refuses updates and deletes, and chains its entries by hash)."""

from django.contrib import admin
from django.http import HttpRequest

from moderation.models import Case, LogEntry


class ReadOnly:
    """Neither add, change nor delete: the admin shows the rows."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Case)
class CaseAdmin(ReadOnly, admin.ModelAdmin[Case]):
    """Read only: a case changes through its claim, rulings and appeals, each logged."""

    list_display = ["pk", "category", "status", "game", "club", "opened_at"]
    list_filter = ["status", "category"]


@admin.register(LogEntry)
class LogEntryAdmin(ReadOnly, admin.ModelAdmin[LogEntry]):
    """Read only: the database refuses changes to the log anyway, and an entry added
    here would be one nobody did."""

    list_display = ["at", "action", "actor", "summary", "position"]
