"""The order of play, between the stored rows and the pure clock: the clock built from the rows
(:func:`clock_of`), a clock's step written back (:func:`apply_step`: ranks, expired effects, the
turn, the version), the next turn (:func:`next_turn`), the initiative rolled by the rule system
(at the start, or each round for a system that rolls every round: :class:`Reroll`), the turns a
round each system gives (:func:`system_turns`), and the GM's order (:func:`encounter_set_order`).

Rule sources: gamerules/encounter/clock.py (rounds, turns, phases, durations),
gamerules/encounter/order.py (placing by the GM's numbers or the rolled scores, ties), the
system's initiative and turns registered in encounters.hooks. Imports the opening
(encounters.access) and the effects (encounters.effects) among the encounter's modules.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db.models import prefetch_related_objects

from campaigns import rule_systems
from campaigns.journal import record_action
from encounters import hooks, notices
from encounters.access import GM, NOT_ENDED, opened, save, storable
from encounters.effects import durations
from encounters.errors import EncounterInvalid
from encounters.models import Combatant, Encounter, EncounterEffect
from gamerules.dice import RandomSource
from gamerules.encounter import clock as rules
from gamerules.encounter.order import Contender, OrderMode, place

MOST_TURNS = 10  # turns a round of one combatant (Combatant.turns_per_round's validators)
# The journal's kind of a rolled order (declared in encounters.apps with encounters.turns'
# JOURNAL_KINDS; templates/campaigns/_log_entry.html renders it).
KIND_INITIATIVE = "encounter_initiative"


# --- the clock, between rows and rules ------------------------------------------------------

def clock_of(encounter: Encounter, combatants: dict[int, Combatant]
             ) -> tuple[rules.Clock, dict[int, rules.Member]]:
    """The pure clock of the encounter (its round, the order of the combatants in it, the
    current turn) and each combatant as a member (turns a round, defeated). No query."""
    in_order = sorted((c for c in combatants.values() if c.rank is not None and not c.removed),
                      key=lambda c: c.rank or 0)
    current = (rules.Turn(encounter.current_id, encounter.current_phase)
               if encounter.current_id else None)
    members = {c.pk: rules.Member(c.pk, turns=c.turns_per_round, defeated=c.defeated)
               for c in combatants.values()}
    return rules.Clock(round=encounter.round, order=tuple(c.pk for c in in_order),
                       current=current), members


def apply_step(encounter: Encounter, combatants: dict[int, Combatant], step: rules.Step,
               before: rules.Clock, rerolled: Reroll | None = None) -> None:
    """Write what ``step`` changed: the ranks (only when the order changed) with the scores of
    a ``rerolled`` round, in one UPDATE; the expired effects (one UPDATE), the turn; then save
    the encounter with its version bumped."""
    clock = step.clock
    changed: dict[int, Combatant] = {}
    if clock.order != before.order:
        rank = {cid: i for i, cid in enumerate(clock.order)}
        for c in combatants.values():
            new = rank.get(c.pk)
            if c.rank != new:
                c.rank = new
                changed[c.pk] = c
    fields = ["rank"]
    if rerolled is not None and rerolled.done:  # the new round's scores, with the ranks
        changed.update((c.pk, c) for c in rerolled.playing)
        fields += ["initiative", "tiebreak", "tie"]
    if changed:
        Combatant.objects.bulk_update(list(changed.values()), fields)
    if step.expired:
        EncounterEffect.objects.filter(pk__in=step.expired).update(expired_round=clock.round)
    turned = clock.current != before.current or clock.round != before.round
    if turned:
        encounter.turn_serial += 1
        encounter.turn_actions = 0
    encounter.round = clock.round
    encounter.current_id = clock.current.combatant if clock.current else None
    encounter.current_phase = clock.current.phase if clock.current else 0
    save(encounter)  # then the new turn's player is told, once the step commits
    if turned and encounter.current_id is not None:
        notices.turn_started(encounter, combatants.get(encounter.current_id))


def next_turn(encounter: Encounter, combatants: dict[int, Combatant], *, user, now: datetime,
              rng: RandomSource) -> None:
    """The next turn; a new round of a system rolling each round rolls its order again, in
    this step (journaled as one "encounter_initiative" action)."""
    clock, members = clock_of(encounter, combatants)
    _effects, lasting = durations(encounter)
    reorder = reroll(encounter, combatants, rng)
    apply_step(encounter, combatants, rules.next_turn(clock, members, lasting,
                                                      encounter.skip_defeated, reorder=reorder),
               clock, rerolled=reorder)
    if reorder is not None:
        reorder.journal(user, now)


# --- what the rule system gives: turns a round, initiative ----------------------------------

def prefetch_sheets(system: str, playing: Iterable[Combatant]) -> None:
    """Load what the system's initiative and turns read, for every combatant at once."""
    spec = rule_systems.get(system)
    default = (spec.sheet_related_name,) if spec and spec.sheet_related_name else ()
    lookups = hooks.sheet_prefetch(system, default)
    characters = []
    for c in playing:
        if c.character is None:
            continue
        characters.append(c.character)
        # the character's campaign is the encounter's, read with its lock: not read again
        if (Combatant.encounter.is_cached(c) and Encounter.campaign.is_cached(c.encounter)
                and c.character.campaign_id == c.encounter.campaign_id):
            c.character.campaign = c.encounter.campaign
    if lookups and characters:
        prefetch_related_objects(characters, *lookups)


