import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import hypothesis
import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings

from accounts.models import User
from tests.factories import UserFactory

BROWSER_TESTS = Path(__file__).parent / "browser"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of tests/browser/ is marked ``browser``, whatever its module says: `make
    test` runs them apart from the tests that share the cores (scripts/run-tests.sh)."""
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session", autouse=True)
def _test_settings() -> Iterator[None]:
    # Hashed static names need `collectstatic`; in-process tests serve static/ as it is.
    # A deliberately slow password hash would spend most of the suite's time.
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(
        STORAGES=storages,
        WHITENOISE_AUTOREFRESH=True,
        WHITENOISE_USE_FINDERS=True,
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
    ):
        yield


@pytest.fixture(autouse=True)
def _cache_of_its_own() -> Iterator[None]:
    """Each test counts its rate limits (and keeps its cached hints) under keys of its
    own in the shared Redis, so no test inherits another's requests."""
    default = settings.CACHES["default"]
    with override_settings(
        CACHES={"default": {**default, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}}
    ):
        yield


OTHER_TRANSACTIONS = """
SELECT pg_terminate_backend(pid) FROM pg_stat_activity
WHERE datname = current_database() AND pid <> pg_backend_pid()
  AND state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')
"""


@pytest.fixture(autouse=True)
def _flush_alone(request: pytest.FixtureRequest) -> Iterator[None]:
    """A transactional test's database is flushed (``TRUNCATE``) after it, while a live
    server, a Celery worker or a race's thread may still hold a connection in the middle
    of a transaction. The ``TRUNCATE`` then waits for its locks, or deadlocks with it, and
    the next test finds the old rows. So every other connection to the test database that
    is inside a transaction is ended first: the test is over, so nothing it was doing
    matters. Idle connections hold no lock and are left alone: they may be this process's
    own (Django keeps one per thread and per async context, and the browser tests' event
    loop is another context), or a live server's pool, which would hand a dead one to the
    next request.

    Requesting pytest-django's database fixture here (again, or first) makes this
    fixture's teardown run before the flush it ends with."""
    marker = request.node.get_closest_marker("django_db")
    transactional = "transactional_db" in request.fixturenames or bool(
        marker and marker.kwargs.get("transaction")
    )
    if not transactional:
        yield
        return
    request.getfixturevalue("_django_db_helper")
    yield
    with connection.cursor() as cursor:
        cursor.execute(OTHER_TRANSACTIONS)


@pytest.fixture
def alice(db: None) -> User:
    """The user a test is about."""
    return UserFactory(username="alice", display_name="Alice")


@pytest.fixture
def bob(db: None) -> User:
    """Another member: what alice does must not reach him."""
    return UserFactory(username="bob", display_name="Bob")


@pytest.fixture
def alice_client(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


# CI runs the property tests on a fixed sequence of examples (HYPOTHESIS_PROFILE=ci in
# .ci/run), so a landing never hangs on a draw; local runs keep exploring new ones.
hypothesis.settings.register_profile("ci", derandomize=True, print_blob=True)
hypothesis.settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
