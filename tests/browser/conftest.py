"""A live daphne server on the test database, and Debian's Chromium driven by Playwright.

The server runs in its own process, as in production: it serves the collected static
files and speaks ASGI (websockets). Tests using it get `transactional_db`, because the
server only sees committed rows.
"""

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from django.conf import settings
from django.db import connection
from playwright.sync_api import Browser, ConsoleMessage, Page, expect, sync_playwright

from accounts.models import User
from config.runstack import free_port, port_answers
from tests.conftest import client_as

ASGI_APP = "tests.asgi:application"
CHROMIUM = "/usr/bin/chromium"
# No sandbox: CI runs as root in a container. The rest keeps Chromium off the network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def database_url(database: dict[str, Any]) -> str:
    user = quote(database["USER"] or "", safe="")
    password = quote(database["PASSWORD"] or "", safe="")
    credentials = f"{user}:{password}@" if password else f"{user}@"
    host = database["HOST"] or "localhost"
    port = database["PORT"] or 5432
    return f"postgres://{credentials}{host}:{port}/{quote(database['NAME'], safe='')}"


@pytest.fixture(scope="session")
def static_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("static")
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=settings.BASE_DIR,
        env={**os.environ, "STATIC_ROOT": str(root), "DEBUG": "false"},
        check=True,
        timeout=120,
    )
    return root


