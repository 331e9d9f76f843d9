"""Production settings: `check --deploy` is clean, HTTPS is enforced, and every page is
sent with a Content-Security-Policy that its templates keep to."""

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from tests.browser.conftest import database_url

SITE = "https://club.example.com"


def production_env(**more: str) -> dict[str, str]:
    env = {
        **os.environ,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEBUG": "false",
        "SITE_URL": SITE,
        "ALLOWED_HOSTS": "club.example.com",
        **more,
    }
    env.pop("HSTS_SECONDS", None)
    return env


def test_check_deploy_is_clean_with_production_settings() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=settings.BASE_DIR,
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


# Run in a process of its own: the HTTPS settings are read from the environment at start.
# Pages (the 404 page too) need the collected static files' manifest, as on a real site.
ANSWERS = """
import json, django
django.setup()
from django.conf import settings
from django.core.management import call_command
call_command("collectstatic", interactive=False, verbosity=0)
from django.test import Client
client = Client(HTTP_HOST="club.example.com")
plain = client.get("/no-such-page/")
secure = client.get("/no-such-page/", secure=True, HTTP_X_FORWARDED_PROTO="https")
print(json.dumps({
    "plain": [plain.status_code, plain.get("Location", "")],
    "secure": [secure.status_code, dict(secure.headers)],
    "secure_cookies": [settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE],
}))
"""


@pytest.mark.django_db
def test_an_https_site_redirects_plain_http_and_sends_hsts(tmp_path: Path) -> None:
    env = production_env(
        DATABASE_URL=database_url(connection.settings_dict),
        DJANGO_SETTINGS_MODULE="config.settings",
        STATIC_ROOT=str(tmp_path / "static"),
    )
    result = subprocess.run(
        [sys.executable, "-c", ANSWERS],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    answers = json.loads(result.stdout.strip().splitlines()[-1])

    assert answers["plain"] == [301, f"{SITE}/no-such-page/"]
    status, headers = answers["secure"]
    assert status == 404
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert "wss://club.example.com" in headers["Content-Security-Policy"]
    assert answers["secure_cookies"] == [True, True]


def test_a_plain_http_site_neither_redirects_nor_sends_hsts(client: Client) -> None:
    response = client.get("/accounts/login/")

    assert response.status_code == 200
    assert "Strict-Transport-Security" not in response.headers


def directives(client: Client, path: str) -> dict[str, list[str]]:
    header = client.get(path).headers["Content-Security-Policy"]
    return {
        name: values
        for name, *values in (part.split() for part in header.split(";") if part.strip())
    }


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/accounts/signup/"])
def test_pages_allow_scripts_and_styles_only_from_the_site(client: Client, path: str) -> None:
    policy = directives(client, path)

    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert "'self'" in policy["connect-src"]


TEMPLATES = sorted(Path(settings.BASE_DIR, "templates").rglob("*.html"))
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*\bnonce=)[^>]*>", re.I)
# Inline styles and handlers, and htmx's attributes that evaluate code (`hx-on`, `js:`).
INLINE_CODE = re.compile(r"""\sstyle=|\son[a-z]+=|\shx-on[:-]|["']js:|javascript:""", re.I)


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: path.name)
def test_templates_have_no_inline_script_or_style(template: Path) -> None:
    text = template.read_text()

    assert not INLINE_SCRIPT.findall(text)
    assert not INLINE_CODE.findall(text)
