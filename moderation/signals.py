"""The facts of moderation, announced after the transaction that made them commits
(``common.signals.send_after_commit``, the same rules as the games app's signals: ids and
small values only; receivers take ``**kwargs``).

Its receivers (notifications to the parties, pushes to the queue page) subscribe in
:meth:`moderation.apps.ModerationConfig.ready`.
"""

from __future__ import annotations

from django.dispatch import Signal

case_filed = Signal()
"""A report was filed (sender: ``Case``): ``case_id``, ``report_id``; ``joined``: True when
it joined a case already open."""

case_claimed = Signal()
"""A moderator claimed a case, or released it, or the claim lapsed (sender: ``Case``):
``case_id``; ``moderator_id``: the claimer now, or ``None``."""

case_escalated = Signal()
"""A case past its time went to the club's owner or the site moderators (sender: ``Case``):
``case_id``; ``escalation``: a ``Case.Escalation`` value."""

ruling_proposed = Signal()
"""A ruling waits for a second moderator's confirmation (sender: ``Ruling``): ``case_id``,
``ruling_id``."""

ruling_declined = Signal()
"""A second moderator declined a proposed ruling (sender: ``Ruling``): ``case_id``,
``ruling_id``; the reason is in the log."""

ruling_applied = Signal()
"""A ruling took effect (sender: ``Ruling``): ``case_id``, ``ruling_id``; ``superseded_id``:
the earlier ruling it undid, or ``None``."""

appeal_changed = Signal()
"""An appeal was opened, written in, answered or closed (sender: ``Appeal``): ``appeal_id``,
``case_id``; ``by_moderator``: whether a moderator wrote."""
