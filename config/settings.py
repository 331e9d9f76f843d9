"""Settings for Rummikub Club, read from the environment.

Every knob is an environment variable (see the table in docs/operating.md). The defaults run the
app on one machine with the PostgreSQL and Redis that `make run` starts (it sets
DATABASE_URL and REDIS_URL for its processes); a deployment sets SECRET_KEY, DEBUG=false,
ALLOWED_HOSTS, DATABASE_URL, REDIS_URL, EMAIL_URL and SITE_URL.
"""

from datetime import timedelta
from pathlib import Path

import django_stubs_ext
import environ
from celery.schedules import crontab
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

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
SITE_IS_HTTPS = SITE_URL.startswith("https://")
if SITE_IS_HTTPS:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # TLS ends at the proxy, which reports the original scheme in this header: the
    # redirect below trusts it, so the proxy must set it on every request.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    # Browsers that saw the site once refuse plain HTTP to it for this long. Preload makes
    # the site eligible for the browsers' built-in lists; it is only added once the
    # domain is submitted (hstspreload.org), which also takes every subdomain.
    SECURE_HSTS_SECONDS = env.int("HSTS_SECONDS", default=365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("HSTS_PRELOAD", default=True)

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
    "axes",
    "csp",
    "pgtrigger",
    "pghistory",
    # The rules library (its template tags); each app registers its permissions by
    # importing its permissions.py in its AppConfig.ready().
    "rules",
    # The floor under the apps: plumbing that names none of them.
    "common",
    "accounts",
    "notifications",
    "games",
    "leagues",
    "moderation",
    # What an operator needs (config.apps): probes, metrics, backups. Last: it watches
    # the apps above.
    "config",
    # django-health-check: the readiness probe's checks and page (config.probes).
    "health_check",
]

MIDDLEWARE = [
    # The web process never runs the solver: a request that calls it fails at once.
    "config.middleware.NoSolverMiddleware",
    # The probes answer before anything else but the solver's refusal: an orchestrator
    # asks over plain HTTP at the container's own address, which the https redirect and
    # ALLOWED_HOSTS below would answer with a redirect or a 400.
    "config.probes.ProbeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The member's time zone for the request's pages and forms.
    "accounts.middleware.TimeZoneMiddleware",
    # Puts the request's user and URL into the context of the history events it causes.
    "pghistory.middleware.HistoryMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Vary: HX-Request, and no caching of fragments: Back shows whole pages.
    "config.middleware.HtmxHistoryMiddleware",
    "csp.middleware.CSPMiddleware",
    # Turns a refused request of django-ratelimit into RATELIMIT_VIEW's 429 page.
    "django_ratelimit.middleware.RatelimitMiddleware",
    # Last, as django-axes asks: it answers a locked-out log-in with its lockout page.
    "axes.middleware.AxesMiddleware",
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
                "notifications.context_processors.header_counts",
                "moderation.context_processors.moderation_nav",
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

# Without DATABASE_URL the settings still load, on Django's dummy backend, so that tools
# which need no database (mypy's Django plugin, makemigrations --check) run anywhere;
# `migrate` and `check --database default` then stop with this message
# (config.checks.database_url), and any query fails on the dummy backend.
DATABASE_URL_MISSING = (
    "DATABASE_URL is not set. `make run` starts an embedded PostgreSQL and sets it; "
    "otherwise point it to a PostgreSQL database, e.g. "
    "DATABASE_URL=postgres://user:password@127.0.0.1:5432/rummikub"
)
if env.str("DATABASE_URL", default=""):
    DATABASES = {"default": env.db_url("DATABASE_URL")}
else:
    DATABASES = {"default": {"ENGINE": "django.db.backends.dummy", "NAME": ""}}
if DATABASES["default"]["ENGINE"] not in (
    "django.db.backends.postgresql",
    "django.db.backends.dummy",
):
    raise ImproperlyConfigured(
        "DATABASE_URL must point to PostgreSQL (postgres://...): the app relies on its row "
        "locks, constraints and triggers"
    )
# The tables' owner, when the app's processes connect as a role that owns nothing
# (README, "Two database roles"): the user, password, host and port of
# DATABASE_OWNER_URL, on the database of DATABASE_URL. `migrate`, `flush` and
# `grant_app_role` connect with them (moderation.db_role.owner_connection); without it,
# DATABASE_URL's role is the owner too.
DATABASE_OWNER = (
    env.db_url("DATABASE_OWNER_URL") if env.str("DATABASE_OWNER_URL", default="") else None
)
# Set by `make run` (config.runstack) when the database is the embedded PostgreSQL it
# started: `seed_demo --if-embedded` creates the demo accounts there and nowhere else.
DATABASE_EMBEDDED = env.bool("DATABASE_EMBEDDED", default=False)
if env.bool("DATABASE_POOL", default=False):
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
    # A pooled connection may have died while it waited (the server restarted, an
    # administrator or a failover ended it): with health checks Django has the pool try
    # each one with an empty query before lending it (ConnectionPool.check_connection)
    # and replace a dead one, so the request that gets it never sees the error. It costs
    # a round trip per request.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Behind PgBouncer in transaction mode (docs/operating.md, "Containers"), each transaction
# may run on another server connection: what lives in a session does not follow. Django's
# server-side cursors (QuerySet.iterator()) are named cursors held across fetches, and
# psycopg prepares a statement it has run five times on the server session; both then
# meet a connection that never saw them. Transaction-level advisory locks, the only
# kind the app takes, are safe there.
DATABASE_TRANSACTION_POOLING = env.bool("DATABASE_TRANSACTION_POOLING", default=False)
if DATABASE_TRANSACTION_POOLING:
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="redis://127.0.0.1:6379/0")

