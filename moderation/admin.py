from django.contrib import admin

from moderation.models import Case, LogEntry


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin[Case]):
    list_display = ["pk", "category", "status", "game", "club", "opened_at"]
    list_filter = ["status", "category"]


@admin.register(LogEntry)
class LogEntryAdmin(admin.ModelAdmin[LogEntry]):
    """Read only: the database refuses changes to the log anyway."""

    list_display = ["at", "action", "actor", "summary"]

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False
