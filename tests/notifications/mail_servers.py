"""Email backends that stand for an outside SMTP server having a bad day (the settings'
``EMAIL_BACKEND`` in a test): it drops the connection for the first ``failures`` mails
of a test, then takes them (into Django's test outbox)."""

from __future__ import annotations

import smtplib
from collections.abc import Sequence
from typing import ClassVar

from django.core.mail import EmailMessage
from django.core.mail.backends.locmem import EmailBackend


class FlakyServer(EmailBackend):
    failures: ClassVar[int] = 0
    attempts: ClassVar[int] = 0

    @classmethod
    def failing(cls, failures: int) -> None:
        cls.failures, cls.attempts = failures, 0

    def send_messages(self, messages: Sequence[EmailMessage]) -> int:
        FlakyServer.attempts += 1
        if FlakyServer.attempts <= FlakyServer.failures:
            raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        return super().send_messages(messages)