# Celery workers and web processes meet in Redis: a task publishes to a game's group
# and every daphne process delivers to the browsers it holds.
CHANNEL_LAYERS = {
    "default": {
        # channels_redis's layer, counting the pushes for the metrics (config.metrics).
        "BACKEND": "config.channel_layer.CountedRedisChannelLayer",
        "CONFIG": {
            # redis-py 8 times out a read after 5 s by default, the same length as
            # channels_redis's own blocking read: a quiet socket would be torn down every
            # 5 s and pushes lost. The layer's blocking read has its own timeout.
            # After Redis restarts, each pooled connection fails once ("closed by
            # server") before it reconnects: without retries that failure refused a
            # socket or lost a push. Three tries, 50 ms apart at first.
            "hosts": [
                {
                    "address": REDIS_URL,
                    "socket_timeout": None,
                    "retry": Retry(ExponentialBackoff(cap=1.0, base=0.05), 3),
                }
            ],
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

# Two queues, each served by workers of its own (docs/operating.md, "Deployment"): a bot's turn may
# run the solver for seconds, and on a shared worker a few of them would hold every
# process while turn deadlines, sweeps and mail wait behind them. Every task goes to
# "main" unless routed here, so a task added later never lands among the bots. A worker
# started without --queues serves both (tests, a quick local worker). CELERY_QUEUE_PREFIX
# keeps sites (or test runs) that share a Redis database apart.
_queue_prefix = env.str("CELERY_QUEUE_PREFIX", default="")
CELERY_TASK_DEFAULT_QUEUE = f"{_queue_prefix}main"
# Each queue with an exchange of its own name (else Celery binds every queue to the
# default queue's exchange, and a task for one would reach both).
CELERY_TASK_QUEUES = [
    Queue(name, Exchange(name), routing_key=name)
    for name in (CELERY_TASK_DEFAULT_QUEUE, f"{_queue_prefix}bots", f"{_queue_prefix}solver")
]
# The bots' queue also proves members' forced turns (the solver) and makes their draws.
# The "solver" queue answers what a member asked the solver for on a page (a hint,
# "arrange for me", a River take, a replay's analysis, a case's evidence lines): the web
# process never runs the solver (games.solver_tasks, common.answers), and a member waits
# for their answer behind nobody's bot.
CELERY_TASK_ROUTES = {
    **{
        name: {"queue": f"{_queue_prefix}bots"}
        for name in (
            "games.tasks.play_bot_turn",
            "games.tasks.prove_forced_turn",
            "games.tasks.draw_forced_turn",
        )
    },
    **{
        name: {"queue": f"{_queue_prefix}solver"}
        for name in (
            "games.solver_tasks.answer_hint",
            "games.solver_tasks.answer_arrange",
            "games.solver_tasks.answer_river_take",
            "games.solver_tasks.answer_analysis",
            "moderation.tasks.answer_evidence_lines",
        )
    },
}
# Every task is bounded: past the soft limit it gets SoftTimeLimitExceeded, its
# transaction rolls back and it ends; past the hard limit its process is killed and
# replaced. Tasks that need other bounds set them where they are defined (games.tasks).
CELERY_TASK_SOFT_TIME_LIMIT = 30
CELERY_TASK_TIME_LIMIT = 60
# Tasks are acknowledged when they start (Celery's default), not when they end
# (task_acks_late with task_reject_on_worker_lost), although every task is idempotent
# and could run twice. Measured with `make bench-faults`: with late acknowledgement a
# Celery 5.7 worker stops for good when a task ends after Redis restarted (it acks on the
# dead channel). What late acknowledgement would save, a deadline whose task died with
# its process, the sweep ends anyway within GAMES_SWEEP_SECONDS; and a bot's position
# that kills its process would come back forever.
CELERY_TASK_ACKS_LATE = False
# The bots' worker reserves one task per process (`--prefetch-multiplier 1`, see
# config/runstack.py), so a bot's turn never waits behind a long one while another
# process is idle. The main worker keeps Celery's default: its tasks are short, and
# there the clocks' ETA tasks, held until due, count against the prefetch (with one per
# process, a browser test's due timeout was once left unrun while the worker held another).
# The solver can grow a process by hundreds of megabytes: a process found above this
# (KiB) after a task is replaced, so memory one big position took is given back.
CELERY_WORKER_MAX_MEMORY_PER_CHILD = 400_000
# Survives a Redis restart (see its docstring).
CELERY_WORKER_CONSUMER = "config.celery_app:Consumer"
GAMES_SWEEP_SECONDS = env.float("GAMES_SWEEP_SECONDS", default=5.0)
# How long before a matchday's deadline its players with unfinished fixtures are reminded.
LEAGUES_REMINDER_HOURS = env.int("LEAGUES_REMINDER_HOURS", default=24)
LEAGUES_CLOSE_GRACE_HOURS = env.int("LEAGUES_CLOSE_GRACE_HOURS", default=48)
# Clubs and leagues: what one club, and one member, may have or do at once or in an hour
# (docs/playing.md, "Clubs and leagues"). They are counted from the rows, not from requests, so a
# refusal is exact and nobody uses up another member's or club's allowance.
LEAGUES_PER_CLUB = 20
LEAGUES_OPEN_SEASONS_PER_CLUB = 10
LEAGUES_JOIN_REQUESTS_PER_HOUR = 5
LEAGUES_PENDING_REQUESTS_PER_CLUB = 50
LEAGUES_INVITATIONS_PER_CLUB_PER_HOUR = 30
# Seasons the beat job tries to start in one run, the longest due first; the rest are
# tried by the next run (a season that cannot start is marked and left to its organisers).
LEAGUES_STARTS_PER_RUN = 10
# A matchday that could not open at its time is tried again after this long, not every run.
LEAGUES_RETRY_MINUTES = 15
# A vacation also counts against the allowance of each league season the member plays
# (games calls it by name: games never imports leagues).
GAMES_VACATION_POLICY = "leagues.services.vacations.check_allowance"
# Moderation: a suspended member may not chat at, sit at or move at a table of the club
# (or site) they are suspended from; games asks by name (it never imports moderation).
GAMES_CHAT_POLICY = "moderation.policies.may_chat"
GAMES_PLAY_POLICY = "moderation.policies.may_play"
# ... and may not register for a season, join a club again, or be seated as a substitute
# there (leagues asks by name too: it never imports moderation).
LEAGUES_PLAY_POLICY = "moderation.policies.refusal"
# Who sees a private club's fixture tables besides their players: the club's members
# (leagues) and the site moderators of a case about the table (moderation).
GAMES_SIGHT_POLICY = "moderation.policies.table_sight"
# What the others read instead of the league and club a private table belongs to.
GAMES_HIDDEN_BELONGS_TO = "a private club's fixture"
# Moderation: an organiser may not change the score of a game they are a party to a case
# about; leagues asks by name (it never imports moderation).
LEAGUES_PARTY_POLICY = "moderation.permissions.party_to_game"
# Moderation: a suspension from a club (or the site) takes away its member's organiser's
# and moderator's powers there while it lasts; leagues asks by name.
LEAGUES_STAFF_POLICY = "moderation.policies.staff_refusal"

# Moderation, telling (outcomes, appeals, the log): how many messages a member may write
# in appeals a day, and how many entries the moderation log page shows at once.
MODERATION_APPEAL_MESSAGES_PER_DAY = 20
MODERATION_LOG_PER_PAGE = 50

# Moderation: filing and the queue. A moderator's claim on a case lapses after this long
# unseen; a case still open this long escalates (to the club's owner, then the site
# moderators); a member files at most this many reports a day.
MODERATION_CLAIM_MINUTES = 30
MODERATION_ESCALATE_HOURS = 48
MODERATION_REPORTS_PER_DAY = 5

# Moderation, the evidence of a case: the solver's work for each turn's line (steps: the
# same line whatever the load; the seconds are only a last stop, about ten times what the
# steps take on a quiet server), and the time for one request of the evidence in all (the
# page then asks again for the turns left over); the page's own first answer takes a
# shorter slice, so that it paints at once.
MODERATION_EVIDENCE_TURN_STEPS = 60_000
MODERATION_EVIDENCE_TURN_SECONDS = 2.5
MODERATION_EVIDENCE_SECONDS = 3.0
MODERATION_EVIDENCE_FIRST_SECONDS = 0.5
# ... and a worker's job of lines (the "solver" queue; the page asks again for the rest).
MODERATION_EVIDENCE_JOB_SECONDS = 20.0
# Beat runs on every node (docs/operating.md, "Deployment"): celery-redbeat keeps the schedule in
# Redis, and a lock there lets one beat send while the others stand by
# (config.beat.LockedScheduler). The sending beat renews the lock at each tick, at least
# every second; a standby beat takes it once it lapses, so a beat killed with its node is
# replaced within CELERY_REDBEAT_LOCK_TIMEOUT seconds, and the sweeps carry on.
CELERY_BEAT_SCHEDULER = "config.beat.LockedScheduler"
CELERY_BEAT_MAX_LOOP_INTERVAL = 1
CELERY_REDBEAT_REDIS_URL = REDIS_URL
CELERY_REDBEAT_REDIS_OPTIONS = {"socket_timeout": 5, "socket_connect_timeout": 5}
CELERY_REDBEAT_KEY_PREFIX = f"{_queue_prefix}redbeat:"
CELERY_REDBEAT_LOCK_TIMEOUT = 5
# Periodic jobs (deadline sweeps) are registered here by the apps that own them.
# How often the beat job walks the moderation log's hash chain (the log page shows when).
MODERATION_LOG_CHECK_SECONDS = env.float("MODERATION_LOG_CHECK_SECONDS", default=600.0)
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
    "games-sweep-forced-draws": {
        "task": "games.tasks.sweep_forced_draws",
        "schedule": GAMES_SWEEP_SECONDS,
        "options": {"expires": GAMES_SWEEP_SECONDS},
    },
    "leagues-run-seasons": {
        "task": "leagues.tasks.run_seasons",
        "schedule": GAMES_SWEEP_SECONDS,
        "options": {"expires": GAMES_SWEEP_SECONDS},
    },
    "moderation-sweep-cases": {
        "task": "moderation.tasks.sweep_cases",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    # The whole log's hash chain, walked in a worker; the log page shows its last answer.
    "moderation-check-log-chain": {
        "task": "moderation.tasks.check_log_chain",
        "schedule": MODERATION_LOG_CHECK_SECONDS,
        "options": {"expires": MODERATION_LOG_CHECK_SECONDS},
    },
    # Players' connections to game pages, kept for moderators GAMES_CONNECTION_DAYS.
    "games-prune-page-connections": {
        "task": "games.tasks.prune_page_connections",
        "schedule": crontab(hour=3, minute=30),
    },
    # Each member's digest at the hour they chose, in their zone: every quarter of an
    # hour, since zones are whole, half and quarter hours off UTC. A run finds the
    # members due (and those a lost run missed); each member gets one per day of theirs.
    "notifications-daily-digests": {
        "task": "notifications.tasks.send_daily_digests",
        "schedule": crontab(minute="*/15"),
        "options": {"expires": 15 * 60},
    },
    # What members' quiet hours held, sent within a minute of their end.
    "notifications-release-held": {
        "task": "notifications.tasks.release_held",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
}

# The app's cache: request counters of the rate limits, the solver's hints and answers,
# standings, the one-at-a-time guards of the solver's work. Everything in it can be lost
# (recomputed, or a count that restarts), so a site may give it a Redis of its own that
# evicts (REDIS_CACHE_URL, maxmemory-policy allkeys-lru) while the broker's and the
# channel layer's Redis (REDIS_URL) must never evict (noeviction): a queued task, a
# push, a beat lock or a socket slot lost would be a deadline late or a page stale. By
# default it shares REDIS_URL, under its own key prefix (a test run or a second site on
# the same Redis takes another).
REDIS_CACHE_URL = env.str("REDIS_CACHE_URL", default=REDIS_URL)
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_CACHE_URL,
        "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="rk"),
    },
}

AUTH_USER_MODEL = "accounts.User"
# django-axes' backend comes first: it refuses a locked-out log-in before any password
# is checked, and counts the failures.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Object permissions as predicates (each app's permissions.py):
    # has_perm("leagues.manage_club", club).
    "rules.permissions.ObjectPermissionBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Log-in: after AXES_FAILURE_LIMIT wrong passwords for one username from one address,
# that pair is locked out for AXES_COOLOFF_TIME (a 429 page saying when to retry);
# another address, or the right person elsewhere, still gets in.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_RESET_ON_SUCCESS = True
# Failures are kept (to count them); a row per successful log-in is not needed.
AXES_DISABLE_ACCESS_LOG = True

# Requests per member and per address ("count/period", django-ratelimit's notation),
# counted in the default cache. Past a limit a request gets a 429 page and changes
# nothing; password-reset mails past theirs are silently not sent (the answer page is
# the same, so it does not tell whether an account exists).
RATE_LIMITS = {
    # A club signs its members up on one network (one address behind its router): 40 an
    # hour lets a big evening through, while still rationing accounts per address.
    "signup_per_address": "40/h",
    "password_reset_per_address": "20/h",
    "reset_mails_per_email": "3/h",
    "reset_mails_per_address": "10/h",
    "new_table_per_member": "30/h",
    "new_table_per_address": "60/h",
    "new_club_per_member": "5/h",
    "club_invitations_per_member": "100/h",
}
RATELIMIT_VIEW = "accounts.views.rate_limited"
# Open websockets at once (game pages and the header's counts: two per open game page),
# per member and per address. The member's limit is the guard (accounts are rationed by
# the sign-up limit); the address's is generous, since a club behind one NAT, or every
# visitor of a proxy started without --proxy-headers, shares one.
WEBSOCKETS_PER_MEMBER = env.int("WEBSOCKETS_PER_MEMBER", default=20)
WEBSOCKETS_PER_ADDRESS = env.int("WEBSOCKETS_PER_ADDRESS", default=500)
# An open socket's slot counts this long after its last heartbeat (the consumers beat
# every third of it), so the slots of a process that stopped without closing its
# sockets lapse within it.
WEBSOCKET_SLOT_SECONDS = env.float("WEBSOCKET_SLOT_SECONDS", default=60)

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
# A stalled mail server must not hold a worker for ever.
EMAIL_TIMEOUT = 10

# Web Push (notifications.services.push). The site's VAPID key: a P-256 private key, its
# 32 bytes in base64url (`make run` makes one on first start and keeps it in .data/; a
# deployment sets it once and keeps it: a new key orphans every device's subscription).
# Empty: no push is offered. The public key browsers subscribe with is derived from it.
WEBPUSH_VAPID_PRIVATE_KEY = env.str("WEBPUSH_VAPID_PRIVATE_KEY", default="")
# Who push services may contact about the pushes (a mailto: or https: address).
WEBPUSH_VAPID_SUBJECT = env.str("WEBPUSH_VAPID_SUBJECT", default="")
# The push services the server will POST to: an endpoint's host must be one of these or
# under one (a subscription names any address it likes; the server must not be made to
# call into its own network). The browsers' services: Chrome's, Firefox's, Safari's, Edge's.
WEBPUSH_ENDPOINT_HOSTS = env.list(
    "WEBPUSH_ENDPOINT_HOSTS",
    default=[
        "fcm.googleapis.com",
        "push.services.mozilla.com",
        "push.apple.com",
        "notify.windows.com",
    ],
)
WEBPUSH_ENDPOINT_HTTPS = True
# The most devices one member may have subscribed: a new one past it replaces their
# least recently used.
WEBPUSH_DEVICES_PER_MEMBER = env.int("WEBPUSH_DEVICES_PER_MEMBER", default=10)

LANGUAGE_CODE = "en-us"
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

# Scripts and styles come only from static/ (htmx, its websocket extension and ours): no
# inline script, no inline style, no eval. The lone progress bar that needs a computed
# width gets it from a data attribute by script (CSSOM, which the policy allows).
# Websockets go to this site: 'self' covers ws(s) to it in current browsers, the
# explicit origin covers older ones.
_SOCKET_ORIGIN = SITE_URL.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF, _SOCKET_ORIGIN],
        # The service worker (/sw.js) and the web app manifest come from this site.
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

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
    # django-axes says something at INFO about every log-in; its warnings (repeated
    # failures, a lockout) are the lines worth reading.
    "loggers": {"axes": {"level": "WARNING"}},
}

