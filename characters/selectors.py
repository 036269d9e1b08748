"""Shared reads of characters: the user's characters, one character with its sheet, the
character page's view and the recent journal, whatever the rule system (each system's numbers
come through campaigns.rule_systems)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from campaigns import rule_systems
from campaigns.errors import NotFound, SheetMissing
from campaigns.models import ActionRecord, Campaign, RollRecord
from campaigns.permissions import allowed, oversees
from campaigns.selectors import campaigns_admitting
from characters.models import Character

LOG_SIZE = 10


def characters_of(user):
    """The user's characters with their campaign and sheet (one without a sheet, or of a system
    not built, is left out)."""
    return (Character.objects.filter(rule_systems.has_sheet_q(), owner=user)
            .select_related("campaign", *rule_systems.sheet_relations(), "board")
            .order_by("campaign__name", "name"))


def characters_now(*, user, now: datetime | None = None) -> list[Character]:
    """The user's characters with their sheets as they are at ``now`` (in memory, by their rule
    system's ``refresh``): one query."""
    return characters_refreshed(list(characters_of(user)), now=now)


def characters_refreshed(characters: list[Character], *, now: datetime | None = None
                         ) -> list[Character]:
    """``characters`` (read by ``characters_of``) with their sheets as they are at ``now``, in
    memory (their rule system's ``refresh``): no query."""
    now = now or timezone.now()
    for character in characters:
        spec = rule_systems.require(character.campaign.rule_system)
        if spec.refresh is not None:
            spec.refresh(character, params=character.campaign.parameters, now=now)
    return characters


def open_campaigns(*, user):
    """The campaigns ``user`` may make a character in (campaigns.permissions.admits): the open
    ones, those they are a member of or oversee, by name."""
    return campaigns_admitting(user=user)


def character_get(*, user, character_id: int, perm: str = "characters.view_sheet") -> Character:
    """The character with campaign, board and sheet, if ``user`` has ``perm`` on it; NotFound
    otherwise (another player's character looks exactly like a missing one), SheetMissing (a
    NotFound) for a character saved without its sheet."""
    character = (Character.objects.select_related("campaign", "board",
                                                  *rule_systems.sheet_relations(), "owner",
                                                  "membership__faction")
                 .filter(pk=character_id).first())
    if character is None or not allowed(user, perm, character):
        raise NotFound("no_such_character")
    spec = rule_systems.get(character.campaign.rule_system)
    if spec is None or spec.sheet_of(character) is None:
        raise SheetMissing()
    return character


# What a player may not read of the journal on a sheet, registered by the apps that hide
# things (encounters: the entries of a combatant hidden in the encounter they name): each
# ``fn(queryset) -> queryset`` of ActionRecords, without them (in the same query).
_hidden_entries: list[Callable[[QuerySet], QuerySet]] = []


def register_hidden_entries(fn: Callable[[QuerySet], QuerySet]) -> None:
    """From the hiding app's AppConfig.ready."""
    if fn not in _hidden_entries:
        _hidden_entries.append(fn)


# Entries nobody reads in a journal, whoever oversees the campaign (chat: a whisper's roll, read
# only where its message is): each ``fn(queryset) -> queryset`` of ActionRecords, without them.
_private_entries: list[Callable[[QuerySet], QuerySet]] = []


def register_private_entries(fn: Callable[[QuerySet], QuerySet]) -> None:
    """From the app's AppConfig.ready."""
    if fn not in _private_entries:
        _private_entries.append(fn)


# What a player may not read in the entries they read on a sheet, registered the same way
# (encounters: an enemy's exact state unless the campaign's enemy_state is exact): each
# ``fn(entries, *, character) -> entries``, changing the entries in memory only.
_entry_redactors: list[Callable[..., list[ActionRecord]]] = []


def register_entry_redactor(fn: Callable[..., list[ActionRecord]]) -> None:
    """From the hiding app's AppConfig.ready."""
    if fn not in _entry_redactors:
        _entry_redactors.append(fn)


def visible_entries(qs):
    """``qs`` (ActionRecords) without the entries the registered filters hide from a player
    (``register_hidden_entries``: an encounter's entries of a hidden combatant), as on a
    sheet; for a surface that shows entries out of a sheet (the chat's roll cards). No query
    more."""
    for hidden in _hidden_entries:
        qs = hidden(qs)
    return qs


