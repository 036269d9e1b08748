"""The chat's changes, one service each, called by the page and the API alike: post a message
(a free roll journaled with it), delete one (the GM), show a journal entry in the chat (the GM).

Each checks who may (chat.selectors.room_for), then writes in one transaction and announces the
change on commit (chat.live): a public message on its room's topic, a whisper only on the
topics of who reads it."""

from __future__ import annotations

import logging
import random
import re
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django_ratelimit.core import get_usage

from campaigns import journal, rule_systems
from campaigns.models import ActionRecord
from chat import live, markup
from chat.errors import ChatError, ChatNotFound, ChatRateLimited, ChatRefused
from chat.models import Message, To
from chat.selectors import Room, recipients, room_for
from encounters.models import Encounter
from gamerules import freeroll
from gamerules.d100 import RollUnder
from gamerules.dice import RandomSource
from notifications.services import notify

logger = logging.getLogger(__name__)

KIND_ROLL = "chat_roll"
# NUL and the C0 control codes but tab, line feed and carriage return: PostgreSQL refuses NUL
# in text, and the others have no place in a message.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _clean_text(text: str) -> str:
    if _CONTROL.search(text):
        raise ChatError("chat_bad_characters")
    text = text.strip()
    if not text:
        raise ChatError("chat_empty")
    if len(text) > settings.CHAT_MESSAGE_MAX:
        raise ChatError("chat_too_long", length=len(text), max_length=settings.CHAT_MESSAGE_MAX)
    return text


def _count_post(user) -> None:
    """One more message by ``user`` in the window of ``CHAT_POST_RATE`` (django-ratelimit, on
    the shared cache: the page and the API count together); ChatRateLimited past it. With the
    cache down, the message goes through (a warning is logged), as the API throttles do."""
    rate = settings.CHAT_POST_RATE
    try:
        usage = get_usage(None, group="chat.post", key=lambda group, request: f"user:{user.pk}",
                          rate=rate, increment=True)
    except Exception as exc:  # the cache (Redis) is down: fail open
        logger.warning("chat rate not counted, cache unavailable: %s", type(exc).__name__)
        return
    if usage is not None and usage["should_limit"]:
        raise ChatRateLimited("chat_rate_limited", rate=rate)


def _addressee(room: Room, to: str, recipient_id: int | None):
    """(to, recipient user or None) of a message, checked: a player whispered to is one of the
    room's players (chat.selectors.recipients)."""
    if to not in To.values:
        raise ChatError("chat_bad_to")
    if to != To.PLAYER:
        return to, None
    found = next((u for u in recipients(room) if u.pk == recipient_id), None)
    if found is None:
        raise ChatError("chat_no_recipient")
    return to, found


def _whisper_to(message: Message) -> list[int | None] | None:
    """Whose whisper topics a change of ``message`` is announced on (None: a public one, on
    the room's topic): its author, its recipient, and for a whisper to the GM the game master
    and the co-game masters."""
    if message.to == To.ALL:
        return None
    readers = [message.author_id, message.recipient_id]
    if message.to == To.GM:
        readers += [message.campaign.game_master_id, *message.campaign.co_master_ids]
    return readers


def without_private_rolls(qs):
    """characters.selectors.register_private_entries: ``qs`` (ActionRecords) without the rolls
    of whispers, which only their message's readers read (in the chat), not even the GM's
    journal (a whisper between players)."""
    return qs.exclude(kind=KIND_ROLL, summary__private=True)


def _free_roll(*, room: Room, user, text: str, to: str, rng: RandomSource, now: datetime
               ) -> ActionRecord:
    """Throw a ``/roll``, graded by the campaign's system (RuleSystemSpec.free_test_rule), and
    journal it: one entry of kind chat_roll with its roll. A whisper's roll is private
    (``summary.private``): read only where its message is."""
    campaign = room.campaign
    spec = rule_systems.get(campaign.rule_system)
    make_rule = spec.free_test_rule if spec is not None else None
    params = rule_systems.parameters_for(campaign.rule_system, campaign.rule_parameters)
    rule = make_rule(params) if make_rule is not None else RollUnder()
    thrown = freeroll.free_roll(text, rng, rule=rule, max_dice=settings.CHAT_ROLL_MAX_DICE)
    test = thrown.test
    summary = {"expression": thrown.expression, "chat_campaign": campaign.pk,
               "chat_encounter": room.encounter_id, "private": to != To.ALL}
    if test is not None:
        summary.update(reading=test.reading, rule=test.rule)
    row = journal.roll_row(label="free_roll", roll=thrown.roll,
                           target_score=test.target if test is not None else None,
                           grade=test.grade if test is not None else None)
    return journal.record_action(campaign=campaign, kind=KIND_ROLL, now=now, user=user,
                                 summary=summary, rolls=[row], bump=False)


