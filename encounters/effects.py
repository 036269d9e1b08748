"""Lasting effects of an encounter: added by the GM for a number of rounds, each ending at the
start or the end of one combatant's turn (gamerules.encounter.clock: ``Duration``, ``Edge``,
``expires_round``); what the clock reads of them (:func:`durations`). Expired ones are written
by the turn's clock (encounters.turn_order.apply_step).

Rule sources: gamerules/encounter/clock.py (durations, MOST_ROUNDS). Imports only the opening
(encounters.access) and its hand-off to the answer (encounters.handoff) among the encounter's
modules.
"""

from __future__ import annotations

from encounters import handoff
from encounters.access import GM, NOT_ENDED, opened
from encounters.models import Encounter, EncounterEffect
from gamerules.encounter import clock as rules
from gamerules.encounter.errors import OrderError


def durations(encounter: Encounter) -> tuple[list[EncounterEffect], list[rules.Duration]]:
    """The encounter's effects not expired and the clock's view of them: one query. The
    list is handed to the step's answer (encounters.handoff)."""
    effects = list(encounter.effects.filter(expired_round__isnull=True))
    handoff.effects_read(encounter, effects)  # a step's answer shows them (encounters.handoff)
    return effects, [rules.Duration(id=e.pk, anchor=e.anchor_id, edge=rules.Edge(e.edge),
                                    expires_round=e.expires_round) for e in effects]


def effect_add(*, user, encounter_id: int, name: str, anchor_id: int, edge: str, rounds: int,
               bearer_id: int | None = None) -> EncounterEffect:
    """An effect for ``rounds`` rounds, ending at the ``edge`` ("start"/"end") of
    ``anchor_id``'s turn (gamerules.encounter.clock). Raises InvalidDuration (fewer than 1 or
    more than gamerules.encounter.clock.MOST_ROUNDS), OrderError(code="not_in_order") for a
    removed anchor or bearer, EncounterConflict(code="encounter_ended")."""
    with opened(encounter_id, user, who=GM, state=NOT_ENDED) as step:
        encounter = step.encounter
        anchor = step.combatant(anchor_id)
        bearer = step.combatant(bearer_id) if bearer_id else None
        if anchor.removed or (bearer is not None and bearer.removed):
            raise OrderError(code="not_in_order")  # no turn to come: it would never end
        effect = EncounterEffect.objects.create(
            encounter=encounter, name=name.strip()[:80] or "?", anchor=anchor, bearer=bearer,
            edge=rules.Edge(edge), rounds=rounds, created_round=encounter.round,
            expires_round=rules.expires_round(encounter.round, rounds))
        step.save()
        return effect
