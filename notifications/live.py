"""The bell's live topic (campaigns.live): ``notify-<user id>``, announced once a notification
for that user is stored or marked seen; the bell in the navigation (templates/notifications/
_bell.html) refetches its count. Who reads it: that user only. An event carries the topic and
nothing else: the bell fetches what its reader may see."""

from __future__ import annotations

from collections.abc import Iterable

from campaigns import live

KIND = "notify"


def _can_read(user, user_id: int) -> bool:
    """No query: only the user themself."""
    return user.pk == user_id


def register() -> None:
    """From NotificationsConfig.ready."""
    live.register(KIND, _can_read)


def topic(user_id: int) -> str:
    return live.topic(KIND, user_id)


def changed(user_ids: Iterable[int]) -> None:
    """Announce the bells of ``user_ids`` (once the transaction commits; at once outside one)."""
    live.announce_all(topic(pk) for pk in user_ids)