@transaction.atomic
def message_post(*, user, text: str, campaign_id: int | None = None,
                 encounter_id: int | None = None, to: str = To.ALL,
                 recipient_id: int | None = None, rng: RandomSource | None = None,
                 now: datetime | None = None) -> Message:
    """Post ``text`` in the campaign's room (or the encounter's) to everyone, to the game
    master or to one player (``recipient_id``). A ``/roll`` throws the dice, journals them and
    shows them as the message's roll card. Refused (nothing written): a room the user may not
    enter, an empty, too long or malformed text, an unknown recipient, a bad roll, a user past
    CHAT_POST_RATE."""
    room = room_for(user=user, campaign_id=campaign_id, encounter_id=encounter_id)
    text = _clean_text(text)
    to, recipient = _addressee(room, to, recipient_id)
    now = now or timezone.now()
    _count_post(user)
    entry = None
    if freeroll.is_command(text):
        entry = _free_roll(room=room, user=user, text=text, to=to,
                           rng=rng or random.SystemRandom(), now=now)
    message = Message.objects.create(
        campaign=room.campaign, encounter=room.encounter, author=user, to=to,
        recipient=recipient, body=text, html="" if entry else markup.render(text), entry=entry,
        created_at=now)
    live.changed(campaign_id=room.campaign.pk, encounter_id=room.encounter_id,
                 whisper_to=_whisper_to(message))
    _tell(room, message)
    return message


# "@name" in a public message: the names a mention may take (Django's username characters).
MENTION = re.compile(r"(?<![\w@])@([\w.@+-]{1,150})")
MENTIONS_MAX = 10


def _room_url(room: Room) -> str:
    if room.encounter is not None:
        return reverse("chat:encounter", args=[room.encounter.pk])
    return reverse("chat:campaign", args=[room.campaign.pk])


def _tell(room: Room, message: Message) -> None:
    """Notify (notifications, once the transaction commits) who a whisper goes to, or who a
    public message mentions ("@name": a reader of the room, not the author; one query, only
    when the text has an "@"). No query for a message without a mention."""
    params = {"author": message.author.get_username() if message.author else "",
              "campaign": room.campaign.name}
    link = _room_url(room)
    if message.to != To.ALL:
        readers = [pk for pk in _whisper_to(message) or () if pk != message.author_id]
        notify(users=readers, code="whisper", campaign_id=room.campaign.pk, params=params,
               link=link)
        return
    names = list(dict.fromkeys(n.rstrip(".") for n in MENTION.findall(message.body)))
    names = names[:MENTIONS_MAX]
    if not names:
        return
    campaign = room.campaign
    masters = {campaign.game_master_id, *campaign.co_master_ids}
    found = [u for u in get_user_model().objects.filter(username__in=names).only("pk")
             if u.pk != message.author_id]
    players = {u.pk for u in recipients(room)} if any(u.pk not in masters for u in found) else set()
    notify(users=[u.pk for u in found if u.pk in masters or u.pk in players], code="mention",
           campaign_id=campaign.pk, params=params, link=link)


def _gm_message(*, user, message_id: int) -> Message:
    """The message locked, once its deleter is checked: who oversees its campaign."""
    message = (Message.objects.select_for_update(of=("self",)).select_related("campaign")
               .filter(pk=message_id).first())
    if message is None:
        raise ChatNotFound("chat_no_such_message")
    room = room_for(user=user, campaign_id=message.campaign_id,
                    encounter_id=message.encounter_id)
    if not room.gm:
        raise ChatRefused("chat_delete_gm_only")
    return message


@transaction.atomic
def message_delete(*, user, message_id: int, now: datetime | None = None) -> Message:
    """The game master deletes a message: its row stays, shown as deleted by the game master,
    without its text nor its card (the journal keeps a roll's entry). A whisper the GM does
    not read cannot be deleted by them: it is not found. Deleting twice changes nothing."""
    message = _gm_message(user=user, message_id=message_id)
    if message.to == To.PLAYER and user.pk not in (message.author_id, message.recipient_id):
        raise ChatNotFound("chat_no_such_message")
    if message.deleted_at is None:
        message.deleted_at, message.deleted_by = now or timezone.now(), user
        message.save(update_fields=["deleted_at", "deleted_by"])
        live.changed(campaign_id=message.campaign_id, encounter_id=message.encounter_id,
                     whisper_to=_whisper_to(message))
    return message


@transaction.atomic
def entry_share(*, user, entry_id: int, now: datetime | None = None) -> Message:
    """The game master shows a journal entry (an attack, a volley, a rest) in the chat, as a
    roll card with its rolls folded: in its encounter's room when it is an encounter's entry
    (``summary.encounter``), else in its campaign's. Each player reads the card as they read
    the entry on a sheet (chat.selectors: an entry of a hidden combatant is left out). A free
    roll is not shared again (a whisper's is private)."""
    entry = ActionRecord.objects.filter(pk=entry_id).exclude(kind=KIND_ROLL).first()
    if entry is None:
        raise ChatNotFound("chat_no_such_entry")
    summary = entry.summary if isinstance(entry.summary, dict) else {}
    encounter_id = summary.get("encounter")
    if not (isinstance(encounter_id, int) and Encounter.objects.filter(
            pk=encounter_id, campaign_id=entry.campaign_id).exists()):
        encounter_id = None
    room = room_for(user=user, campaign_id=entry.campaign_id, encounter_id=encounter_id)
    if not room.gm:
        raise ChatRefused("chat_share_gm_only")
    message = Message.objects.create(campaign=room.campaign, encounter=room.encounter,
                                     author=user, to=To.ALL, entry=entry,
                                     created_at=now or timezone.now())
    live.changed(campaign_id=room.campaign.pk, encounter_id=room.encounter_id, whisper_to=None)
    return message
