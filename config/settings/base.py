from datetime import timedelta
from pathlib import Path

import environ

from csp.constants import NONCE, NONE, SELF

from campaigns.rule_systems import ApiEnumNames
from config.secrets import DEVELOPMENT_SECRET_KEY

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")  # optional; the process environment wins

DEBUG = env.bool("DEBUG", default=False)
# Without DEBUG, start-up refuses this default (config.secrets, checked in config.apps).
SECRET_KEY = env("SECRET_KEY", default=DEVELOPMENT_SECRET_KEY)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "config.apps.PercentileAdminConfig",  # django.contrib.admin, for GMs too (campaigns.admin_scope)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "axes",
    # Accounts (accounts/, docs/deploy.md "Accounts"): allauth's signup, login, e-mail
    # addresses, password change and reset; the OAuth logins (Discord, from the environment).
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.discord",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "django_filters",  # the API's list filters (campaigns.api_lists)
    "drf_spectacular_sidecar",  # Swagger UI's files, served as our own static files
    "django_htmx",
    "csp",
    "import_export",  # spreadsheets of catalogue rows (campaigns.resources)
    "rules.apps.AutodiscoverRulesConfig",
    "config.apps.PercentileConfig",
    "accounts",
    "campaigns",
    "characters",
    "ew1",
    "homebrew",
    "eclipse",
    "combat",
    "magic",
    "factions",
    "encounters",
    "chat",
    "transfer",
    "notifications",
]

MIDDLEWARE = [
    "config.middleware.BoundedViews",  # first: a request waiting for its turn holds nothing
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files: no policy, no session
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.api.ApiNotFoundMiddleware",  # JSON 404 under /api/, DEBUG on too
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "campaigns.live.OriginMiddleware",  # which page request a change announced came from
    "config.middleware.VaryOnHtmxMiddleware",
    "accounts.middleware.PasswordResetRateLimitMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Last, as axes asks: it turns a lockout noted during the request into its answer.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "accounts.lockout.LoginLockoutBackend",  # django-axes: first, refuses locked-out logins
    "rules.permissions.ObjectPermissionBackend",
    "django.contrib.auth.backends.ModelBackend",
    # allauth's: a login by e-mail address (its login form; axes counts it all the same)
    "allauth.account.auth_backends.AuthenticationBackend",
    "accounts.authentication.ApiTokenBackend",  # personal API tokens (accounts.tokens)
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
                "django.template.context_processors.i18n",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'percentile.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Wait for the writer rather than fail at once when web, worker and beat share the file.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
elif env.bool("DB_POOL", default=True):
    # PostgreSQL through a pool per process (Django's psycopg pool, docs/deploy.md "Database
    # connections"): at most DB_POOL_MAX connections; a request past them waits up to
    # DB_POOL_TIMEOUT seconds for one rather than PostgreSQL refusing a client ("too many
    # clients"); a wait that times out answers 503 (config.middleware.BoundedViews). A pool
    # wants CONN_MAX_AGE 0 (the connection goes back to the pool at the request's end).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DB_POOL_MIN", default=2),
        "max_size": env.int("DB_POOL_MAX", default=10),
        "timeout": env.float("DB_POOL_TIMEOUT", default=10.0),
    }
else:
    # 0 under ASGI, as Django's documentation asks (each request's sync code may run in its own
    # thread); the web processes are ASGI (uvicorn workers).
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
# Sync views running at once in one web process (config.middleware.BoundedViews): under ASGI
# each runs in its own thread with its own database connection; past the bound a request waits
# up to SYNC_VIEWS_WAIT seconds, then answers 503 with Retry-After. Keep it at most DB_POOL_MAX.
SYNC_VIEWS_MAX = env.int("SYNC_VIEWS_MAX", default=10)
SYNC_VIEWS_WAIT = env.float("SYNC_VIEWS_WAIT", default=10.0)
# Event streams opening (config.middleware.BoundedViews): at most SYNC_STREAM_OPENS_MAX of the
# places above at once, so that pages are served during a reconnect storm; an opening waits up to
# SYNC_STREAM_WAIT seconds (as a coroutine holding nothing: the browser keeps its request open).
SYNC_STREAM_OPENS_MAX = env.int("SYNC_STREAM_OPENS_MAX", default=max(1, SYNC_VIEWS_MAX // 2))
SYNC_STREAM_WAIT = env.float("SYNC_STREAM_WAIT", default=60.0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL", default="")
# Shared by every web process: Redis when configured, else the database (never process memory).
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "config.cache.RedisCache",  # a client per pool, reused
                          "LOCATION": REDIS_URL, "KEY_PREFIX": "percentile"}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache",
                          "LOCATION": "percentile_cache"}}
