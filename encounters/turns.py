"""An encounter's life and its turns: created (GM), started (everyone placed, round 1, the first
turn), each turn ended for the next, delayed, its action counted by the GM or spent by a system's
action in turn (:func:`encounter_act`, the way every rule system acts), ended.

Stale and concurrent steps: ``encounter_next_turn`` and ``encounter_delay`` name the turn they
end (``turn``, the ``turn_serial`` the caller saw): of two game masters pressing "next turn" on
the same turn, the second waits for the lock, then finds the turn moved on and gets
``turn_already_advanced``. An action in turn (``encounter_act``) counts against
``actions_per_turn``: a second one at once gets ``action_already_taken``.

Rule sources: gamerules/encounter/clock.py (start, next turn, delay), gamerules/encounter/
order.py (placing), the system's initiative (encounters.hooks.register_initiative). Imports the
opening (encounters.access), the effects, the order of play and the reactions (a step waits for
none) among the encounter's modules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from campaigns import rule_systems
from campaigns.journal import record_action
from campaigns.models import Campaign
from campaigns.permissions import oversees
from encounters import hooks
from encounters.access import (GM, NOT_ENDED, PLAYER, PLAYER_OR_GM, RUNNING, TURN_HOLDER, Acting,
                               combatant_in, is_gm, opened)
from encounters.effects import durations
from encounters.errors import (EncounterConflict, EncounterForbidden, EncounterInvalid,
                               EncounterNotFound)
from encounters.models import Combatant, Encounter, PendingReaction
from encounters.reactions import Ask, request_reaction, request_reactions, require_no_reaction
from encounters.turn_order import (KIND_INITIATIVE, about, apply_step, clock_of, next_turn,
                                   roll_initiative, scores, system_turns)
from gamerules.dice import RandomSource
from gamerules.encounter import clock as rules
from gamerules.encounter import reactions as prompts
from gamerules.encounter.order import Contender, OrderMode, place

T = TypeVar("T")
# The journal's kinds the encounter itself writes (declared in encounters.apps for every system
# playing encounters; templates/campaigns/_log_entry.html renders them).
KIND_ACTION_SPENT = "encounter_action_spent"
JOURNAL_KINDS = (KIND_INITIATIVE, KIND_ACTION_SPENT)


# --- setting up -----------------------------------------------------------------------------

def encounter_create(*, user, campaign_id: int, name: str, actions_per_turn: int = 1,
                     skip_defeated: bool = True) -> Encounter:
    """A new encounter in ``campaign_id`` (its game master only). The time to react is the
    campaign's ``reaction_timeout_seconds`` parameter when its rule system declares one, else
    30 s (encounters.models.DEFAULT_REACTION_TIMEOUT); the GM may change it per encounter.
    Raises EncounterNotFound, EncounterForbidden."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise EncounterNotFound()
    if not oversees(user, campaign):
        raise EncounterForbidden(code="not_game_master")
    timeout = getattr(campaign.parameters, "reaction_timeout_seconds", None)
    extra = {"reaction_timeout_seconds": timeout} if timeout else {}
    return Encounter.objects.create(campaign=campaign, name=name.strip()[:120] or "?",
                                    actions_per_turn=actions_per_turn,
                                    skip_defeated=skip_defeated, **extra)


def encounter_start(*, user, encounter_id: int, mode: str = OrderMode.GM,
                    rng: RandomSource | None = None, now: datetime | None = None) -> Encounter:
    """Place everyone (gamerules.encounter.order: the GM's numbers, or the system's initiative
    roll, journaled as one "encounter_initiative" action), then round 1, the first turn.
    Raises EncounterConflict(code="encounter_already_started"), EncounterInvalid(code="no_initiative",
    key "unknown_order_mode"), NoLivingCombatant."""
    with opened(encounter_id, user, who=GM, state=None, now=now, rng=rng,
                related=hooks.sheet_joins) as step:  # what the initiative and turns read
        encounter, combatants = step.encounter, step.combatants
        if encounter.state != Encounter.State.SETUP:
            raise EncounterConflict(code="encounter_already_started")
        if mode not in tuple(OrderMode):
            raise EncounterInvalid(code="unknown_order_mode", mode=mode)
        playing = [c for c in combatants.values() if not c.removed]
        contenders = [Contender(c.pk, position=c.position, initiative=c.initiative,
                                tiebreak=c.tiebreak, surprised=c.surprised) for c in playing]
        rolls: list[dict[str, Any]] = []
        if mode == OrderMode.ROLLED:
            system = encounter.campaign.rule_system
            initiative = hooks.initiative_for(system)
            if initiative is None:
                spec = rule_systems.get(system)
                raise EncounterInvalid(code="no_initiative", system=str(spec.name if spec else system))
            rolls = roll_initiative(system, initiative, playing, step.rng)
            contenders = [Contender(c.pk, position=c.position, initiative=c.initiative,
                                    tiebreak=c.tiebreak, surprised=c.surprised) for c in playing]
            placed = place(contenders, OrderMode.ROLLED)
        else:
            placed = place(contenders, OrderMode.GM)
        for p in placed:
            c = combatants[p.id]
            c.rank, c.tie, c.joined_round = p.rank, p.tie, 1
        fields = ["rank", "tie", "initiative", "tiebreak", "joined_round"]
        if system_turns(encounter.campaign.rule_system, playing):  # SPD may have changed
            fields.append("turns_per_round")
        Combatant.objects.bulk_update(playing, fields)
        encounter.state, encounter.order_mode = Encounter.State.RUNNING, OrderMode(mode)
        clock, members = clock_of(encounter, combatants)
        _effects, lasting = durations(encounter)
        apply_step(encounter, combatants,
                   rules.start(clock, members, lasting, encounter.skip_defeated), clock)
        if rolls:
            rows, roll_about = about(rolls)
            record_action(campaign=encounter.campaign, kind=KIND_INITIATIVE, now=step.now,
                          user=user, summary={"encounter": encounter.pk, "round": 1,
                                              "order": [p.id for p in placed],
                                              "scores": scores(combatants[p.id] for p in placed),
                                              "roll_about": roll_about},
                          rolls=rows)
        return encounter


