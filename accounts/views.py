from datetime import timedelta
from math import ceil
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods
from django.views.generic.edit import FormView

from accounts.forms import PasswordResetForm, ProfileForm, SignUpForm
from accounts.limits import wait_after
from accounts.models import User
from accounts.signals import password_changed
from common.requests import AuthenticatedRequest


class SiteFormView(FormView):  # type: ignore[type-arg]
    """Django's form views as the site's other forms behave. A form sent back with its
    errors is a 400 (Django's is a 200), as on every page of the site: the request was
    refused and changed nothing. And PUT is refused (Django's treat it as POST): our
    forms are only ever posted."""

    http_method_names = ["get", "head", "post", "options"]

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        response.status_code = 400
        return response


class LoginView(SiteFormView, auth_views.LoginView):
    redirect_authenticated_user = True


class PasswordChangeView(SiteFormView, auth_views.PasswordChangeView):
    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        password_changed.send(sender=User, user=form.user)
        return response


class PasswordResetView(SiteFormView, auth_views.PasswordResetView):
    form_class = PasswordResetForm


class PasswordResetConfirmView(SiteFormView, auth_views.PasswordResetConfirmView):
    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        password_changed.send(sender=User, user=form.user)
        return response


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        wait = wait_after(request, "signup_per_address", key="ip")
        if wait is not None:
            return _signup_refused(request, wait)
    if request.user.is_authenticated:
        return redirect("home")
    if request.method != "POST":
        return render(request, "accounts/signup.html", {"form": SignUpForm()})
    form = SignUpForm(request.POST)
    if not form.is_valid():
        return render(request, "accounts/signup.html", {"form": form}, status=400)
    user = form.save()
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, f"Welcome to the club, {user}!")
    return redirect("home")


def _signup_refused(request: HttpRequest, wait: int) -> HttpResponse:
    """A sign-up past its address's limit: nothing was done, and the form comes back
    filled in as it was sent (but for the passwords, never sent back to a page), with
    when to try again, so that a club signing up its members need not type it again."""
    kept = {
        name: request.POST[name]
        for name in SignUpForm.base_fields
        if name in request.POST and not name.startswith("password")
    }
    context = {
        "form": SignUpForm(initial=kept),
        "retry_minutes": ceil(wait / 60),
        "retry_at": timezone.now() + timedelta(seconds=wait),
    }
    return render(request, "accounts/signup.html", context, status=429)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request: AuthenticatedRequest) -> HttpResponse:
    if request.method != "POST":
        form = ProfileForm(instance=request.user)
        return render(request, "accounts/profile.html", {"form": form})
    form = ProfileForm(request.POST, instance=request.user)
    if not form.is_valid():
        return render(request, "accounts/profile.html", {"form": form}, status=400)
    form.save()
    messages.success(request, "Your profile is saved.")
    return redirect("profile")


def rate_limited(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A request past its rate limit (``accounts.limits``): nothing was done."""
    template = "429.html#refusal" if getattr(request, "htmx", False) else "429.html"
    return render(request, template, status=429)


def locked_out(
    request: HttpRequest, response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """django-axes' answer to a log-in of a locked-out username and address: when to retry.

    Every attempt during the pause restarts it (axes' default), so the pause ends one
    cool-off time after this one.
    """
    pause: timedelta = settings.AXES_COOLOFF_TIME
    context = {"minutes": ceil(pause.total_seconds() / 60), "retry_at": timezone.now() + pause}
    return render(request, "registration/locked_out.html", context, status=429)