SESSION_ENGINE = "django.contrib.sessions.backends.db"
# How long an encounter fragment's body stays cached for one version and kind of viewer
# (encounters.pages): a version lives seconds in play; this only bounds the cache's size.
ENCOUNTER_BODY_CACHE_SECONDS = env.int("ENCOUNTER_BODY_CACHE_SECONDS", default=300)
# How long a page waits for another page's render of the same body before rendering it too.
ENCOUNTER_BODY_RENDER_WAIT = env.float("ENCOUNTER_BODY_RENDER_WAIT", default=2.0)


def _redis_client_options(url: str) -> dict:
    """redis.Redis keyword arguments for ``url``, usable by the sync and the asyncio client
    (``rediss://`` becomes ``ssl=True`` rather than the sync client's connection class)."""
    from redis.connection import parse_url

    options = parse_url(url)
    if options.pop("connection_class", None) is not None:
        options["ssl"] = True
    return options


# Server push of the live pages' changes (campaigns.live): through Redis pub/sub to every web
# process when Redis is configured, else to the listeners of the process that made the change.
EVENTSTREAM_CHANNELMANAGER_CLASS = "campaigns.live.Topics"
if REDIS_URL:
    EVENTSTREAM_REDIS = _redis_client_options(REDIS_URL)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaigns:home"
LOGOUT_REDIRECT_URL = "login"

# Password guessing (accounts.lockout, django-axes): a username, or an address, is locked out
# after LOGIN_FAILURE_LIMIT failed logins (page, admin or API Basic) for LOGIN_LOCKOUT_MINUTES
# after the last; staff unlock it in the admin (Axes > Access attempts: delete the row).
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_LOCKOUT_MINUTES", default=15))
# Per user and per address, each alone; an API token per address (accounts.lockout).
AXES_LOCKOUT_PARAMETERS = "accounts.lockout.lockout_parameters"
AXES_RESET_ON_SUCCESS = True
# Refused tries during a lockout do not prolong it (else a guesser keeps a player out for ever).
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_USERNAME_CALLABLE = "accounts.lockout.lockout_username"  # overlong names cut to 150
# Behind a reverse proxy: the headers that carry the client's address, in order (for example
# HTTP_X_FORWARDED_FOR,REMOTE_ADDR) and how many proxies append to X-Forwarded-For.
AXES_IPWARE_META_PRECEDENCE_ORDER = env.list("LOGIN_CLIENT_IP_HEADERS", default=["REMOTE_ADDR"])
AXES_IPWARE_PROXY_COUNT = env.int("LOGIN_PROXY_COUNT", default=0) or None
# Password-reset requests per address and per e-mail address (accounts.middleware).
PASSWORD_RESET_RATE = env("PASSWORD_RESET_RATE", default="5/h")

# Accounts (django-allauth; docs/deploy.md, "Accounts"). Signup asks for a username and an
# e-mail address; one logs in with either. ACCOUNT_EMAIL_VERIFICATION: "mandatory" (no login
# before the address is confirmed by the mailed link), "optional" (a link is mailed, the login
# does not wait for it; the demo's default) or "none".
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="optional")
if ACCOUNT_EMAIL_VERIFICATION not in ("mandatory", "optional", "none"):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        "ACCOUNT_EMAIL_VERIFICATION is one of mandatory, optional or none, not "
        f"{ACCOUNT_EMAIL_VERIFICATION!r}.")
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True  # one address per account: a new one replaces it once confirmed
ACCOUNT_CONFIRM_EMAIL_ON_GET = False  # the mailed link opens a page with a button (no prefetch)
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_SIGNUP_REDIRECT_URL = "characters:list"  # a new player starts by making a character
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False  # a reset asked for an unknown address mails no one
ACCOUNT_SESSION_REMEMBER = True  # as Django's login did: the session lasts, no checkbox
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm"}
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
SOCIALACCOUNT_ADAPTER = "accounts.adapters.SocialAccountAdapter"
ACCOUNT_RATE_LIMITS = {
    # Failed logins are django-axes' (per user and per address, in the database, unlocked by
    # staff): allauth's own counters would answer first and differently.
    "login": None,
    "login_failed": None,
    # allauth's defaults for the rest: signups 20/m per address, reset mails 20/m per address
    # and 5/m per e-mail address (PASSWORD_RESET_RATE above counts per hour as well).
}
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False  # a provider's e-mail never logs into an account
SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT = False
# Optional OAuth logins: a provider is offered when its client id and secret are set (the
# application registered with the provider; its redirect URL is
# https://<host>/accounts/discord/login/callback/). Without them no button shows and its
# login URL answers 404.
DISCORD_OAUTH_CLIENT_ID = env.str("DISCORD_OAUTH_CLIENT_ID", default="")
DISCORD_OAUTH_SECRET = env.str("DISCORD_OAUTH_SECRET", default="")
SOCIALACCOUNT_PROVIDERS: dict = {
    "discord": {
        "SCOPE": ["identify", "email"],
        # An address comes in only if Discord says it verified it ("verified" in users/@me).
        "APPS": [{"client_id": DISCORD_OAUTH_CLIENT_ID, "secret": DISCORD_OAUTH_SECRET}]
        if DISCORD_OAUTH_CLIENT_ID and DISCORD_OAUTH_SECRET else [],
    },
}

