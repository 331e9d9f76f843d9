"""Mail of the accounts app, sent by a Celery worker rather than in the request."""

from __future__ import annotations

from urllib.parse import urlsplit

from celery import shared_task
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import User


@shared_task(soft_time_limit=30, time_limit=60)
def send_password_reset(user_id: int) -> None:
    """Mail a member the link that sets a new password.

    The link is made here, from the member as they are now (a link made for a password
    that has changed since would not work), and points to SITE_URL, never to a host
    named by the request.
    """
    user = User.objects.filter(pk=user_id, is_active=True).exclude(email="").first()
    if user is None or not user.has_usable_password():
        return
    site = urlsplit(settings.SITE_URL)
    context = {
        "email": user.email,
        "domain": site.netloc,
        "site_name": "Rummikub Club",
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "user": user,
        "token": default_token_generator.make_token(user),
        "protocol": site.scheme,
    }
    PasswordResetForm().send_mail(
        "registration/password_reset_subject.txt",
        "registration/password_reset_email.html",
        context,
        settings.DEFAULT_FROM_EMAIL,
        user.email,
    )
