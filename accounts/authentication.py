"""The API's HTTP Basic, with django-axes' lockout (accounts.lockout)."""

from __future__ import annotations

from drf_spectacular.authentication import BasicScheme
from rest_framework.authentication import BasicAuthentication


class LockoutBasicAuthentication(BasicAuthentication):
    """DRF's Basic, handing Django's own request to ``authenticate``: axes marks that request
    when it counts a failure or refuses a locked-out user, and its middleware (which sees only
    Django's request, not DRF's wrapper) then answers 429 ``locked_out`` instead of the 401."""

    def authenticate_credentials(self, userid, password, request=None):
        return super().authenticate_credentials(userid, password,
                                                getattr(request, "_request", request))


class LockoutBasicScheme(BasicScheme):
    """The OpenAPI schema shows it as plain HTTP Basic."""

    target_class = "accounts.authentication.LockoutBasicAuthentication"  # a path or the class
    priority = 0
