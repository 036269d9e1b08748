"""Personal API tokens (issue 22, item 6): a script or a bot calls the API as its user with
``Authorization: Token <secret>`` (or ``Bearer <secret>``). Only the secret's SHA-256 is
stored; the secret itself is shown once, when the token is made (accounts.tokens)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    """One named token of a user: it acts with that user's permissions only. ``digest`` is the
    SHA-256 of the secret (hex); ``prefix`` its first characters, to tell tokens apart in the
    list. Revoked (``revoked_at``) or past ``expires_at``, it authenticates nobody."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_tokens")
    name = models.CharField(max_length=64)
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
