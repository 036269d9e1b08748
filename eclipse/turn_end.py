"""The end of Eclipse Phase's action turn on the shared encounter (the GM, once a round): each
combatant's sleeve bleeds and counts a turn of stun down; those now out of the fight are
marked defeated. One journal entry.

Source: 001_e6266c120d4801b4.txt, "Combat" (durability, wounds, death: bleeding beyond DUR);
the choices are in docs/rules/eclipse-phase.md ("The encounter").
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from campaigns.journal import record_action
from eclipse import environment
from eclipse.models import EclipseSheet, Sleeve
from eclipse.play_errors import GameMasterOnly, TurnEndDone
from eclipse.selectors import SHEET_RELATED, health_of, lock_sheets, morph_of, params_of
from encounters.services import encounter_changed
from gamerules.eclipse_phase.health import end_of_turn

KIND_TURN_END = "eclipse_turn_end"


def encounter_turn_end(*, user, encounter_id: int, now: datetime | None = None):
    """The end of the action turn (the GM, once a round): each combatant's sleeve bleeds
    (beyond DUR with a wound) and counts one turn of stun down (health.end_of_turn); those
    now out of the fight are marked defeated. One journal entry. Raises GameMasterOnly,
    NotEclipse (another system's encounter), TurnEndDone (this round's was applied)."""
    from django.db import transaction

    from campaigns.models import ActionRecord
    from encounters.models import Combatant as CombatantRow

    now = now or timezone.now()
    with transaction.atomic():
        # another system's encounter: nothing bleeds, no entry
        e, combatants = environment.lock_for_gm_with_combatants(user, encounter_id,
                                                                GameMasterOnly)
        if ActionRecord.objects.filter(campaign=e.campaign, kind=KIND_TURN_END,
                                       summary__encounter=e.pk,
                                       summary__round=e.round).exists():
            raise TurnEndDone()
        params = params_of(e)
        playing = [c for c in combatants.values() if not c.removed and c.character_id]
        # the sheets locked, then read with their sleeves: the bleeding reads only the
        # sleeve's health and morph (no weapon, no armour: two queries fewer)
        ids = lock_sheets([c.character_id for c in playing if c.character_id])
        sheets = {s.pk: s for s in EclipseSheet.objects.filter(pk__in=ids)
                  .select_related(*SHEET_RELATED)}
        changed, lines, down = [], [], []
        for c in playing:
            sheet = sheets.get(c.character_id or 0)
            if sheet is None or sheet.sleeve is None:
                continue
            end = end_of_turn(health_of(sheet.sleeve), morph_of(sheet.sleeve), params)
            if end.after != end.before:
                s = sheet.sleeve
                s.damage, s.stunned = end.after.damage, end.after.stunned
                changed.append(s)
                lines.append({"name": c.name, "bled": end.bled, "damage": end.after.damage,
                              "stunned": end.after.stunned, "condition": end.condition.value})
            if end.condition.value != "active" and not c.defeated:
                down.append(c.pk)
        if changed:
            Sleeve.objects.bulk_update(changed, ["damage", "stunned"])
        if down:
            CombatantRow.objects.filter(pk__in=down).update(defeated=True)
        encounter_changed(e)
        return record_action(campaign=e.campaign, kind=KIND_TURN_END, now=now, user=user,
                             summary={"encounter": e.pk, "round": e.round, "lines": lines})

