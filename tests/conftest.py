import io
import os
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import hypothesis
import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.management import call_command
from django.db import connections
from django.test import Client, override_settings
from pytest_django import DjangoDbBlocker

from accounts.models import User
from config.celery_app import app as celery_app
from config.routing import websocket_urlpatterns
from config.runstack import with_user
from moderation.db_role import OWNER_KEYS, app_role, close_owner_connections, owner_connection
from tests.factories import UserFactory

BROWSER_TESTS = Path(__file__).parent / "browser"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of tests/browser/ is marked ``browser``, whatever its module says: `make
    test` runs them apart from the tests that share the cores (scripts/run-tests.sh)."""
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)


# Set by scripts/test-env.sh on a server it chose: the role of the app's connections, and
# the tables' owner (DATABASE_URL's role when not given; README, "Two database roles").
APP_ROLE = os.environ.get("TEST_DATABASE_APP_ROLE", "")
OWNER_ROLE = os.environ.get("TEST_DATABASE_OWNER_ROLE", "")
_AS_OWNER_FOR_SETUP = ExitStack()


def pytest_configure(config: pytest.Config) -> None:
    """With TEST_DATABASE_APP_ROLE, the suite runs as two roles, as a deployment does:
    DATABASE_URL's role becomes the owner (DATABASE_OWNER_URL, for the processes the tests
    start too) and the connections of the app are the app's role. The owner creates and
    migrates the test database (:func:`django_db_setup`) and flushes it after each
    transactional test (``manage.py flush`` runs as the owner)."""
    database = settings.DATABASES["default"]
    if not APP_ROLE:
        return
    # An xdist worker inherits DATABASE_OWNER_URL from the process that started it, so its
    # settings already name the owner: its own connections still become the app's role.
    if not settings.DATABASE_OWNER:
        settings.DATABASE_OWNER = {key: database[key] for key in OWNER_KEYS}
        os.environ["DATABASE_OWNER_URL"] = os.environ["DATABASE_URL"]
        if OWNER_ROLE:
            settings.DATABASE_OWNER.update(USER=OWNER_ROLE, PASSWORD="")
            os.environ["DATABASE_OWNER_URL"] = with_user(os.environ["DATABASE_URL"], OWNER_ROLE)
    database.update(USER=APP_ROLE, PASSWORD="")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings: None) -> None:
    """The test database is created and migrated by the owner, up to the end of
    :func:`django_db_setup`."""
    _AS_OWNER_FOR_SETUP.enter_context(owner_connection())


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    """The test database, made by the owner, granted to the app's role; then the tests'
    connections are the app's again. At the end the owner drops the database, once the
    connections to it are closed."""
    try:
        role = app_role()
        if role:
            with django_db_blocker.unblock():
                call_command("grant_app_role", role, stdout=io.StringIO())
    finally:
        _AS_OWNER_FOR_SETUP.close()
    yield
    with django_db_blocker.unblock():
        connections.close_all()
        close_owner_connections()


AS_OWNER = pytest.StashKey[ExitStack]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    """A test marked ``as_owner`` runs as the tables' owner from its first fixture to its
    last (its transaction too): what the app's role may not do, such as rewriting the log
    to show the owner's triggers refuse it or the chain name it, or migrating."""
    if item.get_closest_marker("as_owner") is not None:
        item.stash[AS_OWNER] = ExitStack()
        item.stash[AS_OWNER].enter_context(owner_connection())
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    try:
        return (yield)
    finally:
        if AS_OWNER in item.stash:
            item.stash[AS_OWNER].close()


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
    is inside a transaction is ended first (by the owner, on the connection that then
    flushes): the test is over, so nothing it was doing matters. Idle connections hold no
    lock and are left alone: they may be this process's own (Django keeps one per thread
    and per async context, and the browser tests' event loop is another context), or a
    live server's pool, which would hand a dead one to the next request.

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
    with owner_connection() as owner, owner.cursor() as cursor:
        cursor.execute(OTHER_TRANSACTIONS)


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Tasks run in the test's process at once (and never reach a real broker, where a
    worker of `make run` sharing the Redis could pick them up); their errors are raised to
    the caller. Autouse in tests/games/ (and the folders that import its ``_eager_celery``);
    a module elsewhere names it in ``pytest.mark.usefixtures``."""
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_eager_propagates = False


@pytest.fixture
def alice(db: None) -> User:
    """The user a test is about."""
    return UserFactory(username="alice", display_name="Alice")


@pytest.fixture
def bob(db: None) -> User:
    """Another member: what alice does must not reach him."""
    return UserFactory(username="bob", display_name="Bob")


@pytest.fixture
def carol(db: None) -> User:
    """A member who watches: she has no seat."""
    return UserFactory(username="carol", display_name="Carol")


@pytest.fixture
def dave(db: None) -> User:
    return UserFactory(username="dave", display_name="Dave")


@pytest.fixture
def erin(db: None) -> User:
    return UserFactory(username="erin", display_name="Erin")


@pytest.fixture
def alice_client(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


def client_as(user: User | None) -> Client:
    """A test client of its own signed in as ``user`` (``None``: a visitor's), so a test
    can hold several members' clients at once; pytest-django's ``client`` (and
    ``alice_client``, the same one signed in) is a single client per test."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def communicator(path: str, user: Any, *, address: str | None = None) -> WebsocketCommunicator:
    """A websocket to the site's route ``path`` (``/ws/games/7/``) as ``user`` (an
    ``AnonymousUser`` for a visitor), not yet connected; ``address`` is the client's IP
    (the per-address limits). Signing in through the site's own stack (cookies, origin)
    is tests/games/test_consumers.py's ``through_the_site``."""
    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    socket.scope["user"] = user
    if address is not None:
        socket.scope["client"] = (address, 50000)
    return socket


def db(func: Callable[..., Any]) -> Callable[..., Coroutine[Any, Any, Any]]:
    """``await db(services.draw)(...)``: a database call from a websocket test, made as a
    consumer makes it (``database_sync_to_async``)."""
    return database_sync_to_async(func)  # type: ignore[no-any-return]


@pytest_asyncio.fixture
async def _close_thread_connections() -> AsyncIterator[None]:
    """For the websocket tests (``pytest.mark.usefixtures``): their database work runs in
    a helper thread with its own connection; closed after each test, it does not hold the
    test database open (a flush or the final drop would wait for it)."""
    yield
    await sync_to_async(connections.close_all)()


# CI runs the property tests on a fixed sequence of examples (HYPOTHESIS_PROFILE=ci in
# .ci/run), so a landing never hangs on a draw; local runs keep exploring new ones. Neither
# times an example: the properties are about results, and on a machine loaded by other jobs
# a 200 ms deadline or the "too slow" health check failed examples that were right.
UNTIMED = {"deadline": None, "suppress_health_check": [hypothesis.HealthCheck.too_slow]}
hypothesis.settings.register_profile("local", **UNTIMED)
hypothesis.settings.register_profile("ci", derandomize=True, print_blob=True, **UNTIMED)
hypothesis.settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "local"))
