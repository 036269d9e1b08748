"""Personal API tokens: made, listed, revoked and read back (issue 22, item 6).

A secret is ``pct_`` and 43 URL-safe characters (``secrets.token_urlsafe(32)``: 256 bits);
the database keeps its SHA-256 only, so a leaked database lets nobody in, and the secret is
shown once, by the page that made it. A secret cannot be guessed, so a lookup by digest needs
no constant-time compare. ``last_used_at`` is written at most once per ``LAST_USED_EVERY`` (a
call does not write a row each time)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import ApiToken
from gamerules.errors import RuleError, gettext_noop

PREFIX = "pct_"
SECRET_MAX = 128  # longer than any secret made here: refused before any lookup
NAME_MAX = 64
TOKENS_MAX = 20  # live tokens per user
EXPIRY_DAYS_MAX = 3650
LAST_USED_EVERY = timedelta(minutes=1)


MESSAGES = {
    "token_invalid": gettext_noop("This token cannot be made."),
    "token_name_invalid": gettext_noop("A token needs a name of 1 to %(name_max)s characters."),
    "token_expiry_invalid": gettext_noop(
        "A token expires after 1 to %(days_max)s days, or never."),
    "too_many_tokens": gettext_noop(
        "You have %(max)s tokens already: revoke one before making another."),
    "no_such_token": gettext_noop("No such token."),
}


class TokenRefused(RuleError):
    """A token that cannot be made (400, with a finer code)."""

    code = "token_invalid"
    messages = MESSAGES


class TokenNotFound(TokenRefused):
    """Not one of the user's tokens (another user's answers the same)."""

    code = "no_such_token"
    status = 404


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def _is_live(token: ApiToken, now: datetime) -> bool:
    return token.revoked_at is None and (token.expires_at is None or token.expires_at > now)


def api_tokens_of(*, user) -> list[ApiToken]:
    """The user's tokens, the newest first, revoked ones included (one query)."""
    return list(ApiToken.objects.filter(user=user))


def api_token_create(*, user, name: str, expires_in_days: int | None = None,
                     now: datetime | None = None) -> tuple[ApiToken, str]:
    """A new token of ``user`` named ``name``, expiring after ``expires_in_days`` (None: never).
    Returns the row and the secret, which is never stored. Refuses a blank or overlong name,
    an expiry out of 1..EXPIRY_DAYS_MAX, and a user with TOKENS_MAX live tokens already
    (TokenRefused); the user's tokens are locked while they are counted."""
    now = now or timezone.now()
    name = (name or "").strip()
    if not name or len(name) > NAME_MAX:
        raise TokenRefused(code="token_name_invalid", name_max=NAME_MAX)
    if expires_in_days is not None and not 1 <= expires_in_days <= EXPIRY_DAYS_MAX:
        raise TokenRefused(code="token_expiry_invalid", days_max=EXPIRY_DAYS_MAX)
    secret = PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        live = [t for t in ApiToken.objects.select_for_update().filter(user=user)
                if _is_live(t, now)]
        if len(live) >= TOKENS_MAX:
            raise TokenRefused(code="too_many_tokens", max=TOKENS_MAX)
        token = ApiToken.objects.create(
            user=user, name=name, digest=digest_of(secret), prefix=secret[:len(PREFIX) + 6],
            created_at=now,
            expires_at=now + timedelta(days=expires_in_days) if expires_in_days else None)
    return token, secret


def api_token_revoke(*, user, token_id: int, now: datetime | None = None) -> ApiToken:
    """Revoke one of ``user``'s tokens (another's, or a missing one: TokenNotFound). Revoking
    a revoked token changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().filter(user=user, pk=token_id).first()
        if token is None:
            raise TokenNotFound()
        if token.revoked_at is None:
            token.revoked_at = now
            token.save(update_fields=["revoked_at"])
    return token


def api_token_user(secret: str, *, now: datetime | None = None):
    """The active user whose live token ``secret`` is (one query; one more, at most once per
    LAST_USED_EVERY, to note its use), else None. ``secret`` has been checked for ASCII and
    length by the caller (accounts.authentication)."""
    now = now or timezone.now()
    token = (ApiToken.objects.select_related("user").filter(digest=digest_of(secret))
             .first())
    if token is None or not _is_live(token, now) or not token.user.is_active:
        return None
    if token.last_used_at is None or token.last_used_at <= now - LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user
