from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.forms import ProfileForm, SignUpForm
from accounts.models import User


class AuthenticatedRequest(HttpRequest):
    """What a view behind ``@login_required`` receives."""

    user: User


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    if request.method != "POST":
        return render(request, "accounts/signup.html", {"form": SignUpForm()})
    form = SignUpForm(request.POST)
    if not form.is_valid():
        return render(request, "accounts/signup.html", {"form": form})
    user = form.save()
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, f"Welcome to the club, {user}!")
    return redirect("home")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request: AuthenticatedRequest) -> HttpResponse:
    if request.method != "POST":
        form = ProfileForm(instance=request.user)
        return render(request, "accounts/profile.html", {"form": form})
    form = ProfileForm(request.POST, instance=request.user)
    if not form.is_valid():
        return render(request, "accounts/profile.html", {"form": form})
    form.save()
    messages.success(request, "Your profile is saved.")
    return redirect("profile")
