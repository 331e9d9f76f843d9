"""The standings worked out the plain way (quadratic, an object per count), as a
reference for :mod:`leagues.standings`: the fast module must give the same rows, ranks,
bounds and meetings. Follows the definitions in that module's docstring word by word."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from leagues.standings import (
    CUMULATIVE,
    PLACEMENT,
    FixtureResults,
    Meeting,
    Player,
    Row,
    Rules,
)


def reference_places(keys: Sequence[object]) -> list[tuple[int, int]]:
    """The places each key covers (smaller keys are better)."""
    return [
        (1 + sum(k < key for k in keys), sum(k <= key for k in keys))  # type: ignore[operator]
        for key in keys
    ]


def fixture_keys(fixture: FixtureResults, rules: Rules) -> list[object]:
    """Each seat's key in a complete fixture, smaller first, as the round ranks it:
    games won then the highest total, or under penalty points the lowest total then
    games won."""
    keys: list[object] = []
    for seat in fixture.seats:
        total = sum(g.scores.get(seat, 0) for g in fixture.games)
        won = sum(g.winner == seat for g in fixture.games)
        keys.append((total, -won) if rules.lowest_wins else (-won, -total))
    return keys


def reference(
    players: Sequence[Player], fixtures: Sequence[FixtureResults], rules: Rules
) -> tuple[list[Row], dict[tuple[int, int], Meeting]]:
    rows = {p.entry: Row(p.entry, p.name, p.withdrawn) for p in players}
    met: dict[tuple[int, int], list[int]] = {}
    for fixture in fixtures:
        for game in fixture.games:
            for seat, entry in fixture.seats.items():
                if entry not in rows or seat not in game.scores:
                    continue
                row = rows[entry]
                row.total_score += game.scores[seat]
                row.games_played += 1
                row.games_won += game.winner == seat
                for other_seat, other in fixture.seats.items():
                    if other_seat != seat and other in rows and other_seat in game.scores:
                        counts = met.setdefault((entry, other), [0, 0, 0])
                        counts[0] += 1
                        counts[1] += game.places[seat] < game.places[other_seat]
                        counts[2] += game.places[seat] > game.places[other_seat]
        if not fixture.complete:
            continue
        places = reference_places(fixture_keys(fixture, rules))
        for (_, entry), (first, last) in zip(fixture.seats.items(), places, strict=True):
            if entry not in rows:
                continue
            rows[entry].fixtures_played += 1
            rows[entry].fixtures_won += first == last == 1
            if rules.scoring == PLACEMENT:
                shared = [rules.place_points(p) for p in range(first, last + 1)]
                rows[entry].points += Fraction(sum(shared), len(shared))
    for row in rows.values():
        if rules.scoring == CUMULATIVE:
            row.points = Fraction(row.total_score)
    ordered = _ranked(list(rows.values()), met, rules)
    _bounds(ordered, fixtures, rules)
    for row in ordered:
        row.tiebreaks = tuple(getattr(row, name) for name in rules.tiebreaks)
    return ordered, {pair: Meeting(*counts) for pair, counts in met.items()}


def _ranked(rows: list[Row], met: dict[tuple[int, int], list[int]], rules: Rules) -> list[Row]:
    sign = -1 if rules.lowest_wins else 1

    def value(name: str, row: Row, group: list[Row]) -> object:
        if name == "points":
            return row.points * (1 if rules.scoring == PLACEMENT else sign)
        if name == "head_to_head":
            row.head_to_head = sum(
                met.get((row.entry, o.entry), [0, 0, 0])[1]
                - met.get((row.entry, o.entry), [0, 0, 0])[2]
                for o in group
                if o is not row
            )
            return row.head_to_head
        if name == "total_score":
            return sign * row.total_score
        return getattr(row, name)

    groups = [sorted(rows, key=lambda r: (r.name.lower(), r.entry))]
    for name in ("points", *rules.tiebreaks):
        split = []
        for group in groups:
            if len(group) == 1:
                split.append(group)
                continue
            values = {row.entry: value(name, row, group) for row in group}
            for level in sorted(set(values.values()), reverse=True):  # type: ignore[type-var]
                split.append([row for row in group if values[row.entry] == level])
        groups = split
    ordered = []
    for group in groups:
        rank = len(ordered) + 1
        for row in group:
            row.rank = rank
            ordered.append(row)
    return ordered


def _bounds(rows: list[Row], fixtures: Sequence[FixtureResults], rules: Rules) -> None:
    """Best and worst final ranks by counting, for each player, every other player."""
    if all(f.complete for f in fixtures):
        for row in rows:
            row.best_rank = row.worst_rank = row.rank
        return
    sign = -1 if rules.lowest_wins and rules.scoring == CUMULATIVE else 1
    low = {row.entry: row.points * sign for row in rows}
    high = dict(low)
    for fixture in fixtures:
        if fixture.complete:
            continue
        if rules.scoring == PLACEMENT:
            points = [rules.place_points(p) for p in range(1, len(fixture.seats) + 1)]
            down, up = min(points), max(points)
        else:
            least, most = rules.game_score_bounds
            least, most = (-most, -least) if sign < 0 else (least, most)
            down, up = least * fixture.games_left, most * fixture.games_left
        for entry in fixture.seats.values():
            if entry in low:
                low[entry] += down
                high[entry] += up
    for row in rows:
        others = [o.entry for o in rows if o is not row]
        row.best_rank = 1 + sum(low[o] > high[row.entry] for o in others)
        row.worst_rank = 1 + sum(high[o] >= low[row.entry] for o in others)
