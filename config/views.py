from datetime import timedelta

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

NEW_FOR = timedelta(days=1)
"""A member is greeted as new on the day they joined, and welcomed back after."""


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    user = request.user
    new_member = user.is_authenticated and timezone.now() - user.date_joined < NEW_FOR
    return render(request, "home.html", {"new_member": new_member})