def encounter_end(*, user, encounter_id: int) -> Encounter:
    """The GM ends the encounter: its pending prompts defaulted without a resolution, no turn.
    Raises EncounterConflict(code="encounter_ended")."""
    # the GM's step reads no combatant (a player of it gets 403, a stranger 404: read for them)
    with opened(encounter_id, user, who=GM, state=NOT_ENDED, related=None) as step:
        encounter = step.encounter
        encounter.reactions.filter(status=prompts.Status.PENDING).update(
            status=prompts.Status.DEFAULTED, choice="")
        encounter.state, encounter.current_id, encounter.reaction_deadline = (
            Encounter.State.ENDED, None, None)
        step.save()
        return encounter


# --- turns ----------------------------------------------------------------------------------

def encounter_next_turn(*, user, encounter_id: int, turn: int | None,
                        now: datetime | None = None, rng: RandomSource | None = None
                        ) -> Encounter:
    """End turn ``turn`` (the ``turn_serial`` the caller saw; None: whatever turn it is, for
    scripts) and start the next (gamerules.encounter.clock.next_turn). The game master, or the
    player of the combatant whose turn it is. Raises EncounterConflict ("turn_already_advanced",
    "reaction_pending", "encounter_not_running"), EncounterForbidden, NoLivingCombatant."""
    # the sheets the initiative reads, joined: a new round of a rolled order may roll it again
    with opened(encounter_id, user, who=TURN_HOLDER, state=RUNNING, acting=Acting(turn=turn),
                now=now, rng=rng, related=hooks.sheet_joins) as step:
        encounter, combatants = step.encounter, step.combatants
        serial = encounter.turn_serial
        require_no_reaction(encounter, combatants, step.now, step.rng, user)
        if encounter.turn_serial == serial:  # a defaulted reaction may have ended the turn
            next_turn(encounter, combatants, user=user, now=step.now, rng=step.rng)
        return encounter


def encounter_spend_action(*, user, encounter_id: int, turn: int | None, reason: str = "move",
                           now: datetime | None = None, rng: RandomSource | None = None
                           ) -> Encounter:
    """The game master counts the current turn's action as taken (a move beyond a short
    distance, judged without a grid: issue 11, item 11), journaled (kind
    ``encounter_action_spent``, ``reason`` in the summary). Raises EncounterForbidden
    ("not_game_master"), EncounterConflict ("action_already_taken", "turn_already_advanced",
    "reaction_pending", "encounter_not_running")."""
    with opened(encounter_id, user, who=GM, state=RUNNING, acting=Acting(turn=turn), now=now,
                rng=rng) as step:
        encounter, combatants = step.encounter, step.combatants
        require_no_reaction(encounter, combatants, step.now, step.rng, user)
        current = combatants.get(encounter.current_id) if encounter.current_id else None
        if current is None:
            raise EncounterConflict(code="encounter_not_running")
        if encounter.turn_actions >= encounter.actions_per_turn:
            raise EncounterConflict(code="action_already_taken")
        encounter.turn_actions += 1
        record_action(campaign=encounter.campaign, kind=KIND_ACTION_SPENT, now=step.now,
                      user=user, actor=current.character,
                      summary={"encounter": encounter.pk, "round": encounter.round,
                               "combatant": current.name, "reason": reason[:40]})
        step.save()
        return encounter


