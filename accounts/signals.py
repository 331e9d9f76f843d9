"""Facts about a member's account that other apps follow (connected in their
``AppConfig.ready()``)."""

from django.dispatch import Signal

password_changed = Signal()
"""A member changed their password, or reset it: ``user``. Whoever learnt their old
password may also have learnt their other secrets (the leagues renew the calendar
feed's address)."""
