"""Server push of encounter changes (issue 11, item 6; issue 17, item 1): the ``encounter-<id>``
topic of the live pages (campaigns.live).

Each step that changes an encounter bumps ``Encounter.version`` (access.save) and, once its
transaction commits, :func:`announce` sends ``{"topic": "encounter-<id>", "version": n}`` on the
encounter's topic. Every open encounter page listens (static/js/encounter-push.js) and fetches
its fragment when the version differs from the one it shows. The event carries nothing but the
number, so a page only ever learns what it is allowed to fetch. Who reads the topic: who may see
the encounter (selectors.can_read_topic, registered in encounters.apps).

A push that fails (Redis down) is logged and never fails the step: the pages' slow poll
(once a minute while the stream is open) catches up.
"""

from __future__ import annotations

from campaigns import live

KIND = "encounter"


def channel(encounter_id: int) -> str:
    """The topic of one encounter, e.g. ``"encounter-12"``."""
    return live.topic(KIND, encounter_id)


def encounter_of(channel_name: str) -> int | None:
    """The encounter id a topic name carries, None for any other name."""
    parsed = live.parse(channel_name)
    return parsed[1] if parsed and parsed[0] == KIND else None


def announce(encounter_id: int, version: int) -> None:
    """Send ``version`` on the encounter's topic once the current transaction commits (at once
    outside one): a step that rolls back announces nothing."""
    live.announce(channel(encounter_id), {"version": version})
