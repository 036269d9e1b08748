"""Surprise and ambush before an Eclipse Phase encounter starts (issue 12, item 7).

Source: 001_e6266c120d4801b4.txt, "Surprise & embuscade : les cibles font un jet de perception
à -20 contre un jet d'infiltration de l'attaquant. Si la cible échoue, l'attaquant bénéficie
d'une attaque gratuite (la cible peut dépenser une action rapide pour se défendre). Si la cible
et l'attaquant réussissent, la cible subit un malus de 30 à l'initiative et peut se défendre.
Si la cible obtient une marge de succès de 30+, elle peut se défendre sans malus". The rule is
gamerules.eclipse_phase.manoeuvres.ambush; the outcome is stored on eclipse.models.
EncounterSetting (``ambush``); the choices are in docs/rules/eclipse-phase.md ("The encounter").

Before the start, the GM names the ambusher; each combatant marked surprised rolls perception
-20 against the ambusher's infiltration (one pair of tests per target). A failed perception
keeps it surprised: the shared order puts it after everyone in round 1, and a surprised target
defends only by spending a quick action, which is the ambusher's free attack. Both succeeding
clears the surprise and gives -30 to its first initiative roll (eclipse.encounter.initiative
reads ``initiative_malus``); a margin of 30+ or a failed infiltration clears it, no malus.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaigns.journal import record_action
from eclipse.defence import test_json, test_row
from eclipse.selectors import params_of
from eclipse.environment import _setting_locked, lock_for_gm, setting_of
from eclipse.errors import EclipseServiceError
from eclipse.selectors import loaded_sheets, rules_of
from encounters.models import Combatant, Encounter
from encounters.services import combatants_of, encounter_changed
from gamerules.dice import RandomSource
from gamerules.eclipse_phase import manoeuvres
from gamerules.modifiers import Modifier

KIND_AMBUSH = "eclipse_ambush"


def initiative_malus(combatant) -> Modifier | None:
    """The -30 of a combatant who noticed the ambush, on the roll made at the start only (the
    encounter still being set up); None otherwise. Reads the combatant's cached encounter."""
    encounter = getattr(combatant, "encounter", None)
    if encounter is None or encounter.state != Encounter.State.SETUP:
        return None
    setting = setting_of(encounter)
    if setting is None:
        return None
    line = (setting.ambush.get("targets") or {}).get(str(combatant.pk))
    if not line or not line.get("initiative"):
        return None
    return Modifier("surprised", int(line["initiative"]), "surprise")


def encounter_ambush(*, user, encounter_id: int, ambusher_id: int,
                     rng: RandomSource | None = None, now: datetime | None = None) -> Encounter:
    """Before the start, the GM rolls ``ambusher_id``'s ambush (manoeuvres.ambush) against
    every combatant marked surprised, in entry order: failed perception, it stays surprised
    (the free attack); both succeed, the surprise is cleared and -30 goes on its first
    initiative; margin 30+ or a failed infiltration, cleared. Raises EncounterNotFound,
    NotEclipse, GameMasterOnly, EclipseServiceError ("ambush_not_setup",
    "ambush_bad_ambusher", "ambush_no_target"). One journal entry (eclipse_ambush) with both
    tests of each target."""
    rng, now = rng or random.SystemRandom(), now or timezone.now()
    with transaction.atomic():
        e = lock_for_gm(user, encounter_id)
        if e.state != Encounter.State.SETUP:
            raise EclipseServiceError("ambush_not_setup", code="ambush_not_setup")
        combatants = combatants_of(e)
        ambusher = combatants.get(ambusher_id)
        playing = [c for c in combatants.values() if not c.removed and c.character_id]
        sheets = loaded_sheets([c.character_id for c in playing if c.character_id])
        if ambusher is None or ambusher.removed or ambusher.surprised \
                or ambusher.character_id is None or ambusher.character_id not in sheets:
            raise EclipseServiceError("ambush_bad_ambusher", code="ambush_bad_ambusher")
        targets = sorted((c for c in playing if c.surprised and c.character_id in sheets),
                         key=lambda c: (c.position, c.pk))
        if not targets:
            raise EclipseServiceError("ambush_no_target", code="ambush_no_target")
        params = params_of(e)
        attacker = rules_of(sheets[ambusher.character_id])
        setting = _setting_locked(e)
        lines: dict[str, Any] = dict(setting.ambush.get("targets") or {})
        rolls, cleared = [], []
        for c in targets:
            them = rules_of(sheets[c.character_id or 0])
            out = manoeuvres.ambush(them.character, attacker.character, rng, params,
                                    target_wounds=them.health.wounds,
                                    attacker_wounds=attacker.health.wounds)
            rolls += [test_row(out.perception, c.character),
                      test_row(out.infiltration, ambusher.character)]
            malus = sum(m.value for m in out.initiative_modifiers)
            lines[str(c.pk)] = {"name": c.name, "outcome": out.outcome.value,
                                "initiative": malus,
                                "perception": test_json(out.perception),
                                "infiltration": test_json(out.infiltration)}
            if out.outcome is not manoeuvres.Surprise.FREE_ATTACK:
                c.surprised = False
                cleared.append(c)
        if cleared:
            Combatant.objects.bulk_update(cleared, ["surprised"])
        setting.ambush = {"ambusher": ambusher.pk, "ambusher_name": ambusher.name,
                          "targets": lines}
        setting.save(update_fields=["ambush"])
        encounter_changed(e)
        record_action(campaign=e.campaign, kind=KIND_AMBUSH, now=now, user=user,
                      actor=ambusher.character,
                      summary={"encounter": e.pk, "ambusher": ambusher.name,
                               "targets": [lines[str(c.pk)] | {"combatant": c.pk}
                                           for c in targets]},
                      rolls=rolls)
        return e
