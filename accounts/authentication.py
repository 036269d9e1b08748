"""The API's HTTP Basic and its personal tokens (``Authorization: Token <secret>`` or
``Bearer <secret>``, accounts.tokens), both through django-axes' lockout (accounts.lockout): a
wrong token counts as a failed login from its address, and a locked-out address is refused
(429 ``locked_out``) before any token is read."""

from __future__ import annotations

from django.contrib.auth import authenticate
from drf_spectacular.authentication import BasicScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, BasicAuthentication
from rest_framework.authentication import get_authorization_header

from accounts import tokens

# Longer than any username (150) or password a person types: refused before any lookup.
CREDENTIAL_MAX = 1024
# The ASCII control characters: C0 (0-31) and DEL (127).
ASCII_CONTROLS = frozenset(map(chr, [*range(32), 127]))


def authorization_header(request) -> bytes:
    """The ``Authorization`` header as bytes (DRF's ``get_authorization_header``), a 401 for
    one that is not Latin-1 (HTTP's headers are: only a test client or a crafted ASGI scope
    carries more, on which DRF raised UnicodeEncodeError, a 500)."""
    try:
        return get_authorization_header(request)
    except UnicodeEncodeError:
        raise exceptions.AuthenticationFailed(_("Invalid token header.")) from None


class LockoutBasicAuthentication(BasicAuthentication):
    """DRF's Basic, handing Django's own request to ``authenticate``: axes marks that request
    when it counts a failure or refuses a locked-out user, and its middleware (which sees only
    Django's request, not DRF's wrapper) then answers 429 ``locked_out`` instead of the 401."""

    def authenticate(self, request):
        authorization_header(request)  # a header that is not Latin-1: 401
        return super().authenticate(request)

    def authenticate_credentials(self, userid, password, request=None):
        # NUL bytes make PostgreSQL refuse the query (DataError: a 500 before any account was
        # read); control characters and overlong values are no one's credentials: 401.
        for value in (userid, password):
            if len(value) > CREDENTIAL_MAX or any(c in ASCII_CONTROLS for c in value):
                raise exceptions.AuthenticationFailed(_("Invalid username/password."))
        return super().authenticate_credentials(userid, password,
                                                getattr(request, "_request", request))


class LockoutBasicScheme(BasicScheme):
    """The OpenAPI schema shows it as plain HTTP Basic."""

    target_class = "accounts.authentication.LockoutBasicAuthentication"  # a path or the class
    priority = 0


TOKEN_KEYWORDS = (b"token", b"bearer")


def _token_secret(header: bytes) -> str | None:
    """The secret of an ``Authorization: Token|Bearer <secret>`` header; None for another
    scheme (Basic: the next class's); AuthenticationFailed for a malformed one: no secret, more
    than one word, non-ASCII, control characters, longer than any token made here."""
    parts = header.split()
    if not parts or parts[0].lower() not in TOKEN_KEYWORDS:
        return None
    if len(parts) != 2 or len(parts[1]) > tokens.SECRET_MAX:  # noqa: PLR2004  scheme and secret
        raise exceptions.AuthenticationFailed(_("Invalid token."))
    try:
        secret = parts[1].decode("ascii")
    except UnicodeDecodeError:
        raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
    if any(c in ASCII_CONTROLS for c in secret):
        raise exceptions.AuthenticationFailed(_("Invalid token."))
    return secret


class ApiTokenAuthentication(BaseAuthentication):
    """A personal API token: its user, with that user's permissions only. Read through
    Django's ``authenticate`` (``ApiTokenBackend``), so that django-axes refuses a locked-out
    address first and counts a wrong, revoked or expired token as a failure (the secret is not
    logged: Django masks credentials named like ``token``)."""

    def authenticate(self, request):
        secret = _token_secret(authorization_header(request))
        if secret is None:
            return None
        user = authenticate(getattr(request, "_request", request), api_token=secret)
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        return user, None

    def authenticate_header(self, request):
        return "Token"


class ApiTokenBackend:
    """Django's authentication backend for API tokens (after axes' in AUTHENTICATION_BACKENDS)."""

    def authenticate(self, request, api_token: str | None = None, **kwargs):
        if api_token is None:
            return None
        return tokens.api_token_user(api_token)

    def get_user(self, user_id):
        return None  # never a session's backend


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """The OpenAPI schema shows it as an API key in ``Authorization`` (``Token <secret>``)."""

    target_class = "accounts.authentication.ApiTokenAuthentication"
    name = "tokenAuth"
    priority = 0

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "A personal API token (made on the account's API tokens page): "
                               "`Token <secret>` or `Bearer <secret>`."}
