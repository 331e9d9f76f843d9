"""The games' fixtures (tables, games in a chosen position, eager Celery) for these tests."""

from tests.games.conftest import _eager_celery, game, position

__all__ = ["_eager_celery", "game", "position"]
