"""The facts of notifications, announced after the transaction that made them commits
(:func:`games.signals.send_after_commit`)."""

from __future__ import annotations

from django.dispatch import Signal

notification_created = Signal()
"""A member was notified (sender: ``Notification``).

``notification_id``, ``user_id``; ``email_now``: whether they want it emailed at once;
``push_now``: whether it is pushed to their devices."""
