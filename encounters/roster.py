"""Who fights: combatants added by the GM (a character of the campaign, copies of a GM's
template each with its own new sheet, names without a sheet), removed and added again, hidden
or revealed, defeated or back up, surprised. A combatant added, or added again, while the
encounter runs is a late joiner: at the end of the order.

Rule sources: gamerules/encounter/clock.py (``add``, ``remove``: the order and the turn when
one joins or leaves), the system's sheet copies (campaigns.rule_systems.RuleSystemSpec.
copy_sheets) and turns a round (encounters.hooks.register_turns). Imports the opening
(encounters.access), the effects, the order of play and the reactions (a removal waits for
none) among the encounter's modules.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction

from campaigns import rule_systems
from campaigns.errors import InvalidInput, NotFound
from campaigns.journal import record_action
from characters.models import Character
from characters.rules import plays, require_owner
from characters.services import NAME_MAX
from encounters import hooks
from encounters.access import ANYONE, GM, NOT_ENDED, can_see, opened, require_not_ended
from encounters.effects import durations
from encounters.errors import (EncounterConflict, EncounterForbidden, EncounterInvalid,
                               EncounterNotFound)
from encounters.models import Combatant, Encounter
from encounters.reactions import require_no_reaction
from encounters.turn_order import (KIND_INITIATIVE, MOST_TURNS, about, apply_step, clock_of,
                                   reroll, roll_initiative, scores, system_turns)
from gamerules.dice import RandomSource
from gamerules.encounter import clock as rules
from gamerules.encounter.errors import OrderError
from gamerules.encounter.order import OrderMode

MOST_AT_ONCE = 50  # combatants added in one step
COPY_TRIES = 3  # names for copies chosen again when another step took one meanwhile


@dataclass(frozen=True)
class CombatantEntry:
    """One line of "add combatants": a character of the campaign, a GM's template (a creature or
    non-player character copied ``count`` times, each copy a new character with its own sheet:
    "Goblin 1", "Goblin 2"...), or a name without a sheet (``count`` of them); ``position``
    None: after everyone already there."""

    character_id: int | None = None
    template_id: int | None = None
    name: str = ""
    count: int = 1
    surprised: bool = False
    hidden: bool = False
    position: int | None = None
    initiative: int | None = None
    tiebreak: int = 0
    turns_per_round: int = 1


def combatants_add(*, user, encounter_id: int, entries: list[CombatantEntry]) -> list[Combatant]:
    """Add combatants (GM). While the encounter runs they are late joiners: at the end of the
    order, playing this round if its end is still to come. Raises EncounterInvalid
    ("combatant_needs_name", "not_in_campaign", "too_many_combatants", "character_once",
    "copies_of_player", "no_copies", "count_at_least_one", "turns_per_round_range"),
    EncounterConflict(code="encounter_ended"), OrderError."""
    with opened(encounter_id, user, who=GM, state=NOT_ENDED) as step:
        encounter, combatants = step.encounter, step.combatants
        _check_numbers(entries)
        total = sum(e.count for e in entries)
        if total > MOST_AT_ONCE:
            raise EncounterInvalid(code="too_many_combatants", most=MOST_AT_ONCE)
        ids = {e.character_id for e in entries if e.character_id}
        ids |= {e.template_id for e in entries if e.template_id}
        characters = Character.objects.in_bulk(ids)
        if any(c.campaign_id != encounter.campaign_id for c in characters.values()) or \
                len(characters) != len(ids):
            raise EncounterInvalid(code="not_in_campaign")
        fighting = {c.character_id for c in combatants.values() if c.character_id and not c.removed}
        named = [e.character_id for e in entries if e.character_id]
        for entry in entries:  # a character has one sheet: it fights once (copies are new ones)
            cid = entry.character_id
            if cid and (cid in fighting or named.count(cid) > 1 or entry.count > 1):
                raise EncounterInvalid(code="character_once", name=characters[cid].name)
        position = max((c.position for c in combatants.values()), default=-1) + 1
        made = []
        for entry in entries:
            template = characters.get(entry.template_id) if entry.template_id else None
            character = characters.get(entry.character_id) if entry.character_id else None
            source = template or character
            base = (entry.name.strip() or (source.name if source else ""))[:60]
            if not base:
                raise EncounterInvalid(code="combatant_needs_name")
            count = entry.count
            seats: list[tuple[Character | None, str]]
            if template is not None:
                seats = [(copy, copy.name) for copy in _copies(encounter, template, base, count)]
            else:  # a character (count 1), or a name without a sheet: "Goblin 1", "Goblin 2"...
                seats = [(character, f"{base} {i + 1}" if count > 1 else base)
                         for i in range(count)]
            for seated, name in seats:
                made.append(Combatant(
                    encounter=encounter, character=seated, name=name,
                    position=entry.position if entry.position is not None else position,
                    initiative=entry.initiative, tiebreak=entry.tiebreak,
                    turns_per_round=entry.turns_per_round,
                    surprised=entry.surprised, hidden=entry.hidden,
                    joined_round=encounter.round))
                position += 1
        system_turns(encounter.campaign.rule_system, made)
        Combatant.objects.bulk_create(made)
        if encounter.state == Encounter.State.RUNNING:
            clock, _members = clock_of(encounter, combatants)
            start = len(clock.order)
            for i, c in enumerate(made):
                c.rank = start + i
            Combatant.objects.bulk_update(made, ["rank"])
        step.save()
        return made


def _check_numbers(entries: list[CombatantEntry]) -> None:
    """Each entry's ``count`` (1 or more; the total is bounded by MOST_AT_ONCE) and
    ``turns_per_round`` (1 to MOST_TURNS), refused rather than clamped."""
    for entry in entries:
        if entry.count < 1:
            raise EncounterInvalid(code="count_at_least_one")
        if not 1 <= entry.turns_per_round <= MOST_TURNS:
            raise EncounterInvalid(code="turns_per_round_range", most=MOST_TURNS)


def _copies(encounter: Encounter, template: Character, base: str, count: int) -> list[Character]:
    """``count`` new characters copied from ``template`` (not a player's), named "<base> <n>"
    with the first numbers no character of the campaign uses, their sheets copied by the rule
    system in one go (RuleSystemSpec.copy_sheets). Raises EncounterInvalid ("copies_of_player",
    "no_copies")."""
    if template.kind == Character.Kind.PLAYER:
        raise EncounterInvalid(code="copies_of_player", name=template.name)
    spec = rule_systems.get(encounter.campaign.rule_system)
    if spec is None or spec.copy_sheets is None:
        raise EncounterInvalid(code="no_copies",
                               system=encounter.campaign.get_rule_system_display())
    for _attempt in range(COPY_TRIES):
        names = _free_numbers(encounter.campaign_id, base, count)
        try:
            with transaction.atomic():  # a name taken since (another step at once): try again
                made = Character.objects.bulk_create(
                    [Character(campaign_id=encounter.campaign_id, kind=template.kind, name=name)
                     for name in names])
        except IntegrityError:
            continue
        spec.copy_sheets(template, made)
        return made
    raise InvalidInput("name_taken", name=names[0])


def _free_numbers(campaign_id: int, base: str, count: int) -> list[str]:
    """``count`` names "<base> <n>", the first numbers no character of the campaign uses
    (whatever the case: characters.Character's unique constraint), ``base`` cut so that each
    fits a character's name (NAME_MAX)."""
    prefix = base[:NAME_MAX - 11]  # room for " <n>" up to 10 digits: every candidate starts so
    taken = {n.casefold() for n in Character.objects.filter(
        campaign_id=campaign_id, name__istartswith=prefix).values_list("name", flat=True)}
    names: list[str] = []
    number = 1
    while len(names) < count:
        suffix = f" {number}"
        name = base[:NAME_MAX - len(suffix)].rstrip() + suffix
        if name.casefold() not in taken:
            names.append(name)
        number += 1
    return names


def combatant_remove(*, user, encounter_id: int, combatant_id: int,
                     now: datetime | None = None, rng: RandomSource | None = None) -> Combatant:
    """Out of the order (GM); removing whose turn it is starts the next turn. Refused while a
    reaction waits. Raises OrderError(code="not_in_order") for one already out."""
    with opened(encounter_id, user, who=GM, state=NOT_ENDED, now=now, rng=rng) as step:
        encounter, combatants = step.encounter, step.combatants
        me = step.combatant(combatant_id)
        if me.removed:
            raise OrderError(code="not_in_order")
        if encounter.state == Encounter.State.RUNNING:
            require_no_reaction(encounter, combatants, step.now, step.rng, user)
            clock, members = clock_of(encounter, combatants)
            _effects, lasting = durations(encounter)
            reorder = reroll(encounter, combatants, step.rng)
            moved = rules.remove(clock, members, me.pk, lasting, encounter.skip_defeated,
                                 reorder=reorder)
            me.removed = True
            Combatant.objects.filter(pk=me.pk).update(removed=True)
            apply_step(encounter, combatants, moved, clock)
            if reorder is not None:
                reorder.journal(user, step.now)
        else:
            me.removed = True
            Combatant.objects.filter(pk=me.pk).update(removed=True)
            step.save()
        return me


def combatant_readd(*, user, encounter_id: int, combatant_id: int) -> Combatant:
    """Back in, at the end of the order (as a late joiner). Raises OrderError
    ("already_in_order")."""
    with opened(encounter_id, user, who=GM, state=NOT_ENDED) as step:
        encounter = step.encounter
        me = step.combatant(combatant_id)
        if not me.removed:
            raise OrderError(code="already_in_order")
        me.removed = False
        if encounter.state == Encounter.State.RUNNING:
            clock, _members = clock_of(encounter, step.combatants)
            me.rank = len(rules.add(clock, [me.pk]).order) - 1
            me.joined_round = encounter.round
        me.save(update_fields=["removed", "rank", "joined_round"])
        step.save()
        return me


def combatant_update(*, user, encounter_id: int, combatant_id: int,
                     hidden: bool | None = None, defeated: bool | None = None,
                     surprised: bool | None = None) -> Combatant:
    """The GM's switches: reveal or hide, defeated or back up, surprised (before the start)."""
    with opened(encounter_id, user, who=GM, state=NOT_ENDED) as step:
        me = step.combatant(combatant_id)
        fields = []
        for name, value in (("hidden", hidden), ("defeated", defeated),
                            ("surprised", surprised)):
            if value is not None:
                setattr(me, name, value)
                fields.append(name)
        if fields:
            me.save(update_fields=fields)
            step.save()
        return me


# --- players joining (issue 21, item 6) -------------------------------------------------------

def encounter_joining_set(*, user, encounter_id: int, allowed: bool) -> Encounter:
    """The GM lets the campaign's players add their own characters (:func:`encounter_join`)
    or stops it (``Encounter.players_may_join``). Setting the same value again changes
    nothing (no version). Raises EncounterConflict("encounter_ended")."""
    with opened(encounter_id, user, who=GM, state=NOT_ENDED, related=None) as step:
        encounter = step.encounter
        if encounter.players_may_join != allowed:
            encounter.players_may_join = allowed
            Encounter.objects.filter(pk=encounter.pk).update(players_may_join=allowed)
            step.save()
        return encounter


def encounter_join(*, user, encounter_id: int, character_id: int,
                   now: datetime | None = None, rng: RandomSource | None = None) -> Combatant:
    """A player adds their own character to an encounter whose GM lets players join
    (``players_may_join``), while it is set up or running, once: a player with a combatant
    in it already (or one the GM took out) does not join again. While it runs the joiner is a
    late joiner (at the end of the order, playing this round if its end is still to come:
    gamerules.encounter.clock.add); in a rolled order its initiative is rolled by its system
    and journaled as every roll is (one "encounter_initiative" action naming it, ``joined``),
    so a system rolling each round has its score and the page shows it. Pushed as any step
    (version bumped).

    Checks, in this order: someone who neither sees the encounter nor plays a character of its
    campaign gets EncounterNotFound (404); then EncounterConflict("encounter_ended"),
    EncounterForbidden("joining_closed"), NotFound("no_such_character": a character the user
    may not see, another player's) or Forbidden, EncounterInvalid("not_in_campaign",
    "join_player_character"), EncounterConflict("already_joined", "left_encounter")."""
    with opened(encounter_id, user, who=ANYONE, state=None, now=now, rng=rng,
                related=hooks.sheet_joins) as step:
        encounter, combatants = step.encounter, step.combatants
        character = _joiner(user, encounter, combatants, character_id)
        position = max((c.position for c in combatants.values()), default=-1) + 1
        me = Combatant(encounter=encounter, character=character, name=character.name[:80],
                       position=position, joined_round=encounter.round)
        system_turns(encounter.campaign.rule_system, [me])
        me.save()
        combatants[me.pk] = me
        if encounter.state == Encounter.State.RUNNING:
            clock, _members = clock_of(encounter, combatants)
            me.rank = len(rules.add(clock, [me.pk]).order) - 1
            me.save(update_fields=["rank", *_joiner_initiative(step, me)])
        step.save()
        return me


def _joiner(user, encounter: Encounter, combatants: dict[int, Combatant],
            character_id: int) -> Character:
    """The character ``user`` may join ``encounter`` with (its campaign set to the
    encounter's), checked in :func:`encounter_join`'s order; raises as it says."""
    campaign = encounter.campaign
    if not can_see(user, encounter, combatants.values()) and not plays_in(user, campaign):
        raise EncounterNotFound()
    require_not_ended(encounter)
    if not encounter.players_may_join:
        raise EncounterForbidden(code="joining_closed")
    character = Character.objects.select_related("campaign").filter(pk=character_id).first()
    if character is None:
        raise NotFound("no_such_character")
    require_owner(user, character)
    if character.campaign_id != campaign.pk:
        raise EncounterInvalid(code="not_in_campaign")
    if not character.is_player:
        raise EncounterInvalid(code="join_player_character")
    for c in combatants.values():
        if c.character is not None and c.character.is_player and plays(user, c.character,
                                                                       campaign):
            if c.removed:
                raise EncounterConflict(code="left_encounter", name=c.name)
            raise EncounterConflict(code="already_joined", name=c.name)
    character.campaign = campaign
    return character


def _joiner_initiative(step, me: Combatant) -> list[str]:
    """In a rolled order, roll the joiner's initiative by its system and journal it (one
    "encounter_initiative" action, ``joined``); the fields it set (none otherwise)."""
    encounter = step.encounter
    system = encounter.campaign.rule_system
    initiative = hooks.initiative_for(system)
    if encounter.order_mode != OrderMode.ROLLED or initiative is None:
        return []
    rows, roll_about = about(roll_initiative(system, initiative, [me], step.rng))
    record_action(campaign=encounter.campaign, kind=KIND_INITIATIVE, now=step.now,
                  user=step.user, summary={"encounter": encounter.pk, "round": encounter.round,
                                           "joined": True, "order": [me.pk],
                                           "scores": scores([me]), "roll_about": roll_about},
                  rolls=rows)
    return ["initiative", "tiebreak"]


def plays_in(user, campaign) -> bool:
    """Whether ``user`` has a player's character of their own in ``campaign`` (one query): who
    may hear of an encounter open to joining."""
    if user is None or not user.is_authenticated:
        return False
    return Character.objects.filter(campaign=campaign, kind=Character.Kind.PLAYER,
                                    owner_id=user.pk).exists()
