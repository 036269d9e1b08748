"""The secret key signs sessions, password-reset links and CSRF tokens: a key anybody can read
(the development default, the example in ``.env.example``) lets anybody forge them."""

from django.core.exceptions import ImproperlyConfigured

DEVELOPMENT_SECRET_KEY = "percentile-insecure-development-key-change-me-in-production"
EXAMPLE_SECRET_KEY = "change-me-to-a-long-random-string-of-at-least-fifty-characters"
PUBLIC_SECRET_KEYS = frozenset({"", DEVELOPMENT_SECRET_KEY, EXAMPLE_SECRET_KEY})


def refuse_public_secret_key(*, debug: bool, secret_key: str) -> None:
    """Raise ImproperlyConfigured when ``DEBUG`` is off and ``SECRET_KEY`` is unset, empty or
    one of the keys published with the code. Called once at start-up (``django.setup()``: web,
    Celery, ``manage.py``), so the process stops before it serves anything."""
    if not debug and secret_key.strip() in PUBLIC_SECRET_KEYS:
        raise ImproperlyConfigured(
            "SECRET_KEY is unset or a published example while DEBUG is off. Set SECRET_KEY in "
            "the environment (or .env) to a long random string, for example the output of: "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'. "
            "For local development only, set DEBUG=1.")