# --- What an operator watches (docs/operating.md, "Health, metrics and errors") ---

# The readiness probe asks every queue for a worker's heartbeat (config.heartbeat): each
# worker writes one every HEARTBEAT_SECONDS; one older than three of them is no worker.
WORKER_HEARTBEAT_SECONDS = env.float("WORKER_HEARTBEAT_SECONDS", default=10.0)

# Prometheus metrics (config.metrics), in prometheus_client's multiprocess mode: every
# process of a node (each daphne, each worker's processes) writes its counts to files in
# PROMETHEUS_MULTIPROC_DIR, and /metrics/ of any web process adds them all up. The folder
# is emptied when the node starts (`make run` makes a new one; a container's is a
# tmpfs). Without it, no request is counted and /metrics/ shows this process alone.
METRICS_DIR = env.str("PROMETHEUS_MULTIPROC_DIR", default="")
# /metrics/ answers only a request bearing this token ("Authorization: Bearer ...");
# without a token it is not served at all (404). The nginx example also keeps it off the
# public side.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
if METRICS_DIR:
    # django-prometheus counts every request by view, method and status, and times it:
    # first in, last out.
    MIDDLEWARE = [
        "django_prometheus.middleware.PrometheusBeforeMiddleware",
        *MIDDLEWARE,
        "django_prometheus.middleware.PrometheusAfterMiddleware",
    ]

# Errors to Sentry when SENTRY_DSN is set (config.sentry): no personal data, no request
# bodies, no local variables, and anything that could name a tile scrubbed, so no rack
# or pool leaves the site in an error report.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
SENTRY_ENVIRONMENT = env.str("SENTRY_ENVIRONMENT", default="production")
SENTRY_TRACES_SAMPLE_RATE = env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0)
if SENTRY_DSN:
    from config import sentry

    sentry.start(SENTRY_DSN, SENTRY_ENVIRONMENT, SENTRY_TRACES_SAMPLE_RATE)
