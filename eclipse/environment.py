"""An Eclipse Phase encounter's environment (issue 12, item 7): its gravity (the ambush rolled
before the start is eclipse.ambush).

Source: 001_e6266c120d4801b4.txt, "Options & Complications": "Faible gravité (<0.6g) :distance
saut x2. Forte gravité (>1.2g) : 1 blessure/0.2g". The rules are
gamerules.eclipse_phase.manoeuvres (gravity_modifiers, gravity_wounds, jump_multiplier); the
choices are in docs/rules/eclipse-phase.md ("The encounter": gravity and ambush). Both are
stored on eclipse.models.EncounterSetting, one row per encounter, so that the shared encounter
model is unchanged.

- Gravity: the GM sets it (0 to 20 g) at any time before the end; its high-gravity malus is a
  modifier on every attack (eclipse.declare.declare adds it to the attack's modifiers, so the log
  shows it), not wounds taken, for as long as the gravity holds; the jump multiplier is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaigns.journal import record_action
from campaigns.models import RuleSystem
from eclipse.selectors import params_of
from eclipse.errors import EclipseServiceError, GameMasterOnly, NotEclipse
from eclipse.models import EncounterSetting
from encounters.models import Encounter
from encounters.errors import EncounterNotFound
from encounters.services import (can_see, combatants_of, encounter_changed, is_gm, lock_encounter,
                                 lock_with_combatants)
from gamerules.eclipse_phase import manoeuvres
from gamerules.modifiers import Modifier

KIND_GRAVITY = "eclipse_gravity"
GRAVITY_MAX = Decimal(20)
ONE_G = Decimal("1.00")
_CACHE = "_eclipse_setting"


def setting_of(encounter: Encounter) -> EncounterSetting | None:
    """The encounter's row (None: 1 g, no ambush), read once per encounter instance."""
    if not hasattr(encounter, _CACHE):
        setattr(encounter, _CACHE, EncounterSetting.objects.filter(encounter=encounter).first())
    return getattr(encounter, _CACHE)


def ambush_seen(ambush: dict[str, Any], seen) -> dict[str, Any]:
    """The stored ambush (eclipse.ambush: ``ambusher``, ``ambusher_name``, ``targets`` by
    combatant id) as a viewer may see it (``seen``: encounters.visibility.Visibility): nothing
    of an ambush by a hidden combatant, no line of a hidden one (as the journal's entry)."""
    if seen.everything or not ambush:
        return ambush
    if ambush.get("ambusher") in seen.hidden:
        return {}
    return {**ambush, "targets": {k: line for k, line in (ambush.get("targets") or {}).items()
                                  if not (k.isdigit() and int(k) in seen.hidden)}}


def gravity_of(encounter: Encounter) -> Decimal:
    setting = setting_of(encounter)
    return setting.gravity if setting is not None else ONE_G


@dataclass(frozen=True)
class Gravity:
    """What the gravity does: ``modifiers`` on every attack, the wounds' maluses it counts,
    the jump multiplier."""

    g: Decimal
    modifiers: tuple[Modifier, ...]
    wounds: int
    jump: int

    @property
    def malus(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def ordinary(self) -> bool:
        return not self.modifiers and self.jump == 1

    def record(self) -> dict[str, Any]:
        return {"gravity": str(self.g), "gravity_wounds": self.wounds, "jump_multiplier": self.jump,
                "gravity_modifiers": [m.as_record() for m in self.modifiers]}


def gravity(encounter: Encounter) -> Gravity:
    params = params_of(encounter)
    g = gravity_of(encounter)
    return Gravity(g, manoeuvres.gravity_modifiers(g, params),
                   manoeuvres.gravity_wounds(g, params), manoeuvres.jump_multiplier(g, params))


def require_eclipse(encounter: Encounter) -> None:
    """Raises NotEclipse for an encounter of another rule system's campaign."""
    if encounter.campaign.rule_system != RuleSystem.ECLIPSE_PHASE:
        raise NotEclipse()


def lock_for_gm_with_combatants(user, encounter_id: int,
                                refused: type[Exception] = GameMasterOnly
                                ) -> tuple[Encounter, dict[int, Any]]:
    """``lock_for_gm`` with the encounter's combatants (removed ones too) read in the locking
    query (encounters.access.lock_with_combatants): one query. Raises as lock_for_gm."""
    encounter, combatants = lock_with_combatants(encounter_id)
    if not is_gm(user, encounter):
        if user is not None and can_see(user, encounter, combatants.values()):
            raise refused()
        raise EncounterNotFound()
    require_eclipse(encounter)
    return encounter, combatants


def lock_for_gm(user, encounter_id: int,
                refused: type[Exception] = GameMasterOnly) -> Encounter:
    """The Eclipse Phase encounter ``encounter_id``, locked, for its game master. Membership
    comes first, so that a stranger learns nothing, not even the encounter's rule system:
    Raises EncounterNotFound (no such encounter, or one ``user`` cannot see), ``refused``
    (a player of it: the services' GameMasterOnly, ``gm_only``, or the actions'
    ``ep_gm_only``), then NotEclipse (its GM, on another system's encounter)."""
    encounter = lock_encounter(encounter_id)
    if not is_gm(user, encounter):
        if user is not None and can_see(user, encounter, combatants_of(encounter).values()):
            raise refused()
        raise EncounterNotFound()
    require_eclipse(encounter)
    return encounter


def _gravity_value(value: Any) -> Decimal:
    try:
        g = Decimal(str(value).strip().replace(",", "."))
    except (InvalidOperation, ValueError):
        g = Decimal(-1)
    if isinstance(value, bool) or not g.is_finite() or not 0 <= g <= GRAVITY_MAX:
        raise EclipseServiceError("gravity_range", code="invalid_input", high=GRAVITY_MAX,
                                  value=str(value)[:20])
    return g.quantize(Decimal("0.01"))


def _setting_locked(encounter: Encounter) -> EncounterSetting:
    setting, _ = EncounterSetting.objects.get_or_create(encounter=encounter)
    setattr(encounter, _CACHE, setting)
    return setting


def encounter_gravity_set(*, user, encounter_id: int, gravity_g: Any,
                          now: datetime | None = None) -> Encounter:
    """The GM sets the encounter's gravity in g (0 to 20, two decimals; "0,4" read as 0.4).
    Raises EncounterNotFound, NotEclipse, GameMasterOnly, EclipseServiceError
    ("gravity_range"; "encounter_ended" once over). Journaled (eclipse_gravity) with its
    modifiers, wound maluses and jump multiplier."""
    g = _gravity_value(gravity_g)
    now = now or timezone.now()
    with transaction.atomic():
        e = lock_for_gm(user, encounter_id)
        if e.state == Encounter.State.ENDED:
            raise EclipseServiceError("eclipse_service_refused", code="encounter_ended")
        setting = _setting_locked(e)
        before = setting.gravity
        setting.gravity = g
        setting.save(update_fields=["gravity"])
        effect = gravity(e)
        encounter_changed(e)
        record_action(campaign=e.campaign, kind=KIND_GRAVITY, now=now, user=user,
                      summary={"encounter": e.pk, "round": e.round, "before": str(before),
                               **effect.record()})
        return e
