#!/usr/bin/env bash
# The whole suite in two parts (`make test`, inside scripts/test-env.sh):
#   1. every test that needs no live server, on every core (pytest-xdist; TEST_WORKERS,
#      default: the number of cores): each worker has its own test database and Redis db;
#   2. the browser tests and the tests that start servers or workers of their own and time
#      them (marked `serial`), one at a time.
# Arguments go to both parts (a path, -k ...). Both parts run; the status is the worse.
set -uo pipefail
cd "$(dirname "$0")/.."

PY=${PY:-.venv/bin/python}
WORKERS=${TEST_WORKERS:-$(nproc)}

status=0
run() {
    "$PY" -m pytest "$@"
    local code=$?
    # 5: this part selected no test (e.g. a path of browser tests only).
    if [ "$code" != 0 ] && [ "$code" != 5 ]; then status=$code; fi
}

if [ "$WORKERS" -gt 1 ]; then
    run -n "$WORKERS" -m "not browser and not serial" "$@"
else
    run -m "not browser and not serial" "$@"
fi
run -p no:xdist -m "browser or serial" "$@"
exit $status