def entries_as_player_reads(entries: list, *, user, campaign) -> list:
    """``entries`` (of ``campaign``, shown out of a sheet: the chat's roll cards) through the
    registered redactors as ``user``, a player, reads them: as the sheet of their character in
    each (its actor, else its target), else of another character of theirs (what a sheet says
    of others). An entry they could read on no sheet (no character of theirs) is left out.
    One query (the user's characters); the objects are changed in memory only."""
    own = {c.pk: c for c in Character.objects.filter(campaign=campaign, owner_id=user.pk)}
    for c in own.values():
        c.campaign = campaign
    anyone = next(iter(own.values()), None)
    shown = []
    for entry in entries:
        character = own.get(entry.actor_id) or own.get(entry.target_id) or anyone
        if character is None:
            continue
        for redact in _entry_redactors:
            redact([entry], character=character)
        shown.append(entry)
    return shown


def recent_actions(character: Character, size: int = LOG_SIZE, *, user=None
                   ) -> list[ActionRecord]:
    """The last actions by or against ``character``, with their rolls: two queries. ``user``
    (the viewer), unless they oversee the campaign: without the entries the registered
    filters hide from them (``register_hidden_entries``; no query more) and without what the
    registered redactors take out of the others (``register_entry_redactor``)."""
    qs = ActionRecord.objects.filter(Q(actor=character) | Q(target=character))
    player = user is not None and not oversees(user, character.campaign)
    if player:
        for hidden in _hidden_entries:
            qs = hidden(qs)
    entries = list(
        qs.select_related("actor", "target")
        .prefetch_related(Prefetch("rolls", queryset=RollRecord.objects.order_by("id")))
        [:size])
    if player:
        for redact in _entry_redactors:
            entries = redact(entries, character=character)
    return entries


def character_sheet(*, user, character_id: int, now: datetime | None = None):
    """The character page's view as it is at ``now``, made by the rule system's ``sheet_view``
    (nothing written). It has
    at least ``character``, ``log`` (recent_actions) and ``now``. Raises what character_get
    raises."""
    now = now or timezone.now()
    character = character_get(user=user, character_id=character_id)
    spec = rule_systems.require(character.campaign.rule_system)
    if spec.sheet_view is None:
        raise rule_systems.not_built(character.campaign.rule_system)
    return spec.sheet_view(character=character, log=recent_actions(character, user=user), now=now)


@dataclass(frozen=True)
class JournalRead:
    """What a viewer may read of a journal: ``entries``, the ActionRecords they may read at all
    (newest first, rolls prefetched: the caller filters and pages them), and ``shown(page)``,
    what they may read of a page of them (changed in memory only). ``unseen_characters``: the
    characters the viewer may not know of (a filter on one of them reads nothing)."""

    entries: QuerySet
    shown: Callable[[list], list]
    unseen_characters: frozenset[int] = frozenset()


def journal_entries(qs: QuerySet) -> QuerySet:
    """``qs`` (ActionRecords) as a journal page reads them: actor, target, rolls in order."""
    return qs.select_related("actor", "target").prefetch_related(
        Prefetch("rolls", queryset=RollRecord.objects.order_by("id")))


def _as_its_player_reads(page: list, own: dict[int, Character]) -> list:
    """Each entry of ``page`` through the registered redactors, as the sheet of the player's
    character in it (its actor if the player's, else its target) shows it."""
    for entry in page:
        character = own.get(entry.actor_id) or own.get(entry.target_id)
        if character is not None:
            for redact in _entry_redactors:
                redact([entry], character=character)
    return page


def campaign_journal(*, user, campaign_id: int) -> JournalRead:
    """The campaign's journal as ``user`` may read it: every entry for who oversees the
    campaign (its GM, staff); for a player, the entries by or against their own characters,
    as their sheets show them (``recent_actions``' rules: the entries the registered filters
    hide left out, the others through the redactors). A stranger, or a missing campaign:
    NotFound ``no_such_campaign``. Queries: the campaign; a player's characters; then the
    page and its rolls."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise NotFound("no_such_campaign")
    qs = journal_entries(ActionRecord.objects.filter(campaign=campaign))
    for private in _private_entries:  # not even the GM's: a whisper between players, say
        qs = private(qs)
    if oversees(user, campaign):
        return JournalRead(entries=qs, shown=lambda page: page)
    own = {c.pk: c for c in Character.objects.filter(campaign=campaign, owner_id=user.pk)
           .select_related("campaign")}
    if not own:
        raise NotFound("no_such_campaign")
    qs = qs.filter(Q(actor_id__in=own) | Q(target_id__in=own))
    for hidden in _hidden_entries:
        qs = hidden(qs)
    return JournalRead(entries=qs, shown=lambda page: _as_its_player_reads(page, own))