# E-mail (address confirmations, password resets): printed on the console unless EMAIL_URL names a server
# (django-environ: smtp+tls://user:password@host:587).
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="percentile@localhost")
# The notifications' e-mail digest (notifications.services.digest_send, docs/notifications.md):
# what a user has not seen for this many minutes is mailed, once; SITE_URL starts its links.
NOTIFICATION_DIGEST_AFTER = env.int("NOTIFICATION_DIGEST_AFTER", default=60)
SITE_URL = env("SITE_URL", default="http://localhost:8000")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# `manage.py collectstatic` fills it; the web processes refuse to start without its manifest.
STATIC_ROOT = env.path("STATIC_ROOT", default=VAR_DIR / "staticfiles")
# Uploaded pictures (portraits, encounter backgrounds; campaigns.images): stored under
# MEDIA_ROOT, served at MEDIA_URL by the web server in production (docs/deploy.md, "Uploaded
# pictures"), by Django itself when SERVE_MEDIA is on (the default with DEBUG).
MEDIA_ROOT = env.path("MEDIA_ROOT", default=VAR_DIR / "media")
MEDIA_URL = "/media/"
SERVE_MEDIA = env.bool("SERVE_MEDIA", default=DEBUG)
PORTRAIT_MAX_BYTES = env.int("PORTRAIT_MAX_BYTES", default=2 * 1024 * 1024)
BACKGROUND_MAX_BYTES = env.int("BACKGROUND_MAX_BYTES", default=5 * 1024 * 1024)
# The most pixels a portrait other than a JPEG is decoded at (a JPEG is decoded reduced).
PORTRAIT_MAX_PIXELS = env.int("PORTRAIT_MAX_PIXELS", default=12_000_000)

# The chat (chat/, docs/chat.md): messages a user may post per window (django-ratelimit's rate,
# counted per user across the page and the API), a message's length, a free roll's dice.
CHAT_POST_RATE = env("CHAT_POST_RATE", default="20/m")
CHAT_MESSAGE_MAX = env.int("CHAT_MESSAGE_MAX", default=2000)
CHAT_ROLL_MAX_DICE = env.int("CHAT_ROLL_MAX_DICE", default=50)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": env("STATICFILES_BACKEND",
                                   default="whitenoise.storage.CompressedManifestStaticFilesStorage")},
}

REST_FRAMEWORK = {
    # Basic first: DRF answers an anonymous call with the first class's challenge, so it is a
    # 401 with ``WWW-Authenticate: Basic`` (Session has none and would make it a 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.LockoutBasicAuthentication",
        "accounts.authentication.ApiTokenAuthentication",  # Token|Bearer <personal token>
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # DRF's parsers, its JSON one refusing a lone UTF-16 surrogate (config.parsers.JSONParser)
    "DEFAULT_PARSER_CLASSES": ["config.parsers.JSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Atomic counters (django-ratelimit on the default cache): the limits hold under concurrency.
    "DEFAULT_THROTTLE_CLASSES": ["config.throttling.UserRateThrottle",
                                 "config.throttling.AnonRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"user": env("API_USER_RATE", default="600/minute"),
                               "anon": env("API_ANON_RATE", default="60/minute")},
    "EXCEPTION_HANDLER": "config.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Percentile API",
    "DESCRIPTION": (
        "Characters, boards and actions of Percentile campaigns. Scripts and bots authenticate "
        "with a personal API token (the account's API tokens page): `Authorization: Token "
        "<secret>`. Lists page with `?page=` and `?page_size=` (the `Link` header names the "
        "next page); the journals page by cursor (`next`)."),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs page (/api/docs/) loads Swagger UI from our static files, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several choice sets are serialized as "kind": name each one (no hashed names in clients).
    # The core's enums, and each registered rule system's (RuleSystemSpec.api_enums).
    "ENUM_NAME_OVERRIDES": ApiEnumNames({
        "PieceKindEnum": "characters.models.Character.Kind",
    }),
}

# Production hardening: on unless DEBUG, each overridable from the environment.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the load balancer polls the backends over plain HTTP
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True

# Content-Security-Policy (django-csp), enforced on every answer: scripts and styles only from
# our own static files, or an inline one carrying the request's nonce (request.csp_nonce, the
# Swagger UI page's); no 'unsafe-inline', no 'unsafe-eval' (htmx runs with allowEval false,
# the pages' behaviours are static/js/). docs/deploy.md, "Content-Security-Policy".
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],  # Swagger UI's and the admin's icons are data: URIs
        "font-src": [SELF],
        "connect-src": [SELF],  # htmx requests, the encounter's EventSource, the API docs
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
}
