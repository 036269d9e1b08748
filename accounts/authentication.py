"""The API's HTTP Basic, with django-axes' lockout (accounts.lockout)."""

from __future__ import annotations

from drf_spectacular.authentication import BasicScheme
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import BasicAuthentication

# Longer than any username (150) or password a person types: refused before any lookup.
CREDENTIAL_MAX = 1024
# The ASCII control characters: C0 (0-31) and DEL (127).
ASCII_CONTROLS = frozenset(map(chr, [*range(32), 127]))


class LockoutBasicAuthentication(BasicAuthentication):
    """DRF's Basic, handing Django's own request to ``authenticate``: axes marks that request
    when it counts a failure or refuses a locked-out user, and its middleware (which sees only
    Django's request, not DRF's wrapper) then answers 429 ``locked_out`` instead of the 401."""

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
