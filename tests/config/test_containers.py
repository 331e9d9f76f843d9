"""The files that cannot run here (the image, compose, nginx, PgBouncer), read and held to
what does run: every process compose starts runs the command `make run` starts it with
(config/runstack.py), and the one docs/operating.md gives; the databases, Redis and the
proxy are set as the settings need them."""

from __future__ import annotations

import configparser
import inspect
import json
import re
import shlex
import socket
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings

from config import routing, runstack
from tests.config.interpreters import run_python

ROOT = Path(settings.BASE_DIR)
COMPOSE: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
SERVICES: dict[str, Any] = COMPOSE["services"]
WORKERS = {name: spec for name, spec in SERVICES.items() if name.startswith("worker-")}


def as_written(command: list[str]) -> list[str]:
    """A command of runstack's as a container writes it: ``python``, not this venv's."""
    return ["python" if part == sys.executable else part for part in command]


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined, comments left out."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


def shell_steps(script: str) -> list[list[str]]:
    """The commands of a ``sh -c`` script made of ``a && b``."""
    return [shlex.split(step) for step in script.split("&&")]


def manage_steps(steps: list[list[str]]) -> list[tuple[str, ...]]:
    """``manage.py`` steps as runstack's SITE_STEPS write them."""
    return [tuple(step[2:]) for step in steps if step[:2] == ["python", "manage.py"]]


