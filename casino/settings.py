"""Settings, all from the environment (see deploy/env.example).

DJANGO_ENV=production is production mode: it refuses the development secret key and
DEBUG, requires ALLOWED_HOSTS, and turns on every HTTPS protection that
``manage.py check --deploy`` looks for.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from .client_address import axes_ipware_settings
from .env import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_number,
    env_rate,
    env_str,
    env_time_zone,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))

DJANGO_ENV = env_choice("DJANGO_ENV", "development", ("development", "production", "test"))
PRODUCTION = DJANGO_ENV == "production"

_DEV_SECRET_KEY = "django-insecure-development-only-never-use-in-production"  # noqa: S105
SECRET_KEY = env_str("SECRET_KEY") or _DEV_SECRET_KEY
DEBUG = env_bool("DEBUG", default=not PRODUCTION)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
for _origin in CSRF_TRUSTED_ORIGINS:
    if "://" not in _origin:
        raise ImproperlyConfigured(f"CSRF_TRUSTED_ORIGINS: {_origin!r} needs a scheme, e.g. https://{_origin}")

if PRODUCTION:
    if SECRET_KEY == _DEV_SECRET_KEY or SECRET_KEY.startswith("django-insecure") or len(SECRET_KEY) < 50:
        raise ImproperlyConfigured(
            "SECRET_KEY: production needs its own key of at least 50 characters "
            "(python -c 'import secrets; print(secrets.token_urlsafe(50))')"
        )
    if DEBUG:
        raise ImproperlyConfigured("DEBUG: must be false in production (DJANGO_ENV=production)")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("ALLOWED_HOSTS: production needs the host names it serves")

#: Default time zone of a new casino/property, and of pages without one.
CASINO_TIME_ZONE = env_time_zone("CASINO_TIME_ZONE", "America/New_York")
TIME_ZONE = "UTC"  # everything is stored in UTC; the gaming day comes from each casino's zone
USE_TZ = True
USE_I18N = True
LANGUAGE_CODE = "en-us"
#: One date format per locale, ISO in English (casino/formats/en/formats.py, docs/floor/words.md).
FORMAT_MODULE_PATH = ["casino.formats"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served from our static files, not a CDN
    "simple_history",
    "django_htmx",
    "axes",
    "casino",
    "tables",
    "audit",
    "audit.reports",
    "audit.rollups",
    "audit.jackpots",
    "tables.accounting",
    "audit.fluctuations",
    "audit.advantage",
    "audit.ratings",
    "audit.decisions",
    "tables.closing",
    "tables.players",
    "audit.compliance",
    "casino.demo",  # last: it loads the demo casino through every app above (load_demo)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout answer.
    "axes.middleware.AxesMiddleware",
]

if PRODUCTION:  # runserver serves static files in development
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "casino.context_processors.navigation",
            ],
        },
    },
]

_DATABASE_URL = env_str("DATABASE_URL")
if _DATABASE_URL:
    try:
        DATABASES = {"default": dj_database_url.parse(_DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL: {exc}") from None
    _PREPARED = env_bool("DATABASE_PREPARED", default=True)
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and _PREPARED:
        # The round recorder's statements are prepared once per connection, the others
        # never (casino/prepared.py): the cursor decides per statement, and any
        # prepare_threshold (Django's None forbids preparing at all) lets it.
        # DATABASE_PREPARED=false behind a pooler that cannot follow prepared statements
        # (see deploy/README.md).
        from .prepared import PreparingCursor

        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=5, cursor_factory=PreparingCursor)
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- What a round sets off (tables/round_effects.py) ------------------------------------------
# Recording, correcting or voiding a round writes its own rows, then, in the same transaction and
# in this order: the ledgers that move with rounds and may refuse one, then the figures derived
# from rounds. The floor never imports these apps; this list is where they are named.
ROUND_LEDGERS = [
    "audit.jackpots.meters.JackpotMeters",  # the Taxpayer's Fortune banks: meters, awards, reversals
]
ROUND_PROJECTIONS = [
    "audit.rollups.writer.DeskRollups",  # the desk's daily dealer and pattern figures
    "audit.advantage.lines.CountLines",  # the running count's line of each round
    "audit.ratings.writer.RatingSessions",  # the players' rating sessions
    "audit.decisions.pricing.DecisionQueue",  # the round queued for its decisions' prices
]

# --- Read replica (casino/db_routing.py; deploy/README.md, "Read replica") ------------------
#: A browser or user that wrote reads the primary for this long after, so it sees its own
#: write whatever the replica's lag; keep it above REPLICA_MAX_LAG_SECONDS + REPLICA_LAG_CHECK_SECONDS.
REPLICA_PIN_SECONDS = env_int("REPLICA_PIN_SECONDS", 10, minimum=0)
#: A replica further behind than this is skipped (0: never checked).
REPLICA_MAX_LAG_SECONDS = env_int("REPLICA_MAX_LAG_SECONDS", 5, minimum=0)
REPLICA_LAG_CHECK_SECONDS = env_int("REPLICA_LAG_CHECK_SECONDS", 2, minimum=1)
#: After a refused connection the replica is left alone this long (reads go to the primary).
REPLICA_RETRY_SECONDS = env_int("REPLICA_RETRY_SECONDS", 10, minimum=1)
_DATABASE_REPLICA_URL = env_str("DATABASE_REPLICA_URL")
if _DATABASE_REPLICA_URL:
    if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_REPLICA_URL: a read replica needs DATABASE_URL to name its PostgreSQL primary")
    try:
        _replica = dj_database_url.parse(_DATABASE_REPLICA_URL, conn_max_age=60, conn_health_checks=True)
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_REPLICA_URL: {exc}") from None
    if _replica["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_REPLICA_URL: the replica must be PostgreSQL (postgres://...)")
    # The primary's options (prepared statements, cursor) so a query runs alike on both; a
    # replica that does not answer is given up on quickly and the primary read instead.
    _replica["OPTIONS"] = {**DATABASES["default"].get("OPTIONS", {}), **_replica.get("OPTIONS", {})}
    _replica["OPTIONS"].setdefault("connect_timeout", env_int("REPLICA_CONNECT_TIMEOUT", 2, minimum=1))
    # Tests: no test database is created on the read-only replica; tests/conftest.py points the
    # alias at the replica's streamed copy of the primary's test database.
    _replica["TEST"] = {"MIRROR": "default"}
    DATABASES["replica"] = _replica
    DATABASE_ROUTERS = ["casino.db_routing.PrimaryReplicaRouter"]
    # Outside the session middleware, so a session saved on the way out counts as a write.
    MIDDLEWARE.insert(MIDDLEWARE.index("django.contrib.sessions.middleware.SessionMiddleware"),
                      "casino.db_routing.ReplicaPinMiddleware")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out login before the password is even checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"

# --- Login attempts (django-axes) ----------------------------------------------------------
#: How many proxies in front of the app append to X-Forwarded-For (nginx: 1). The client's
#: address for the login lockout and the API's anonymous throttle is read that many hops
#: back; 0 trusts nothing but the socket's address.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 1 if PRODUCTION else 0, minimum=0)
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
#: A locked login opens again by itself after this; a gaming manager may unlock it sooner.
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
#: A user name is locked from the address that failed: a floor's tablets share one address
#: behind NAT, so locking the address would lock out the whole pit.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "casino.lockout.lockout_response"
#: The address is read by django-ipware from the hop DRF's NUM_PROXIES reads (the rule and why:
#: casino/client_address.py); not strict, so a client's own X-Forwarded-For entries are skipped.
_AXES_IPWARE = axes_ipware_settings(TRUSTED_PROXY_COUNT)
AXES_IPWARE_PROXY_COUNT = _AXES_IPWARE["AXES_IPWARE_PROXY_COUNT"]
AXES_IPWARE_META_PRECEDENCE_ORDER = _AXES_IPWARE["AXES_IPWARE_META_PRECEDENCE_ORDER"]
IPWARE_STRICT = False
AXES_VERBOSE = False
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

STATIC_URL = "/static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "static")))
STATICFILES_DIRS = [BASE_DIR / "casino" / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
REPORTS_ROOT = Path(env_str("REPORTS_ROOT", str(VAR_DIR / "reports")))

# --- HTTPS and cookies -------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = PRODUCTION
CSRF_COOKIE_SECURE = PRODUCTION
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=PRODUCTION)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if PRODUCTION else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = PRODUCTION
SECURE_HSTS_PRELOAD = PRODUCTION
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if PRODUCTION else None
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_AGE = 12 * 60 * 60  # one shift

#: The API throttles count in this cache: per process unless CACHE_URL names a shared Redis
#: (then the rates hold across gunicorn's workers). While that Redis is unreachable the cache
#: answers as an empty one, with a warning (casino/cache.py; docs/operations/outages.md).
_CACHE_URL = env_str("CACHE_URL")
CACHES = {"default": {"BACKEND": "casino.cache.ResilientRedisCache", "LOCATION": _CACHE_URL}
          if _CACHE_URL else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

#: Lifetime of a new API token unless the gaming manager who issues it chooses another.
API_TOKEN_LIFETIME_DAYS = env_int("API_TOKEN_LIFETIME_DAYS", 90, minimum=1)
API_TOKEN_MAX_LIFETIME_DAYS = env_int("API_TOKEN_MAX_LIFETIME_DAYS", 365, minimum=1)
# Player ratings (audit/ratings): rounds at one table further apart than this start a new rating
# session, and the gap is not time on game.
RATING_GAP_MINUTES = env_int("RATING_GAP_MINUTES", 15, minimum=1)

# --- API ---------------------------------------------------------------------------------
#: A history row keeps the whole reason (a 500-character reason, a 2,000-character review
#: note), not django-simple-history's default 100 characters.
SIMPLE_HISTORY_HISTORY_CHANGE_REASON_USE_TEXT_FIELD = True
#: The largest request body, API and pages alike (an API body over it is answered 413).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "casino.token_auth.RoleTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["casino.permissions.RolePermission"],
    # Rates far above what a floor sends (a tablet records a round every few seconds; the
    # ingest benchmark sends ~300 rounds/s under one token): they stop a runaway client or
    # a leaked token, not the floor. Per second, so DRF's window stays short.
    # No anonymous throttle: every endpoint refuses anonymous callers (RolePermission) before
    # DRF counts them; logins are limited by django-axes.
    "DEFAULT_THROTTLE_CLASSES": ["casino.throttling.UserThrottle"],
    "DEFAULT_THROTTLE_RATES": {"user": env_rate("API_THROTTLE_USER", "1000/second")},
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Filters refuse a value they cannot read (casino/api_filters.py).
    "DEFAULT_FILTER_BACKENDS": ["casino.api_filters.StrictFilterBackend"],
    # Every list a page of at most 500; JSON bodies only, within the size and depth limits
    # and holding storable text (casino/pagination.py, casino/api_input.py).
    "DEFAULT_PAGINATION_CLASS": "casino.pagination.CappedLimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_PARSER_CLASSES": ["casino.api_input.LimitedJSONParser"],
    "COERCE_DECIMAL_TO_STRING": True,
    "EXCEPTION_HANDLER": "casino.api_errors.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Casino table games API",
    "DESCRIPTION": (
        "Floor, rulesets, live round recording and audit for Ante Up 21, Upcard Luck 21, "
        "Poker or Bust, Hold'em Blackjack and Blackjack Tie. Amounts are decimal strings; "
        "times are UTC; every endpoint checks the caller's role."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["casino.permissions.RolePermission"],
    # The docs' JavaScript and CSS come from the pinned drf-spectacular-sidecar package, so
    # /api/docs/ and /api/redoc/ work on a floor network without internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "casino.openapi.add_error_responses",
    ],
    "ENUM_NAME_OVERRIDES": {
        "RoundStatusEnum": "tables.models.Round.STATUSES",
        "FindingStatusEnum": "tables.models.Finding.STATUSES",
        "ReportStatusEnum": "audit.reports.models.DailyReport.STATUSES",
        "InventorySlipKindEnum": "tables.accounting.models.InventorySlip.KINDS",
        "ChipSlipKindEnum": "tables.accounting.models.ChipSlip.KINDS",
        "ChipSlipStatusEnum": "tables.accounting.models.ChipSlip.STATUSES",
        "AccountingFindingCodeEnum": "tables.accounting.models.AccountingFinding.CODES",
        "BuyInKindEnum": "tables.accounting.models.BuyIn.KINDS",
        "CountLineKindEnum": "tables.accounting.models.SoftCountLine.KINDS",
        "CashOutKindEnum": "audit.compliance.models.CashOut.KINDS",
        # Advantage play's signals under one field name, "signal": the bet's, and the two play
        # signals' (hole-card play and play against the count share their choices).
        "BetSignalEnum": "audit.advantage.selectors.SIGNAL_WORDS",
        "PlaySignalEnum": "audit.advantage.plays.HOLE_WORDS",
    },
}

# --- Celery ------------------------------------------------------------------------------
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL") or None
#: Without a broker the quick start runs tasks in-process, eagerly.
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL and CELERY_BROKER_URL.startswith("redis") else None
)
CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task whose worker dies comes back (audit/reports/README.md, "When a worker dies"): at once
# when only its pool process died (rejected, requeued), after the broker's visibility timeout
# when the whole worker did (its message was never acknowledged). No task may outlive that
# timeout, or its message would be handed to a second worker while the first still runs it.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 300, minimum=2)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 270, minimum=1)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 240, minimum=1)
if not CELERY_TASK_SOFT_TIME_LIMIT < CELERY_TASK_TIME_LIMIT < CELERY_VISIBILITY_TIMEOUT:
    raise ImproperlyConfigured(
        "CELERY_TASK_SOFT_TIME_LIMIT < CELERY_TASK_TIME_LIMIT < CELERY_VISIBILITY_TIMEOUT must hold "
        f"(got {CELERY_TASK_SOFT_TIME_LIMIT}, {CELERY_TASK_TIME_LIMIT}, {CELERY_VISIBILITY_TIMEOUT} s)"
    )
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    # Look for messages past their visibility timeout every N seconds (kombu's default scans
    # every 10 x 10 s), so a lost task is back within the timeout plus N.
    "unacked_restore_interval": env_int("CELERY_UNACKED_RESTORE_INTERVAL", 10, minimum=1),
    "unacked_restore_throttle": 1,
}
#: A report run with no progress (no heartbeat) for this long is stale: it may be retried at
#: once. Longer than the visibility timeout: a slice lost with its worker is back by then.
REPORTS_STALE_SECONDS = env_int("REPORTS_STALE_SECONDS", CELERY_VISIBILITY_TIMEOUT + 60, minimum=1)
#: A slice started this many times without finishing (its worker died each time) fails the run.
REPORTS_SLICE_ATTEMPTS = env_int("REPORTS_SLICE_ATTEMPTS", 3, minimum=1)
#: Advantage play (audit/advantage/): a player is flagged when the lower bound of the 95% interval
#: of r (true count against bet) is above this, over at least this many rounds.
ADVANTAGE_FLAG_LOWER_BOUND = env_number("ADVANTAGE_FLAG_LOWER_BOUND", 0.3, low=-1.0, high=1.0)
ADVANTAGE_FLAG_MIN_ROUNDS = env_int("ADVANTAGE_FLAG_MIN_ROUNDS", 30, minimum=4)
#: The play signals (audit/advantage/plays.py: hole-card play, play against the count): flagged at
#: this one-sided level (the hole-card signal's exact tail; the count signal's z at its quantile,
#: 3.72), over at least this many deviations from the upcard-best play.
ADVANTAGE_PLAY_FLAG_P = env_number("ADVANTAGE_PLAY_FLAG_P", 0.0001, low=1e-9, high=0.5)
ADVANTAGE_PLAY_FLAG_MIN_DEVIATIONS = env_int("ADVANTAGE_PLAY_FLAG_MIN_DEVIATIONS", 10, minimum=1)
#: A gaming day (or table) of at most this many count lines is counted in the request when its
#: stored result is not current; a larger one is recounted by the worker (audit/advantage/results.py).
ADVANTAGE_INLINE_LINES = env_int("ADVANTAGE_INLINE_LINES", 10_000, minimum=0)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
#: Years the partitioned history (rounds, revisions, wagers, findings) is kept before an
#: archived month may be dropped (tables/history/archive.py; deploy/README.md).
HISTORY_RETENTION_YEARS = env_int("HISTORY_RETENTION_YEARS", 7, minimum=1)
#: Months of partitions kept made ahead of today (beat's daily entry; the owner's cron).
HISTORY_PARTITIONS_AHEAD = env_int("HISTORY_PARTITIONS_AHEAD", 12, minimum=1)
#: How often beat refreshes each casino's provisional "today so far" report (minutes).
REPORTS_PROVISIONAL_MINUTES = env_int("REPORTS_PROVISIONAL_MINUTES", 15, minimum=1)
#: How often beat sends the tasks that wait in the outbox (the broker was down when they were
#: queued: casino/outbox.py): the delay, once the broker is back, before they run.
OUTBOX_DRAIN_SECONDS = env_int("OUTBOX_DRAIN_SECONDS", 10, minimum=1)
#: How often beat sends the pricing of the rounds queued for their decisions' prices.
DECISIONS_PRICE_SECONDS = env_int("DECISIONS_PRICE_SECONDS", 5, minimum=1)
#: How long a Celery worker may spend, before it forks its pool, filling the engine's tables of the
#: floor's rulesets (0: none; its children then fill them as rounds come). deploy/env.example sets 120.
DECISIONS_WARM_SECONDS = env_int("DECISIONS_WARM_SECONDS", 0, minimum=0)
CELERY_BEAT_SCHEDULE: dict = {
    "casino-outbox-drain": {"task": "casino.outbox_drain", "schedule": float(OUTBOX_DRAIN_SECONDS)},
    # UTC interval; each casino's gaming day is computed from its own zone and start hour.
    "reports-close-gaming-days": {"task": "reports.close_gaming_days", "schedule": 15 * 60.0},
    # Next months' partitions; DDL, so only an owner's connection creates them (else a warning).
    "history-partitions-ahead": {"task": "history.partitions_ahead", "schedule": 24 * 3600.0},
    # A new ruleset version's exact house edges (the engine's math takes up to a minute of CPU).
    "reports-wager-odds": {"task": "reports.wager_odds_compute", "schedule": 60.0},
    # The recorded decisions' prices, right after each round's commit (audit/decisions/README.md).
    "decisions-price-pending": {"task": "decisions.price_pending", "schedule": float(DECISIONS_PRICE_SECONDS)},
    "reports-provisional-refresh": {
        "task": "reports.provisional_refresh",
        "schedule": REPORTS_PROVISIONAL_MINUTES * 60.0,
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    # django-axes logs every login at INFO; lockouts, at WARNING, still show.
    "loggers": {"axes": {"level": "WARNING"}},
    "root": {"handlers": ["console"], "level": env_choice(
        "LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR"))},
}
