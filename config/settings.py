"""Settings for Rummikub Club, read from the environment.

Every knob is an environment variable (see the table in README.md). The defaults run the
app on one machine with SQLite and the Redis that `make run` starts; a deployment sets
SECRET_KEY, DEBUG=false, ALLOWED_HOSTS, DATABASE_URL, REDIS_URL, EMAIL_URL and SITE_URL.
"""

from pathlib import Path

import django_stubs_ext
import environ
from celery.schedules import crontab

# Lets classes be written `ModelForm[User]` for the type checker without failing at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
# The default key starts with "django-insecure-" so `manage.py check --deploy` flags it.
SECRET_KEY = env.str("SECRET_KEY", default="django-insecure-local-development-only")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])

PORT = env.int("PORT", default=8000)
SITE_URL = env.str("SITE_URL", default=f"http://127.0.0.1:{PORT}").rstrip("/")
# Django checks the Origin header of unsafe requests; a site behind a proxy or on another
# port than the one the browser sees must list its public origin here.
CSRF_TRUSTED_ORIGINS = [SITE_URL, *env.list("CSRF_TRUSTED_ORIGINS", default=[])]
if SITE_URL.startswith("https://"):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # TLS ends at the proxy, which reports the original scheme in this header.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    # daphne first: its `runserver` replaces Django's with an ASGI one (websockets).
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "accounts",
    "games",
    "leagues",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.header_counts",
            ],
            # Partials ("games/game.html#board") are looked up through this loader.
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    },
]

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The local SQLite file is shared by daphne and the Celery processes. SQLite ignores
    # SELECT ... FOR UPDATE, so writers take the lock when their transaction begins, and
    # WAL lets pages be read meanwhile.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
elif env.bool("DATABASE_POOL", default=False):
    # daphne runs each request's view in a thread of its own, so a connection kept per
    # thread would never be reused: without a pool every request and every websocket
    # render opens a PostgreSQL connection (a backend process; 3-4 ms here). config.asgi
    # turns the pool on for the web process; Celery's forked workers keep Django's
    # connection per process.
    DATABASES["default"]["OPTIONS"] = {
        "pool": {
            "min_size": 2,
            "max_size": env.int("DATABASE_POOL_SIZE", default=16),
            "timeout": 10,
        },
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="redis://127.0.0.1:6379/0")

# Celery workers and web processes meet in Redis: a task publishes to a game's group
# and every daphne process delivers to the browsers it holds.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            # redis-py 8 times out a read after 5 s by default, the same length as
            # channels_redis's own blocking read: a quiet socket would be torn down every
            # 5 s and pushes lost. The layer's blocking read has its own timeout.
            "hosts": [{"address": REDIS_URL, "socket_timeout": None}],
            # All sockets of a daphne process share one receive queue; at the default of
            # 100 a burst of pushes to a busy game was silently dropped.
            "capacity": 1000,
        },
    },
}

CELERY_BROKER_URL = REDIS_URL
# No result backend: every task's effect is in the database, nothing waits for a result.
# (Celery builds a backend per thread, and daphne runs each request in a new thread: a
# Redis backend cost every move its set-up.)
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# A Redis broker hands an unacknowledged task out again after this long; games never
# queue a task due further ahead than GAMES_ETA_HORIZON_SECONDS (15 minutes), below it.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
GAMES_SWEEP_SECONDS = env.float("GAMES_SWEEP_SECONDS", default=5.0)
# Periodic jobs (deadline sweeps) are registered here by the apps that own them.
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "games-sweep-expired-turns": {
        "task": "games.tasks.sweep_expired_turns",
        "schedule": GAMES_SWEEP_SECONDS,
        "options": {"expires": GAMES_SWEEP_SECONDS},
    },
    "games-sweep-turn-reminders": {
        "task": "games.tasks.sweep_turn_reminders",
        "schedule": GAMES_SWEEP_SECONDS,
        "options": {"expires": GAMES_SWEEP_SECONDS},
    },
    "games-daily-digests": {
        "task": "games.tasks.send_daily_digests",
        "schedule": crontab(hour=env.int("GAMES_DIGEST_HOUR", default=7), minute=0),
    },
}

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# EMAIL_URL examples: consolemail:// (prints mails to stderr), smtp+tls://user:password@host:587
_email = env.email_url("EMAIL_URL", default="consolemail://")
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email["EMAIL_HOST"] or "localhost"
EMAIL_PORT = _email["EMAIL_PORT"] or 25
EMAIL_HOST_USER = _email["EMAIL_HOST_USER"] or ""
EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"] or ""
EMAIL_USE_TLS = _email.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _email.get("EMAIL_USE_SSL", False)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Rummikub Club <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LANGUAGE_CODE = "en-us"
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed names let browsers cache static files for ever; they need `collectstatic`,
    # so DEBUG serves the files from static/ as they are.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "plain"},
    },
    "root": {"handlers": ["stderr"], "level": env.str("LOG_LEVEL", default="INFO")},
}
