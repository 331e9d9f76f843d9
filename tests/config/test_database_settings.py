"""The database settings, read by a fresh interpreter from the environment it is given."""

import os
import subprocess
import sys

from django.conf import settings

from tests.config.interpreters import run_python


def load_settings(**environ: str) -> subprocess.CompletedProcess[str]:
    code = "from django.conf import settings; print(settings.DATABASES['default']['NAME'])"
    return run_python(code, without=("DATABASE_URL", "DATABASE_EMBEDDED"), **environ)


def test_without_database_url_the_settings_load_on_no_database() -> None:
    # Tools that need no database (mypy's plugin, makemigrations --check) still run.
    done = load_settings()

    assert done.returncode == 0, done.stderr


def test_without_database_url_migrate_says_how_to_get_one() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_EMBEDDED")}
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        env=env,
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=False,
    )

    assert done.returncode != 0
    assert "DATABASE_URL is not set. `make run` starts an embedded PostgreSQL" in done.stderr


def test_a_sqlite_url_is_refused() -> None:
    done = load_settings(DATABASE_URL="sqlite:///db.sqlite3")

    assert done.returncode != 0
    assert "DATABASE_URL must point to PostgreSQL" in done.stderr


def test_a_postgres_url_is_taken() -> None:
    done = load_settings(DATABASE_URL="postgres://someone@db.example.com:5432/club")

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "club"
