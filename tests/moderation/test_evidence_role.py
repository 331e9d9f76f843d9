"""What moderation reads as evidence and history, the app's role may read and append to but
not rewrite (security review wave 3, S12): the move log, result rows and their history,
who sat in a seat, every history event and its context, the case notes and which
migrations ran. Page connections only move forward and go only when pruned; a history
context keeps what it recorded. Raw SQL of the app's role meets the refusal, not only
the models."""

from __future__ import annotations

import json
from datetime import timedelta

import psycopg
import pytest
from django.db import connection
from django.utils import timezone

from games import page_connections
from games.models import Game, Move, Result, SeatOccupancy
from tests.moderation.roles import connect_as

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.as_owner]

APPEND_ONLY = [
    "games_move",
    "games_result",
    "games_resultevent",
    "games_seatoccupancy",
    "games_draftevent",
    "leagues_seasonevent",
    "leagues_divisionevent",
    "leagues_entryevent",
    "leagues_matchdayevent",
    "leagues_fixtureevent",
    "leagues_scoreadjustmentevent",
    "moderation_caseevent",
    "moderation_rulingevent",
    "moderation_suspensionevent",
    "moderation_appealevent",
    "moderation_casenote",
    "pghistory_context",
    "django_migrations",
]


@pytest.mark.parametrize("table", APPEND_ONLY)
def test_the_apps_role_may_not_rewrite_or_delete_history(app_role: str, table: str) -> None:
    with connect_as(app_role) as app:
        assert app.execute(f"SELECT count(*) >= 0 FROM {table}").fetchone() == (True,)
        (column,) = app.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = %s "
            "ORDER BY ordinal_position LIMIT 1",
            [table],
        ).fetchone() or ("",)
        for statement in (
            f"UPDATE {table} SET {column} = {column}",
            f"DELETE FROM {table}",
            f"TRUNCATE {table}",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app.execute(statement)


def test_a_finished_games_record_stays_as_it_was(app_role: str, league_game: Game) -> None:
    """The rows of a real game, written as the app writes them: the role cannot touch one."""
    move = Move.objects.filter(game=league_game).first()
    result = Result.objects.filter(game=league_game).first()
    seat = SeatOccupancy.objects.filter(game=league_game).first()
    assert move and result and seat
    with connect_as(app_role) as app:
        # pgtrigger's triggers step aside for a session that asks; the rights do not.
        app.execute("SET pgtrigger.ignore = '{}'")
        for statement, pk in (
            ("UPDATE games_move SET seat = 1 - seat WHERE id = %s", move.pk),
            ("DELETE FROM games_result WHERE id = %s", result.pk),
            ("UPDATE games_result SET score = score + 100 WHERE id = %s", result.pk),
            ("UPDATE games_seatoccupancy SET member_id = NULL WHERE id = %s", seat.pk),
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app.execute(statement, [pk])


def test_a_page_connection_only_moves_forward_and_goes_when_pruned(
    app_role: str, league_game: Game
) -> None:
    player = league_game.table.seats.exclude(user=None).first().user  # type: ignore[union-attr]
    now = timezone.now()
    recent = page_connections.opened(league_game.pk, player.pk, now - timedelta(hours=1))
    old = page_connections.opened(league_game.pk, player.pk, now - timedelta(days=91))
    with connect_as(app_role) as app:
        # The heartbeat and the close, as the socket writes them.
        app.execute("UPDATE games_pageconnection SET seen_at = %s WHERE id = %s", [now, recent])
        app.execute(
            "UPDATE games_pageconnection SET seen_at = %s, disconnected_at = %s WHERE id = %s",
            [now, now, recent],
        )
        for statement in (
            "UPDATE games_pageconnection SET disconnected_at = NULL WHERE id = %s",
            "UPDATE games_pageconnection SET seen_at = seen_at + interval '1 hour' WHERE id = %s",
            "UPDATE games_pageconnection SET connected_at = now() WHERE id = %s",
            "UPDATE games_pageconnection SET user_id = user_id WHERE id = %s",
            "DELETE FROM games_pageconnection WHERE id = %s",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app.execute(statement, [recent])
        # Older than GAMES_CONNECTION_DAYS (90): pruned.
        app.execute("DELETE FROM games_pageconnection WHERE id = %s", [old])
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM games_pageconnection")
        assert cursor.fetchall() == [(recent,)]


def test_a_history_context_keeps_what_it_recorded(app_role: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO pghistory_context (id, metadata, created_at, updated_at) VALUES "
            '(gen_random_uuid(), \'{"user": 1, "reason": "played"}\', now(), now()), '
            "(gen_random_uuid(), '{\"user\": 1}', now() - interval '1 day', now()) "
            "RETURNING id"
        )
        fresh, past = (row[0] for row in cursor.fetchall())
    with connect_as(app_role) as app:
        # pghistory's upsert while the request runs: a nested context adds a key.
        app.execute(
            'UPDATE pghistory_context SET metadata = \'{"user": 2, "url": "/x"}\' WHERE id = %s',
            [fresh],
        )
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            app.execute(
                "UPDATE pghistory_context SET metadata = '{\"user\": 2}' WHERE id = %s", [past]
            )
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            app.execute("UPDATE pghistory_context SET created_at = now() WHERE id = %s", [past])
    with connection.cursor() as cursor:
        cursor.execute("SELECT metadata FROM pghistory_context WHERE id = %s", [fresh])
        assert json.loads(cursor.fetchone()[0]) == {"user": 1, "reason": "played", "url": "/x"}
        cursor.execute("SELECT metadata FROM pghistory_context WHERE id = %s", [past])
        assert json.loads(cursor.fetchone()[0]) == {"user": 1}
