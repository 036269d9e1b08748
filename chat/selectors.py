"""What the chat shows whom: the one place that decides who reads which message (docs/chat.md).

A viewer reads, in a room they may enter (:func:`room_for`): every public message, the
whispers they wrote or received, and, if they oversee the campaign (its GM, staff), the
whispers to the game master. A whisper from one player to another is read by those two only:
the game master does not read it (docs/chat.md, "Whispers"). Every surface (the page, its
fragment, the API) reads messages through :func:`messages_page`; the live events carry no
message (chat.live).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from campaigns.models import ActionRecord, Campaign, RollRecord
from campaigns.permissions import oversees, oversees_campaign_of
from characters.models import Character
from characters.selectors import entries_as_player_reads, visible_entries
from chat.errors import ChatNotFound
from chat.models import Message, To
from encounters.models import Combatant, Encounter
from encounters.selectors import can_read_topic

PAGE_SIZE = 50


@dataclass(frozen=True)
class Room:
    """A chat room as one viewer enters it: the campaign's, or an encounter's
    (``encounter``), and whether the viewer oversees the campaign (``gm``)."""

    user: object
    campaign: Campaign
    encounter: Encounter | None
    gm: bool

    @property
    def encounter_id(self) -> int | None:
        return self.encounter.pk if self.encounter is not None else None


def _owns_character(user_id):
    return Exists(Character.objects.filter(campaign_id=OuterRef("pk"), owner_id=user_id))


def can_read_campaign(user, campaign_id: int) -> bool:
    """Whether ``user`` may enter the campaign's chat: who oversees it, or owns a character of
    it. One query."""
    row = (Campaign.objects.filter(pk=campaign_id).annotate(mine=_owns_character(user.pk))
           .values_list("game_master_id", "co_master_ids", "mine").first())
    return row is not None and (row[2] or oversees_campaign_of(user, row[0], row[1]))


def can_read_encounter(user, encounter_id: int) -> bool:
    """Whether ``user`` may enter the encounter's chat: who may see the encounter (its GM, the
    campaign's overseers, a player with a combatant in it). One query."""
    return can_read_topic(user, encounter_id)


def room_for(*, user, campaign_id: int | None = None, encounter_id: int | None = None) -> Room:
    """The room ``user`` enters, in one query; ChatNotFound when it does not exist or they may
    not enter it."""
    if user is None or not user.is_authenticated:
        raise ChatNotFound("chat_not_found")
    if encounter_id is not None:
        encounter = (Encounter.objects.filter(pk=encounter_id).select_related("campaign")
                     .annotate(mine=Exists(Combatant.objects.filter(
                         encounter=OuterRef("pk"), character__owner_id=user.pk, removed=False)))
                     .first())
        if encounter is None:
            raise ChatNotFound("chat_not_found")
        gm = oversees(user, encounter.campaign)
        if not (gm or encounter.mine):
            raise ChatNotFound("chat_not_found")
        return Room(user, encounter.campaign, encounter, gm)
    if campaign_id is None:
        raise ChatNotFound("chat_not_found")
    campaign = (Campaign.objects.filter(pk=campaign_id).annotate(mine=_owns_character(user.pk))
                .first())
    if campaign is None:
        raise ChatNotFound("chat_not_found")
    gm = oversees(user, campaign)
    if not (gm or campaign.mine):
        raise ChatNotFound("chat_not_found")
    return Room(user, campaign, None, gm)


def readable(room: Room) -> QuerySet[Message]:
    """The room's messages its viewer reads (the module's rule), newest first."""
    uid = room.user.pk  # type: ignore[attr-defined]
    mine = Q(to=To.ALL) | Q(author_id=uid) | Q(recipient_id=uid)
    if room.gm:
        mine |= Q(to=To.GM)
    return Message.objects.filter(mine, campaign=room.campaign, encounter=room.encounter)


@dataclass(frozen=True)
class Page:
    messages: list[Message]  # oldest first, as the chat reads
    older: int | None  # the id to page from (``before``) when older messages exist


def messages_page(room: Room, *, before: int | None = None, size: int = PAGE_SIZE) -> Page:
    """The newest ``size`` messages the viewer reads (older than message ``before``), with
    their authors, recipients and roll cards (their rolls): two queries, four for a player when
    a card shows an entry shared from the journal."""
    qs = readable(room)
    if before is not None:
        qs = qs.filter(pk__lt=before)
    rows = list(qs.select_related("author", "recipient", "entry", "entry__actor", "entry__target")
                .prefetch_related(Prefetch("entry__rolls",
                                           queryset=RollRecord.objects.order_by("id")))
                [:size + 1])
    older = rows[size - 1].pk if len(rows) > size else None
    rows = rows[:size]
    _hide_unreadable_cards(room, rows)
    return Page(list(reversed(rows)), older)


def _hide_unreadable_cards(room: Room, rows: list[Message]) -> None:
    """A card shared from the journal shows only what the viewer may read on a sheet: an entry
    of an encounter that involves a combatant hidden from them is left out (its message shows
    without it), and what the entry says of an enemy's state as the player's sheet says it
    (characters.selectors.entries_as_player_reads). A deleted message shows no card. Two
    queries when such a card is there."""
    for m in rows:
        if m.deleted:
            m.entry = None
    shared = [m for m in rows if m.entry is not None and m.entry.kind != "chat_roll"]
    if not shared or room.gm:
        return
    ids = {m.entry_id for m in shared}
    seen = set(visible_entries(ActionRecord.objects.filter(pk__in=ids))
               .values_list("pk", flat=True))
    for m in shared:
        if m.entry_id not in seen:
            m.entry = None
    # what the player reads of the others (an enemy's state), as on their sheet
    cards = [m.entry for m in shared if m.entry is not None]
    readable_cards = {id(e) for e in entries_as_player_reads(cards, user=room.user,
                                                             campaign=room.campaign)}
    for m in shared:
        if m.entry is not None and id(m.entry) not in readable_cards:
            m.entry = None


def recipients(room: Room) -> list:
    """Whom the viewer may whisper to by name: the room's other players (who own a character
    of the campaign; in an encounter, who play a combatant in it, not hidden from the viewer),
    by username. One query."""
    users = get_user_model().objects.exclude(pk=room.user.pk)  # type: ignore[attr-defined]
    if room.encounter is not None:
        # a player reads no hidden combatant's player there (the GM does)
        shown = {} if room.gm else {"characters__combatants__hidden": False}
        users = users.filter(characters__combatants__encounter=room.encounter,
                             characters__combatants__removed=False, **shown)
    else:
        users = users.filter(characters__campaign=room.campaign)
    return list(users.distinct().order_by("username").only("pk", "username"))


def campaigns_of(*, user) -> list[Campaign]:
    """The campaigns whose chat ``user`` may enter: those they master or co-master or own a
    character of (every campaign for staff), by name. One query."""
    qs = Campaign.objects.order_by("name", "pk")
    if not (user.is_staff or user.is_superuser):
        qs = qs.filter(Q(game_master_id=user.pk) | Q(masters__user_id=user.pk)
                       | Q(characters__owner_id=user.pk)).distinct()
    return list(qs.only("pk", "name"))