def encounter_delay(*, user, encounter_id: int, combatant_id: int, after_id: int,
                    turn: int | None, now: datetime | None = None,
                    rng: RandomSource | None = None) -> Encounter:
    """``combatant_id``, whose turn it is and who has not acted, delays to act just after
    ``after_id`` (its player or the GM). Raises EncounterConflict ("not_your_turn",
    "delay_after_acting", "turn_already_advanced"), OrderError ("delay_target_passed"...)."""
    with opened(encounter_id, user, who=PLAYER_OR_GM, state=RUNNING,
                acting=Acting(turn=turn, combatant_id=combatant_id), now=now, rng=rng) as step:
        encounter, combatants, me = step.encounter, step.combatants, step.me
        assert me is not None  # checked by the opening
        require_no_reaction(encounter, combatants, step.now, step.rng, user)
        if encounter.current_id != me.pk:
            raise EncounterConflict(code="not_your_turn", name=me.name)
        if encounter.turn_actions:
            raise EncounterConflict(code="delay_after_acting")
        after = combatant_in(combatants, after_id)
        if after.hidden and not is_gm(user, encounter):
            # A hidden combatant does not exist for the players: the same error as a wrong id.
            raise EncounterInvalid(code="no_such_combatant")
        clock, members = clock_of(encounter, combatants)
        _effects, lasting = durations(encounter)
        apply_step(encounter, combatants,
                   rules.delay(clock, members, after_id, lasting, encounter.skip_defeated), clock)
        return encounter


# --- actions in turn: what a rule system calls ----------------------------------------------

@dataclass
class TurnContext:
    """What a system's action gets under the encounter's lock: the encounter, the acting
    combatant, every combatant by id, who acts and when. ``end_turn = True`` ends the turn
    after the action (a failed homebrew attack), once a reaction it asked for is resolved."""

    encounter: Encounter
    combatant: Combatant
    combatants: dict[int, Combatant]
    user: Any
    now: datetime
    end_turn: bool = False

    def request_reaction(self, *, target: Combatant, options: list[str],
                         action_payload: dict | None = None, resolver: str = "",
                         rolls: Iterable[dict] = (), default: str = prompts.NO_REACTION,
                         joins: PendingReaction | None = None) -> PendingReaction:
        return request_reaction(encounter=self.encounter, actor=self.combatant,
                                ask=Ask(target, options, action_payload or {}, default),
                                resolver=resolver, rolls=rolls, user=self.user, now=self.now,
                                joins=joins)


    def request_reactions(self, asks: Sequence[Ask], *, resolver: str,
                          rolls: Iterable[dict] = ()) -> list[PendingReaction]:
        """Several targets prompted at once, the first leading (encounters.reactions.
        request_reactions: two INSERTs whatever their number)."""
        return request_reactions(encounter=self.encounter, actor=self.combatant, asks=asks,
                                 resolver=resolver, rolls=rolls, user=self.user, now=self.now)


def encounter_act(*, user, encounter_id: int, combatant_id: int, act: Callable[[TurnContext], T],
                  costs_action: bool = True, turn: int | None = None,
                  now: datetime | None = None, rng: RandomSource | None = None) -> T:
    """Run a system's action for ``combatant_id`` in its turn: lock, check it is its turn, that
    ``user`` plays it, that no reaction waits, that the turn has an action left (when
    ``costs_action``), then ``act(ctx)`` (which may call ``ctx.request_reaction``), count the
    action and bump the version. Returns what ``act`` returns. Raises EncounterConflict
    ("not_your_turn", "action_already_taken", "reaction_pending", "turn_already_advanced"),
    EncounterForbidden(code="not_your_combatant"), and whatever ``act`` raises (nothing is kept)."""
    with opened(encounter_id, user, who=PLAYER, state=RUNNING,
                acting=Acting(turn=turn, combatant_id=combatant_id), now=now, rng=rng) as step:
        encounter, combatants, me = step.encounter, step.combatants, step.me
        assert me is not None  # checked by the opening
        require_no_reaction(encounter, combatants, step.now, step.rng, user)
        if encounter.current_id != me.pk:
            raise EncounterConflict(code="not_your_turn", name=me.name)
        if costs_action and encounter.turn_actions >= encounter.actions_per_turn:
            raise EncounterConflict(code="action_already_taken")
        ctx = TurnContext(encounter=encounter, combatant=me, combatants=combatants, user=user,
                          now=step.now)
        result = act(ctx)
        if costs_action:
            encounter.turn_actions += 1
        if ctx.end_turn and encounter.reaction_deadline is None:
            next_turn(encounter, combatants, user=user, now=step.now, rng=step.rng)
            return result
        if ctx.end_turn:  # once the reaction is resolved
            encounter.reactions.filter(status=prompts.Status.PENDING).update(end_turn=True)
        step.save()
        return result