def system_turns(system: str, combatants: list[Combatant]) -> bool:
    """Each combatant with a character takes the turns a round its system gives (hooks.
    register_turns: Eclipse Phase's SPD); False (nothing changed) for a system without."""
    turns = hooks.turns_for(system)
    if turns is None:
        return False
    prefetch_sheets(system, combatants)
    for c in combatants:
        if c.character is not None:
            c.turns_per_round = max(1, min(int(turns(c.character)), MOST_TURNS))
    return True


def scores(in_order) -> list[dict[str, Any]]:
    """The journal's line of each combatant of a rolled order, in order: id, name, score (the
    page reads it; a hidden one's line is left out for a player: encounters.visibility)."""
    return [{"combatant_id": c.pk, "name": c.name, "initiative": c.initiative}
            for c in in_order]


def roll_initiative(system: str, initiative: hooks.InitiativeFn, playing: list[Combatant],
                    rng: RandomSource) -> list[dict[str, Any]]:
    """Roll ``playing``'s initiative in entry order (the same dice, the same order), set each
    one's ``initiative`` and ``tiebreak`` (not saved) and return the rolls to journal."""
    # the initiative may read the sheets: a few queries, not some per combatant
    prefetch_sheets(system, playing)
    rolls: list[dict[str, Any]] = []
    for c in sorted(playing, key=lambda c: (c.position, c.pk)):
        result = initiative(c, rng)
        c.initiative, c.tiebreak = result.score, result.tiebreak
        rolls += [storable(r) | {"about": c.pk} for r in result.rolls]
    return rolls


def about(rolls: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[int | None]]:
    """(the rolls to journal, whom each is about: the summary's ``roll_about``), from rolls
    carrying their combatant's id under ``about`` (the initiative's)."""
    return ([{k: v for k, v in r.items() if k != "about"} for r in rolls],
            [r.get("about") for r in rolls])


class Reroll:
    """The clock's ``reorder`` for a system rolling initiative each round (hooks.
    register_initiative_each_round): everyone in the order rolls again, in one group (being
    surprised or a late joiner only counts in the round it happened), the defeated too (one
    brought back up has its score); ties as at the start. ``done`` once it rolled."""

    def __init__(self, encounter: Encounter, combatants: dict[int, Combatant],
                 initiative: hooks.InitiativeFn, rng: RandomSource) -> None:
        self.encounter, self.combatants, self.initiative, self.rng = (
            encounter, combatants, initiative, rng)
        self.rolls: list[dict[str, Any]] = []
        self.playing: list[Combatant] = []
        self.done = False

    def __call__(self, order: tuple[int, ...]) -> tuple[int, ...]:
        self.playing = [self.combatants[cid] for cid in order]
        self.rolls = roll_initiative(self.encounter.campaign.rule_system, self.initiative,
                                     self.playing, self.rng)
        placed = place([Contender(c.pk, position=c.position, initiative=c.initiative,
                                  tiebreak=c.tiebreak) for c in self.playing], OrderMode.ROLLED)
        for p in placed:
            self.combatants[p.id].tie = p.tie
        self.done = True
        return tuple(p.id for p in placed)

    def journal(self, user, now: datetime) -> None:
        """Journal the rolls as one "encounter_initiative" action (the scores are saved with
        the ranks: apply_step)."""
        if not self.done:
            return
        in_order = sorted(self.playing, key=lambda c: c.rank or 0)
        rows, roll_about = about(self.rolls)
        record_action(campaign=self.encounter.campaign, kind=KIND_INITIATIVE, now=now,
                      user=user, summary={"encounter": self.encounter.pk,
                                          "round": self.encounter.round, "each_round": True,
                                          "order": [c.pk for c in in_order],
                                          "scores": scores(in_order), "roll_about": roll_about},
                      rolls=rows)


def reroll(encounter: Encounter, combatants: dict[int, Combatant],
           rng: RandomSource) -> Reroll | None:
    """The reorder of a rolled order whose system rolls each round, else None (the GM's
    order, the homebrew: kept from round to round)."""
    system = encounter.campaign.rule_system
    initiative = hooks.initiative_for(system)
    if (encounter.order_mode != OrderMode.ROLLED or initiative is None
            or not hooks.initiative_each_round(system)):
        return None
    return Reroll(encounter, combatants, initiative, rng)


# --- the GM's order -------------------------------------------------------------------------

def encounter_set_order(*, user, encounter_id: int, combatant_ids: list[int]) -> Encounter:
    """The GM's order, first to act first: before the start, the numbers the start reads; while
    running, the kept order itself (the current turn stays). ``combatant_ids`` lists every
    combatant in play once. Raises EncounterInvalid(code="order_mismatch")."""
    with opened(encounter_id, user, who=GM, state=NOT_ENDED) as step:
        encounter, combatants = step.encounter, step.combatants
        running = encounter.state == Encounter.State.RUNNING
        in_play = {c.pk for c in combatants.values()
                   if not c.removed and (c.rank is not None or not running)}
        if len(combatant_ids) != len(set(combatant_ids)) or set(combatant_ids) != in_play:
            raise EncounterInvalid(code="order_mismatch")
        for i, cid in enumerate(combatant_ids):
            combatants[cid].position = i
            if running:
                combatants[cid].rank = i
        Combatant.objects.bulk_update([combatants[c] for c in combatant_ids],
                                      ["position", "rank"])
        step.save()
        return encounter
