"""Admin pages of clubs: each club with its members and roles, and the invitations and
requests to join (kept as a record: answered ones are not edited)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from leagues.models import Club, ClubInvitation, JoinRequest, Membership
from leagues.services import clubs


class MembershipInline(admin.TabularInline[Membership, Club]):
    model = Membership
    extra = 0
    fields = ["user", "role", "joined_at"]
    readonly_fields = ["joined_at"]
    raw_id_fields = ["user"]
    ordering = ["role", "user__username"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ["name", "slug", "is_private", "member_count", "created_at"]
    list_filter = ["is_private"]
    search_fields = ["name", "slug"]
    readonly_fields = ["slug", "invite_code", "created_at"]
    fields = ["name", "slug", "description", "is_private", "invite_code", "created_at"]
    inlines = [MembershipInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        return super().get_queryset(request).annotate(members=Count("memberships"))

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        # As the club's own settings page does: its fixture tables follow the club's
        # privacy, or a club made private here would leave its games to everyone.
        super().save_model(request, obj, form, change)
        clubs.mark_fixture_tables(obj)

    @admin.display(description="Members", ordering="members")
    def member_count(self, club: Any) -> int:
        members: int = club.members
        return members


class AdmissionAdmin(admin.ModelAdmin[Any]):
    list_display = ["user", "club", "status", "created_at", "decided_at"]
    list_filter = ["status"]
    search_fields = ["user__username", "club__name"]
    list_select_related = ["user", "club"]
    raw_id_fields = ["user", "club"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Answered through the club's pages, which notify and admit the member.
        return False


@admin.register(ClubInvitation)
class ClubInvitationAdmin(AdmissionAdmin):
    list_display = [*AdmissionAdmin.list_display, "invited_by"]


@admin.register(JoinRequest)
class JoinRequestAdmin(AdmissionAdmin):
    list_display = [*AdmissionAdmin.list_display, "decided_by"]
