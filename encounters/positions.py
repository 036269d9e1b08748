"""Where the combatants stand, in metres: the GM places or clears one, or clears them all;
a system's move writes one with :func:`set_position` inside its own step.

Rule sources: gamerules/encounter/space.py (``point``: the checks and the rounding to the
centimetre). Imports only the opening (encounters.access) among the encounter's modules.
"""

from __future__ import annotations

from typing import Any

from encounters.access import GM, NOT_ENDED, opened
from encounters.models import Combatant
from gamerules.encounter import space


def set_position(combatant: Combatant, where: space.Point | None) -> None:
    """Write ``combatant``'s position (None: clear it). The caller holds the encounter's lock
    and saves the encounter (``access.save``, or ``encounter_act`` for a system's move)."""
    combatant.x, combatant.y = (where.x, where.y) if where is not None else (None, None)
    Combatant.objects.filter(pk=combatant.pk).update(x=combatant.x, y=combatant.y)


def combatant_place(*, user, encounter_id: int, combatant_id: int, x: Any = None,
                    y: Any = None) -> Combatant:
    """The GM puts ``combatant_id`` at (``x``, ``y``) metres, rounded to the centimetre, or
    clears its position (both None or empty). A step: locked, version bumped, pushed. Raises
    PositionError ("position_not_number", "position_out_of_bounds", "position_needs_both"),
    EncounterInvalid(code="no_such_combatant"), EncounterConflict(code="encounter_ended")."""
    where = space.point(x, y)
    with opened(encounter_id, user, who=GM, state=NOT_ENDED) as step:
        me = step.combatant(combatant_id)
        if me.point != where:
            set_position(me, where)
            step.save()
        return me


def positions_clear(*, user, encounter_id: int) -> int:
    """The GM clears every combatant's position (the encounter goes back to the table's
    judgement). Returns how many were cleared; a step when any was."""
    with opened(encounter_id, user, who=GM, state=NOT_ENDED) as step:
        cleared = Combatant.objects.filter(encounter=step.encounter, x__isnull=False).update(
            x=None, y=None)
        if cleared:
            step.save()
        return cleared