@pytest.fixture(scope="session")
def live_server_url(
    django_db_setup: None, static_root: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    with daphne(static_root, tmp_path_factory, debug=False) as url:
        yield url


@pytest.fixture(scope="session")
def debug_live_server_url(
    django_db_setup: None, static_root: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A second server with DEBUG on, as `make run` has it (started only when asked)."""
    with daphne(static_root, tmp_path_factory, debug=True) as url:
        yield url


@contextmanager
def daphne(
    static_root: Path,
    tmp_path_factory: pytest.TempPathFactory,
    *,
    debug: bool,
    extra_env: Mapping[str, str] | None = None,
) -> Iterator[str]:
    """A daphne serving the test database (``extra_env``: more of its environment, e.g.
    tests/asgi.py's ``TESTS_SERVER_NOW``)."""
    port = free_port()
    log_path = tmp_path_factory.mktemp("daphne") / "daphne.log"
    cache_prefix = f"browser-tests-{uuid.uuid4().hex}"
    env = {
        **os.environ,
        # django_db_setup has renamed the database to the test one.
        "DATABASE_URL": database_url(connection.settings_dict),
        "STATIC_ROOT": str(static_root),
        "DEBUG": str(debug).lower(),
        "PORT": str(port),
        # Rate limits count afresh for each run, whatever earlier runs left in Redis.
        "CACHE_KEY_PREFIX": cache_prefix,
        **(extra_env or {}),
    }
    CACHE_PREFIXES[f"http://127.0.0.1:{port}"] = env["CACHE_KEY_PREFIX"]
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "--bind", "127.0.0.1", "--port", str(port), ASGI_APP],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while not port_answers(port):
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"daphne did not start:\n{log_path.read_text()}")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(server, 10)


def stop(process: subprocess.Popen[bytes], seconds: float) -> None:
    """Ask ``process`` to end; past ``seconds``, kill it."""
    process.terminate()
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


CACHE_PREFIXES: dict[str, str] = {}
"""Each live server's cache key prefix, by its address: a worker answering its pages'
jobs (:func:`solver_worker`) reads and writes the same keys."""


@pytest.fixture(scope="session")
def solver_worker(live_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A Celery worker serving the "solver" queue for the live server: hints, "arrange for
    me", River takes, replay analyses and evidence lines are worked out there (daphne
    never runs the solver), and pushed to the page. Yields its log."""
    log_path = tmp_path_factory.mktemp("solver-worker") / "worker.log"
    queue = os.environ.get("CELERY_QUEUE_PREFIX", "") + "solver"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "CACHE_KEY_PREFIX": CACHE_PREFIXES[live_server_url],
    }
    command = [
        *(sys.executable, "-m", "celery", "-A", "tests.celery_app", "worker"),
        *("--queues", queue, "--pool", "solo", "--loglevel", "INFO"),
        *("--hostname", f"solver-{uuid.uuid4().hex[:6]}@%h"),
        *("--without-heartbeat", "--without-gossip", "--without-mingle"),
    ]
    with log_path.open("w") as log:
        process = subprocess.Popen(
            command, cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 60
        while " ready." not in log_path.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the solver's worker did not start:\n{log_path.read_text()}")
            time.sleep(0.2)
        yield log_path
    finally:
        stop(process, 30)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium)")
    # Playwright's sync API marks an event loop as running in this thread while it is
    # open, and Django then refuses database calls (fixtures flushing the test database)
    # as if they came from async code. They do not: the test itself is synchronous.
    # Module scope keeps both the loop and this exemption out of other test modules.
    with (
        pytest.MonkeyPatch.context() as patch,
        sync_playwright() as playwright,
    ):
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


# Every page reports what the Content-Security-Policy refused, as a console error that
# outlives the page (Chromium logs its own line too; the event also catches reports
# that only reach the page).
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  const blocked = event.blockedURI || "inline";
  console.error(`CSP violation: ${event.violatedDirective} blocked ${blocked}`);
});
"""


class Violations(list[str]):
    """What the Content-Security-Policy refused on a test's pages."""

    def record(self, message: ConsoleMessage) -> None:
        text = message.text
        if message.type == "error" and (
            "CSP violation" in text or "Content Security Policy" in text
        ):
            self.append(text)


def wait_until(page: Page, expression: str, arg: Any = None, timeout: float = 15) -> None:
    """Wait until ``expression`` (a function of ``arg``) is truthy in ``page``, polled from
    here. Playwright's ``wait_for_function`` polls by eval inside the page, which the site's
    Content-Security-Policy refuses: its report would fail the test."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(50)


@pytest.fixture
def csp_violations() -> Violations:
    return Violations()


def new_page(browser: Browser, base_url: str, violations: Violations, **options: Any) -> Page:
    """A page in a context of its own (``options``: Playwright's, e.g. a viewport) whose
    CSP refusals go to ``violations``; closing it is ``page.context.close()``."""
    context = browser.new_context(base_url=base_url, **options)
    context.add_init_script(REPORT_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("console", violations.record)
    return page


@pytest.fixture
def page(
    browser: Browser, live_server_url: str, transactional_db: None, csp_violations: Violations
) -> Iterator[Page]:
    page = new_page(browser, live_server_url, csp_violations)
    yield page
    page.context.close()
    # Any test whose pages broke the policy fails: a refused script or style is a
    # feature that silently does not work.
    assert not csp_violations, csp_violations


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
"""A touch phone's browser: 390 x 844, no hover, a coarse pointer."""


@pytest.fixture
def phone(
    browser: Browser, live_server_url: str, transactional_db: None, csp_violations: Violations
) -> Iterator[Page]:
    """A page in a touch phone's browser (:data:`PHONE`); its CSP refusals fail the test."""
    page = new_page(browser, live_server_url, csp_violations, **PHONE)
    yield page
    page.context.close()
    assert not csp_violations, csp_violations


@pytest.fixture
def other_page(
    browser: Browser, live_server_url: str, page: Page, csp_violations: Violations
) -> Iterator[Page]:
    """A second person's browser, with cookies of its own (its CSP violations fail the
    test like the first one's)."""
    second = new_page(browser, live_server_url, csp_violations)
    yield second
    second.context.close()


def log_in(page: Page, user: User) -> None:
    """Sign ``user`` in with a session made here (the test process hashes passwords in a
    way the server does not read; test_signup logs in through the form)."""
    client = client_as(user)
    page.goto("/accounts/login/")
    origin = "{0.scheme}://{0.netloc}/".format(urlsplit(page.url))
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": origin}]
    )
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Good to see you")


@pytest.fixture
def debug_page(
    browser: Browser, debug_live_server_url: str, transactional_db: None
) -> Iterator[Page]:
    """A page of the DEBUG server (its error pages are Django's, not held to the CSP)."""
    page = new_page(browser, debug_live_server_url, Violations())
    yield page
    page.context.close()
