import pytest


@pytest.fixture(autouse=True)
def _eager_celery(eager_celery: None) -> None:
    """Mail tasks run in the test's process, into Django's test outbox (tests/conftest.py's
    ``eager_celery``, for every test here)."""
