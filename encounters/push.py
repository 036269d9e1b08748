"""Server push of encounter changes (issue 11, item 6): server-sent events by django-eventstream.

Each step that changes an encounter bumps ``Encounter.version`` (services._save) and, once its
transaction commits, :func:`announce` sends ``{"version": n}`` as a ``version`` event on the
encounter's channel. Every open encounter page listens (static/js/encounter-push.js) and
fetches its fragment when the version differs from the one it shows. The event carries nothing
but the number, so a page only ever learns what it is allowed to fetch.

With ``REDIS_URL`` set, django-eventstream publishes through Redis pub/sub and every web process
hands the event to its own listeners (settings.EVENTSTREAM_REDIS); without it (``make run``) the
event goes to the listeners of the process that made the step. The stream needs an ASGI server
(uvicorn, under gunicorn in production): under WSGI the view answers 204, which tells the browser
not to reconnect, and the page keeps polling (docs/deploy.md, "Server push").

A push that fails (Redis down) is logged and never fails the step: the pages' slow poll
(every 10 s while the stream is open) catches up.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django_eventstream import send_event
from django_eventstream.channelmanager import ChannelManagerBase

logger = logging.getLogger(__name__)

EVENT = "version"
_PREFIX = "encounter-"


def channel(encounter_id: int) -> str:
    """The channel of one encounter, e.g. ``"encounter-12"``."""
    return f"{_PREFIX}{encounter_id}"


def encounter_of(channel_name: str) -> int | None:
    """The encounter id a channel name carries, None for any other name."""
    if not channel_name.startswith(_PREFIX):
        return None
    digits = channel_name[len(_PREFIX):]
    return int(digits) if digits.isdigit() else None


def _send(encounter_id: int, version: int) -> None:
    try:
        send_event(channel(encounter_id), EVENT, {"version": version})
    except Exception:  # a lost push must not fail a committed step; the slow poll catches up
        logger.warning("encounter %s: push of version %s failed", encounter_id, version,
                       exc_info=True)


def announce(encounter_id: int, version: int) -> None:
    """Send ``version`` on the encounter's channel once the current transaction commits (at
    once outside one): a step that rolls back announces nothing."""
    transaction.on_commit(lambda: _send(encounter_id, version))


class EncounterChannels(ChannelManagerBase):
    """django-eventstream's channel manager (settings.EVENTSTREAM_CHANNELMANAGER_CLASS): the
    channel comes from the URL, and a user reads an encounter's channel when they may see the
    encounter (its GM, the campaign's overseers, a player with a combatant in it)."""

    def get_channels_for_request(self, request, view_kwargs):
        return {channel(view_kwargs["encounter_id"])}

    def can_read_channel(self, user, channel):
        from encounters.selectors import encounter_version

        encounter_id = encounter_of(channel)
        if user is None or encounter_id is None:
            return False
        return encounter_version(user=user, encounter_id=encounter_id) is not None

    def is_channel_reliable(self, channel):
        return False  # no event storage: a page that reconnects fetches its fragment instead
