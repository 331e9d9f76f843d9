"""The reads of the games app: what pages, pushes and the header show, as plain values.

Apart from the writes (:mod:`games.services`), and never importing them: a read locks
nothing, changes nothing and announces nothing, so a page can call any of these at any
time (the ``reads-not-writes`` contract of ``pyproject.toml``). Each shape of data has
one builder; reads that pages repeat on their own are QuerySet methods
(beside their models in :mod:`games.models`), which these build on.

Modules, by shape: :mod:`.rows` (a game as a row: :class:`~.rows.GameRow`, the one
builder behind every list of games and the game page's heading), :mod:`.seats` (a
table's seats in order, the seat a member plays), :mod:`.results` (a finished game's
result as it counts now), :mod:`.listing` (the lobby's lists of tables and games),
:mod:`.your_move`, :mod:`.header` (the header's counts), :mod:`.scoreboard` (a round's
scores and standings), :mod:`.replay` (a finished game, turn by turn), :mod:`.clock`
(the clock of a game as its page shows it), :mod:`.drafts` (the turn in progress as
its player sees it), :mod:`.notifications` (a member's list, unread count and email
preferences), :mod:`.vacations` (the allowance and the vacations to come),
:mod:`.rules_summary` (a table's rules in players' words), :mod:`.sight` (who may see a
table, and how much), :mod:`.connections` (players' connections to a game's page, for a
case's evidence), :mod:`.live` (a game at one version as its page and pushes show it,
read once and kept in memory and in the cache: a copy of committed rows, never a fact).
"""
