"""Who may do what in games, as ``rules`` permissions (registered when ``ready()``
imports this module): ``games.view_table``, a table or a game (through its table) that
the member may see, as :mod:`games.selectors.sight` answers it.
"""

from __future__ import annotations

from typing import Any

from rules.permissions import add_perm
from rules.predicates import Predicate

from games.models import Game, Table
from games.selectors.sight import may_see


@Predicate
def can_view_table(user: Any, obj: Any) -> bool:
    """A table, or a game (through its table)."""
    table = obj.table if isinstance(obj, Game) else obj
    return isinstance(table, Table) and may_see(user, table)


# rules does not annotate add_perm.
add_perm("games.view_table", can_view_table)  # type: ignore[no-untyped-call]
