"""Whether sessions still sign their users in, many at once: what an open stream asks before it
pushes anything of its own (encounters.streamed), since a stream outlives the request that
checked its user. A session signs its user in as ``django.contrib.auth.get_user`` decides: it
exists and has not expired, its user is active, and its auth hash is the user's (a password
changed elsewhere, or an account deactivated or deleted, ends it).
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.utils import timezone
from django.utils.crypto import constant_time_compare

DB_ENGINES = ("django.contrib.sessions.backends.db",)


def signed_in(session_keys: Iterable[str]) -> set[str]:
    """The keys of ``session_keys`` whose session still signs its user in. Queries: two with
    database sessions (the sessions, their users), else one session load per key and one for
    the users."""
    keys = {k for k in session_keys if k}
    if not keys:
        return set()
    if settings.SESSION_ENGINE in DB_ENGINES:
        rows = Session.objects.filter(session_key__in=keys, expire_date__gt=timezone.now())
        decoded = {row.session_key: row.get_decoded() for row in rows}
    else:
        store = import_module(settings.SESSION_ENGINE).SessionStore
        decoded = {key: data for key in keys if (data := store(session_key=key).load())}
    ids = {str(data.get(SESSION_KEY)) for data in decoded.values() if data.get(SESSION_KEY)}
    users = {str(u.pk): u for u in get_user_model().objects.filter(pk__in=ids, is_active=True)}
    return {key for key, data in decoded.items()
            if (user := users.get(str(data.get(SESSION_KEY)))) is not None
            and data.get(BACKEND_SESSION_KEY) in settings.AUTHENTICATION_BACKENDS
            and constant_time_compare(data.get(HASH_SESSION_KEY, ""),
                                      user.get_session_auth_hash())}