def docs_block(heading: str) -> list[str]:
    """The lines of the first ``sh`` block under ``heading`` in docs/operating.md, comments
    out and continuation lines joined."""
    text = (ROOT / "docs" / "operating.md").read_text()
    section = text.split(f"\n{heading}\n", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    block = re.sub(r"\\\n\s*", "", block)
    return [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()]


# --- the app's processes ---


@pytest.fixture(autouse=True)
def _queues_unprefixed(monkeypatch: pytest.MonkeyPatch) -> None:
    """runstack names its queues under CELERY_QUEUE_PREFIX, which a test run may set for
    itself; a site's have none."""
    monkeypatch.delenv("CELERY_QUEUE_PREFIX", raising=False)


def test_make_run_is_the_launcher_these_commands_are_compared_with() -> None:
    recipe = (ROOT / "Makefile").read_text().split("\nrun:", 1)[1].split("\n## ", 1)[0]

    assert "-m config.runstack" in recipe


def test_every_queue_of_make_run_has_a_worker_with_its_command() -> None:
    for queue in runstack.WORKER_QUEUES:
        assert f"worker-{queue}" in WORKERS, queue
        assert WORKERS[f"worker-{queue}"]["command"] == as_written(runstack.worker_command(queue))


def test_every_worker_serves_a_queue_of_the_site_with_make_run_s_command() -> None:
    site = {queue.name for queue in settings.CELERY_TASK_QUEUES}
    for name, spec in WORKERS.items():
        queue = spec["command"][spec["command"].index("--queues") + 1]
        assert name == f"worker-{queue}"
        assert queue in site
        assert spec["command"] == as_written(runstack.worker_command(queue))


def test_beat_runs_as_make_run_runs_it() -> None:
    assert SERVICES["beat"]["command"] == as_written(runstack.beat_command())


def test_the_web_process_serves_make_run_s_app_with_its_log_behind_the_proxy() -> None:
    command = SERVICES["web"]["command"]
    with socket.socket() as listener:
        launched = runstack.daphne_command(listener, "config.asgi:application")
    app = command[-1]

    assert command[:3] == ["python", "-m", "daphne"] == as_written(launched[:3])
    assert f'"{app}"' in inspect.getsource(runstack.start_app)
    assert command[command.index("--access-log") + 1] == "-"
    # The visitor's address for the rate limits and socket slots (docs/security.md).
    assert "--proxy-headers" in command
    # The image's own command is the web process's.
    kind, written = dockerfile()[-1]
    assert (kind, json.loads(written)) == ("CMD", command)


def test_the_site_steps_are_make_run_s_less_the_demo_accounts() -> None:
    steps = {step[0]: step[1:] for step in runstack.SITE_STEPS}
    migrate = SERVICES["migrate"]["command"]
    built = [step for kind, line in dockerfile() if kind == "RUN" for step in shell_steps(line)]

    assert migrate[:2] == ["sh", "-c"]
    assert manage_steps(shell_steps(migrate[2])) == [
        ("migrate", *steps["migrate"]),
        ("grant_app_role",),
    ]
    # Collected into the image when it is built.
    assert manage_steps(built) == [("collectstatic", *steps["collectstatic"])]
    # Published passwords stay on make run's embedded database.
    assert "seed_demo" not in json.dumps(SERVICES)


def test_docs_give_the_commands_compose_runs() -> None:
    lines = docs_block("## Deployment")

    def without_bind(command: list[str]) -> list[str]:
        at = command.index("--bind") if "--bind" in command else None
        return command if at is None else command[:at] + command[at + 2 :]

    documented = [without_bind(shlex.split(line)) for line in lines]
    for name in ("web", "beat", *WORKERS):
        assert without_bind(SERVICES[name]["command"]) in documented, name
    migrate_line = shlex.split(SERVICES["migrate"]["command"][2])
    assert migrate_line in documented


def test_only_the_one_off_commands_get_the_owner_s_credentials() -> None:
    for name, spec in SERVICES.items():
        owner = "DATABASE_OWNER_URL" in (spec.get("environment") or {})
        assert owner == (name in ("migrate", "backup")), name


# --- PostgreSQL and PgBouncer ---


def test_the_app_goes_through_pgbouncer_in_transaction_mode_and_the_owner_does_not() -> None:
    ini = configparser.ConfigParser()
    ini.read(ROOT / "deploy" / "pgbouncer.ini")
    app = SERVICES["web"]["environment"]
    owner = SERVICES["migrate"]["environment"]["DATABASE_OWNER_URL"]

    assert ini["pgbouncer"]["pool_mode"] == "transaction"
    assert ini["pgbouncer"]["max_prepared_statements"] == "0"
    assert ini["pgbouncer"]["listen_port"] == "6432"
    assert "host=db port=5432 dbname=rummikub" in ini["databases"]["rummikub"]
    assert re.fullmatch(r"postgres://rummikub_app:.*@pgbouncer:6432/rummikub", app["DATABASE_URL"])
    assert app["DATABASE_TRANSACTION_POOLING"] == "true"
    assert re.fullmatch(r"postgres://rummikub_owner:.*@db:5432/rummikub", owner)


def test_the_roles_made_on_first_start_are_make_run_s() -> None:
    script = (ROOT / "deploy" / "postgres-init.sh").read_text()

    owner = runstack.EMBEDDED_OWNER_ROLE
    app = runstack.EMBEDDED_APP_ROLE
    assert f"CREATE ROLE {owner} LOGIN NOSUPERUSER CREATEDB NOCREATEROLE" in script
    assert f"CREATE ROLE {app} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE" in script
    assert f"CREATE DATABASE {runstack.EMBEDDED_DATABASE_NAME} OWNER {owner}" in script


@pytest.mark.parametrize("pooling", ["true", "false"])
def test_transaction_pooling_turns_off_server_side_cursors_and_prepared_statements(
    pooling: str,
) -> None:
    code = (
        "from django.conf import settings; d = settings.DATABASES['default']; "
        "print(d.get('DISABLE_SERVER_SIDE_CURSORS', False), "
        "d.get('OPTIONS', {}).get('prepare_threshold', 5))"
    )
    done = run_python(
        code,
        DATABASE_URL="postgres://app@pgbouncer:6432/rummikub",
        DATABASE_TRANSACTION_POOLING=pooling,
        DATABASE_POOL="true",
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == (["True", "None"] if pooling == "true" else ["False", "5"])


# --- Redis ---


def test_redis_is_split_the_queues_never_evicting_the_cache_evicting() -> None:
    app = SERVICES["web"]["environment"]
    queue = SERVICES["redis-queue"]["command"]
    cache = SERVICES["redis-cache"]["command"]

    assert app["REDIS_URL"].startswith("redis://redis-queue:")
    assert app["REDIS_CACHE_URL"].startswith("redis://redis-cache:")
    assert queue[queue.index("--maxmemory-policy") + 1] == "noeviction"
    assert cache[cache.index("--maxmemory-policy") + 1] == "allkeys-lru"


# --- nginx ---


def nginx_locations() -> dict[str, list[list[str]]]:
    """Each ``location`` of the https server: its directives, as word lists."""
    text = re.sub(r"#[^\n]*", "", (ROOT / "deploy" / "nginx.conf").read_text())
    https = text.split("listen 443", 1)[1]
    found = {}
    for match in re.finditer(r"location\s+([^{]+?)\s*\{([^}]*)\}", https):
        found[match.group(1)] = [d.split() for d in match.group(2).split(";") if d.strip()]
    return found


def test_nginx_upgrades_every_websocket_route_and_keeps_it_open_past_daphne_s_pings() -> None:
    sockets = nginx_locations()["/ws/"]

    assert all(str(route.pattern).startswith("ws/") for route in routing.websocket_urlpatterns)
    assert ["proxy_http_version", "1.1"] in sockets
    assert ["proxy_set_header", "Upgrade", "$http_upgrade"] in sockets
    assert ["proxy_set_header", "Connection", "$connection_upgrade"] in sockets
    read = next(d[1] for d in sockets if d[0] == "proxy_read_timeout")
    # daphne pings every 20 s (its default --ping-interval).
    assert int(read.rstrip("s")) >= 3 * 20


def test_nginx_tells_daphne_and_django_who_asked_and_how_at_every_location() -> None:
    for location, directives in nginx_locations().items():
        if not any(d[0] == "proxy_pass" for d in directives):
            continue
        assert ["proxy_set_header", "Host", "$host"] in directives, location
        assert [
            "proxy_set_header",
            "X-Forwarded-For",
            "$proxy_add_x_forwarded_for",
        ] in directives, location
        assert ["proxy_set_header", "X-Forwarded-Proto", "$scheme"] in directives, location


def test_nginx_keeps_the_metrics_and_the_readiness_details_off_the_public_side() -> None:
    locations = nginx_locations()

    assert locations["/metrics/"] == [["return", "404"]]
    assert ["deny", "all"] in locations["/health/ready/"]
