"""The chat's live topics (campaigns.live): the page refetches its chat when one changes.

* ``chat-<campaign id>``: the campaign's room (public messages, a GM's deletion of one). Who
  reads it: who may open the campaign's chat page (chat.selectors.can_read_campaign);
* ``encounterchat-<encounter id>``: an encounter's room. Who reads it: who may see the
  encounter (its GM, the campaign's overseers, a player with a combatant in it);
* ``whisper-<user id>``: a whisper to or from that user, in any room. Who reads it: that user
  only. A whisper is never announced on a room's topic, so that even the moment of a whisper
  reaches nobody else.

An event carries the topic and nothing else (campaigns.live): the page fetches what its viewer
may read, through chat.selectors.
"""

from __future__ import annotations

from collections.abc import Iterable

from campaigns import live

CAMPAIGN, ENCOUNTER, WHISPER = "chat", "encounterchat", "whisper"


def _can_read_campaign(user, campaign_id: int) -> bool:
    from chat.selectors import can_read_campaign

    return can_read_campaign(user, campaign_id)


def _can_read_encounter(user, encounter_id: int) -> bool:
    from chat.selectors import can_read_encounter

    return can_read_encounter(user, encounter_id)


def _can_read_whisper(user, user_id: int) -> bool:
    return user.pk == user_id


def register() -> None:
    """From ChatConfig.ready."""
    live.register(CAMPAIGN, _can_read_campaign)
    live.register(ENCOUNTER, _can_read_encounter)
    live.register(WHISPER, _can_read_whisper)


def room_topic(campaign_id: int, encounter_id: int | None) -> str:
    if encounter_id is not None:
        return live.topic(ENCOUNTER, encounter_id)
    return live.topic(CAMPAIGN, campaign_id)


def whisper_topic(user_id: int) -> str:
    return live.topic(WHISPER, user_id)


def changed(*, campaign_id: int, encounter_id: int | None, whisper_to: Iterable[int | None] | None
            ) -> None:
    """Announce a change of the room once the transaction commits: on the room's topic for a
    public message, else only on the whisper topics of ``whisper_to`` (user ids)."""
    if whisper_to is None:
        live.announce(room_topic(campaign_id, encounter_id))
    else:
        live.announce_all(whisper_topic(pk) for pk in whisper_to if pk is not None)
