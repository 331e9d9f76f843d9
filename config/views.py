from datetime import timedelta

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from games.selectors import listing

NEW_FOR = timedelta(days=1)
"""A member is greeted as new on the day they joined, and welcomed back after."""


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    user = request.user
    new_member = user.is_authenticated and timezone.now() - user.date_joined < NEW_FOR
    context: dict[str, object] = {"new_member": new_member}
    if user.is_authenticated:
        context.update(listing.my_lists(user))
    return render(request, "home.html", context)
