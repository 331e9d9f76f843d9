"""``{{ member|record_link }}``: a member's name, linked to their record, where a page
names a member to a moderator (the case page, the queue, the log, the archive)."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts.models import User

register = template.Library()


@register.filter
def record_link(member: User | None) -> SafeString | str:
    if member is None:
        return ""
    url = reverse("moderation:member", args=[member.username])
    return format_html('<a href="{}" class="member-record-link">{}</a>', url, member)
