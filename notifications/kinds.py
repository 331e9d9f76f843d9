"""The kinds of notification, each registered by the app whose notices they are.

An app registers its kinds in its ``AppConfig.ready()`` (games: a turn, a table's
invitation; leagues: clubs, matchdays, seasons; moderation: cases, outcomes, the queue),
each with its label, how it is emailed unless a member chooses otherwise, its email's
templates, and what decides that one of its notices is no longer current. This app asks
the registry, so it never names another app's kinds, nor imports the app.

The members' preferences page lists the kinds in the order they were registered (the
apps' order in ``INSTALLED_APPS``, then each app's own). A notice of a kind nobody
registers is refused when it is created (:func:`get`).

>>> get("carrier_pigeon")
Traceback (most recent call last):
...
notifications.kinds.UnknownKind: unknown kind of notification 'carrier_pigeon'
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from accounts.models import User
    from notifications.models import Notification


class UnknownKind(ValueError):
    """A kind of notification that no app registered."""

    def __init__(self, code: str) -> None:
        super().__init__(f"unknown kind of notification {code!r}")


@dataclass(frozen=True)
class Count:
    """How a digest's subject counts its notices of some kinds ("2 games"): ``one`` and
    ``many``; counts of a lower ``rank`` come first. Kinds without one are "other
    notices", counted last."""

    one: str
    many: str
    rank: int = 0


OTHER = Count("other notice", "other notices", rank=1_000)


@dataclass(frozen=True)
class Kind:
    """A kind of notification as its app registers it.

    ``delivery``: how it is sent when the member chose nothing (a
    :class:`notifications.models.Delivery` value). ``template``: its email's templates
    without their endings (``<template>.txt``, ``<template>_subject.txt``); by default
    ``emails/<code>``.

    Whether one of its notices is still current, asked where it matters:

    - ``current``: which of these notices (a member's, newest first) the list still
      shows: their ids. Kinds sharing one function are judged together (a turn's two
      notices: only the newer shows). None: every one.
    - ``mail_skip``: why a notice's email or push is no longer worth sending when its
      task runs or its digest is written (``"turn over"``, ``"watching"``), or ``None``
      to send it.

    ``deadline_ends_turn``: whether a notice's deadline is the end of the member's turn
    (its email says "your turn ends"), not a date something is due by.
    ``counted_as``: how a digest's subject counts it.
    ``offered_to``: whether a member is offered a choice of its delivery (a moderator's
    kind is no concern of other members); None: every member.
    """

    code: str
    label: str
    delivery: str
    template: str = ""
    current: Callable[[Sequence[Notification]], Collection[int]] | None = None
    mail_skip: Callable[[Notification], str | None] | None = None
    deadline_ends_turn: Callable[[Notification], bool] | None = None
    counted_as: Count = OTHER
    offered_to: Callable[[User], bool] | None = None

    @property
    def email_template(self) -> str:
        return self.template or f"emails/{self.code}"


_registry: dict[str, Kind] = {}


def register(*kinds: Kind) -> None:
    """Register ``kinds``. The same kind again changes nothing (an app made ready twice);
    another kind under a code already taken is refused."""
    for kind in kinds:
        known = _registry.setdefault(kind.code, kind)
        if known != kind:
            raise ValueError(f"the kind of notification {kind.code!r} is registered already")


def get(code: str) -> Kind:
    """The registered kind ``code``; :class:`UnknownKind` if there is none."""
    try:
        return _registry[code]
    except KeyError:
        raise UnknownKind(code) from None


def find(code: str) -> Kind | None:
    """The registered kind ``code``, or ``None`` (a kind no longer registered: its
    notices stay as they are)."""
    return _registry.get(code)


def registered() -> list[Kind]:
    """Every kind, in the order they were registered."""
    return list(_registry.values())


def offered(user: User) -> list[Kind]:
    """The kinds whose delivery ``user`` may choose, in the order they were registered."""
    return [kind for kind in _registry.values() if kind.offered_to is None or kind.offered_to(user)]


def label_of(code: str) -> str:
    """What a kind of notification is called (its code, for a kind no longer known)."""
    kind = _registry.get(code)
    return kind.label if kind is not None else code
