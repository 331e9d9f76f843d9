"""The pushes of a move rendered from one snapshot of the committed game
(:mod:`games.selectors.live`): read once where the move was made, one cache entry in
another process, the database when the entry is gone; never a model instance in the
cache, never a tile a reader may not see.

Real Redis (channel layer and cache), real transactions: a move commits, its receivers
seed the snapshot, then the sockets render.
"""

from __future__ import annotations

import io
import pickle
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.db.models import Model
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import services
from games.models import Game
from games.rendering import SPECTATOR, reader_of, render_fragments
from games.selectors import live
from tests.games.players import user_at
from tests.games.sockets import pushes_of_a_draw
from tests.games.views_support import tiles_in, visible_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("_fresh_memory")]

with_sockets = pytest.mark.usefixtures("_close_thread_connections")


@pytest.fixture
def _fresh_memory() -> Iterator[None]:
    """Each test starts with no snapshot kept in this process (a test database reuses
    game ids)."""
    live.kept.clear()
    yield
    live.kept.clear()


@pytest.fixture
def answered(alice: User, bob: User) -> None:
    """Both players answered the standing order's offer: theirs is not read per push."""
    User.objects.filter(pk__in=[alice.pk, bob.pk]).update(draws_forced_turns=False)
    for user in (alice, bob):
        user.draws_forced_turns = False


class Statements:
    """The SQL statements run after :meth:`start`, on any thread (each socket's database
    work runs on a thread of its own, with its own connection)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sql: list[str] = []
        self._on = threading.Event()
        execute = CursorWrapper._execute

        def counted(wrapper: CursorWrapper, sql: str, *args: Any, **kwargs: Any) -> Any:
            if self._on.is_set():
                self.sql.append(sql)
            return execute(wrapper, sql, *args, **kwargs)

        monkeypatch.setattr(CursorWrapper, "_execute", counted)

    def start(self) -> None:
        self._on.set()

    def stop(self) -> None:
        self._on.clear()


class CacheReads:
    """The cache's GETs of snapshots, counted (the cache itself answers)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.keys: list[str] = []
        real = live.cache

        class Counting:
            def get(_, key: str, *args: Any) -> Any:
                self.keys.append(key)
                return real.get(key, *args)

            def set(_, *args: Any, **kwargs: Any) -> Any:
                return real.set(*args, **kwargs)

        monkeypatch.setattr(live, "cache", Counting())


@pytest.mark.asyncio
@with_sockets
@pytest.mark.usefixtures("answered")
async def test_a_moves_pushes_make_no_query_in_the_process_that_made_it(
    game: Game, alice: User, bob: User, carol: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    statements = Statements(monkeypatch)

    pushed = await pushes_of_a_draw(game, [alice, bob, carol], statements.start, statements.stop)

    assert statements.sql == []
    state = game.engine_state()
    for html, seat in zip(pushed, (0, 1, None), strict=True):
        assert 'data-version="1"' in html
        assert tiles_in(html) <= visible_to(state, seat)


@pytest.mark.asyncio
@with_sockets
@pytest.mark.usefixtures("answered")
async def test_another_process_reads_one_cache_entry_per_move(
    game: Game, alice: User, bob: User, carol: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    statements, reads = Statements(monkeypatch), CacheReads(monkeypatch)

    def elsewhere() -> None:
        # What this process made is not in another's memory: only in the cache.
        live.kept.clear()
        statements.start()

    pushed = await pushes_of_a_draw(game, [alice, bob, carol], elsewhere, statements.stop)

    assert reads.keys == [live.cache_key(game.pk, 1)]
    assert statements.sql == []
    assert all('data-version="1"' in html for html in pushed)


@pytest.mark.asyncio
@with_sockets
async def test_a_missing_cache_entry_falls_back_to_the_database(
    game: Game, alice: User, bob: User, carol: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[int] = []
    snapshot = live.snapshot

    def counted(found: Game, *args: Any) -> live.LiveGame:
        made.append(found.version)
        return snapshot(found, *args)

    def evicted() -> None:
        live.kept.clear()
        cache.delete(live.cache_key(game.pk, 1))
        made.clear()  # the one seeded at commit

    monkeypatch.setattr(live, "snapshot", counted)

    pushed = await pushes_of_a_draw(game, [alice, bob, carol], evicted)

    assert made == [1]  # one read of the database for the three renders
    state = game.engine_state()
    for html, seat in zip(pushed, (0, 1, None), strict=True):
        assert 'data-version="1"' in html
        assert tiles_in(html) <= visible_to(state, seat)


def test_the_cache_entry_holds_no_model_instance(game: Game) -> None:
    mover = user_at(game, game.current_seat or 0)
    services.draw(game.pk, mover, game.version)  # its receivers seed the cache at commit

    found = cache.get(live.cache_key(game.pk, 1))

    assert isinstance(found, live.LiveGame) and found.version == 1
    models: list[object] = []

    class Finder(pickle.Pickler):
        def persistent_id(self, obj: object) -> None:
            if isinstance(obj, Model):
                models.append(obj)

    Finder(io.BytesIO()).dump(found)
    assert models == []
    assert mover.password.encode() not in pickle.dumps(found)


def test_the_fragments_of_a_snapshot_read_nothing_and_show_each_reader_only_theirs(
    game: Game, carol: User
) -> None:
    snapshot = live.snapshot(Game.objects.select_related("table").get(pk=game.pk))
    state = game.engine_state()
    seat = 1 - (game.current_seat or 0)
    waiting = user_at(game, seat)
    waiting.draws_forced_turns = False  # answered: no offer to read
    readers = [(reader_of(snapshot, waiting), seat), (reader_of(snapshot, carol), None)]

    for reader, viewer in [*readers, (SPECTATOR, None)]:
        with CaptureQueriesContext(connection) as queries:
            html = render_fragments(snapshot, reader)
        assert queries.captured_queries == []
        assert tiles_in(html) <= visible_to(state, viewer)
    own_rack = render_fragments(snapshot, readers[0][0])
    assert {str(t) for t in state.racks[seat]} <= tiles_in(own_rack)
