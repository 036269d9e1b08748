"""The context of an Eclipse Phase attack in the encounter, loaded once; and the one write that
stores its outcome (the shape of ew1/context.py, issue 20 item 2).

``attack_context`` runs at most FOUR queries plus the encounter's gravity (read once per
encounter instance: eclipse.environment.setting_of), whatever the number of combatants or of
targets of the volley:

1. the sheets of the attacker and of every target, locked FOR UPDATE in one id-ordered
   statement (``eclipse.selectors.lock_sheets``: the GM's healing and a Moxie spent lock them
   too), skipped with ``lock=False``; then, read after the lock,
2. those sheets with their characters, campaign and current sleeves,
3. their carried weapons with their templates,
4. the armour worn over their sleeves with its templates;
5. the active effects borne by the attacker and the targets in this encounter (full defence,
   bracing, aiming, running, holds, a surprised defence owed), unless the caller names the
   ``flags`` it reads: then they are read in the sheets' statement (2.), as the attack
   (eclipse.attack.attack_flags) and the answer (eclipse.defence.answer_flags) do.

``Changes.write`` then stores what the volley changed, one statement per kind of row at most:
the sleeves (``bulk_update``), the Moxie pools (``bulk_update``), the jammed weapon, the
combatants put out of the fight, the new effects (``bulk_create``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Exists, OuterRef, Subquery

from eclipse.models import CarriedWeapon, EclipseSheet, EncounterSetting, Sleeve
from eclipse.selectors import Loaded, lock_sheets, params_of, rules_of, sheets_loaded
from encounters.models import Combatant, Encounter, EncounterEffect
from gamerules.eclipse_phase import manoeuvres
from gamerules.eclipse_phase.health import Health
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.encounter import clock
from gamerules.modifiers import Modifier

SLEEVE_FIELDS = ["damage", "wounds", "knocked_down", "stunned"]
ONE_G = Decimal("1.00")  # no EncounterSetting row: 1 g


@dataclass
class Changes:
    """What an attack changed, gathered in memory and written once (``write``)."""

    sleeves: dict[int, Sleeve] = field(default_factory=dict)
    sheets: dict[int, EclipseSheet] = field(default_factory=dict)
    weapons: dict[int, str] = field(default_factory=dict)  # carried weapon id -> state
    defeated: dict[int, Combatant] = field(default_factory=dict)
    effects: list[EncounterEffect] = field(default_factory=list)

    def write(self) -> None:
        """One statement per kind of row changed (none when nothing did)."""
        if self.sleeves:
            Sleeve.objects.bulk_update(list(self.sleeves.values()), SLEEVE_FIELDS)
        if self.sheets:
            EclipseSheet.objects.bulk_update(list(self.sheets.values()), ["moxie"])
        for state in sorted(set(self.weapons.values())):
            CarriedWeapon.objects.filter(
                pk__in=[pk for pk, s in self.weapons.items() if s == state]).update(state=state)
        if self.defeated:
            Combatant.objects.filter(pk__in=list(self.defeated)).update(defeated=True)
        if self.effects:
            EncounterEffect.objects.bulk_create(self.effects)


@dataclass
class AttackContext:
    """What an attack reads, loaded by ``attack_context``: the encounter (locked by the
    encounter's service), its parameters and gravity modifiers, the sheets by character id
    with their pure values (``loaded``), the active effects by bearer (combatant id), and the
    ``changes`` to write. ``health`` and ``moxie`` are kept up to date in memory as the volley
    goes from target to target."""

    encounter: Encounter
    params: EclipsePhaseParameters
    sheets: dict[int, EclipseSheet]
    loaded: dict[int, Loaded]
    effects: list[EncounterEffect]
    gravity: tuple[Modifier, ...]
    changes: Changes = field(default_factory=Changes)

    def of(self, combatant: Combatant) -> Loaded | None:
        return self.loaded.get(combatant.character_id or 0)

    def borne(self, combatant: Combatant, *names: str) -> list[EncounterEffect]:
        """The active effects of these ``names`` borne by ``combatant``."""
        return [f for f in self.effects if f.bearer_id == combatant.pk and f.name in names]

    def bears(self, combatant: Combatant, name: str) -> bool:
        return bool(self.borne(combatant, name))

    def health(self, character_id: int) -> Health:
        return self.loaded[character_id].health

    def moxie(self, character_id: int) -> int:
        return self.sheets[character_id].moxie

    def set_health(self, character_id: int, health: Health) -> None:
        """The sleeve's health after a hit, written by ``changes``."""
        loaded = self.loaded[character_id]
        sleeve = loaded.sheet.sleeve
        if sleeve is None or health == loaded.health:
            return
        sleeve.damage, sleeve.wounds = health.damage, health.wounds
        sleeve.knocked_down, sleeve.stunned = health.knocked_down, health.stunned
        self.loaded[character_id] = Loaded(loaded.sheet, loaded.character, health, loaded.mind,
                                           loaded.weapons)
        self.changes.sleeves[sleeve.pk] = sleeve

    def set_moxie(self, character_id: int, moxie: int) -> None:
        sheet = self.sheets[character_id]
        if moxie != sheet.moxie:
            sheet.moxie = moxie
            self.changes.sheets[sheet.pk] = sheet

    def jam(self, weapon_id: int, state: str) -> None:
        self.changes.weapons[weapon_id] = state

    def defeat(self, combatant: Combatant) -> None:
        if not combatant.defeated:
            combatant.defeated = True
            self.changes.defeated[combatant.pk] = combatant

    def add_effect(self, bearer: Combatant, anchor: Combatant, name: str, rounds: int) -> None:
        """A new effect (written with the changes), borne at once in memory."""
        e = self.encounter
        effect = EncounterEffect(
            encounter=e, name=name[:80], bearer=bearer, anchor=anchor, edge=clock.Edge.START,
            rounds=rounds, created_round=e.round,
            expires_round=clock.expires_round(e.round, rounds))
        self.effects.append(effect)
        self.changes.effects.append(effect)


def _gravity_g(encounter: Encounter) -> Subquery:
    return Subquery(EncounterSetting.objects.filter(encounter_id=encounter.pk)
                    .values("gravity")[:1])


def _borne(encounter: Encounter, name: str) -> Exists:
    return Exists(EncounterEffect.objects.filter(
        encounter_id=encounter.pk, bearer__encounter_id=encounter.pk,
        bearer__character_id=OuterRef("pk"), name=name, expired_round__isnull=True))


def attack_context(encounter: Encounter, actor: Combatant, targets: Iterable[Combatant], *,
                   lock: bool = True, flags: Sequence[str] = ()) -> AttackContext:
    """Load (and ``lock``) what an attack by ``actor`` on ``targets`` reads: the queries listed
    in the module's docstring; the encounter's gravity is read in the sheets' statement.
    ``flags``: the only effects the attack reads (by name), then read in the sheets'
    statement too, and the effects' own query is not run (the answer to a prompt: full
    defence, bracing, a hold, a surprised defence owed). Call it under the encounter's lock."""
    people: Sequence[Combatant] = [actor, *targets]
    ids = [c.character_id for c in people if c.character_id is not None]
    annotations: dict[str, Any] = {"ep_gravity": _gravity_g(encounter)}
    annotations.update({f"ep_flag_{i}": _borne(encounter, n) for i, n in enumerate(flags)})
    sheets = {s.pk: s for s in sheets_loaded(EclipseSheet.objects.filter(
        pk__in=lock_sheets(ids) if lock else ids).annotate(**annotations))}
    loaded = {pk: rules_of(s) for pk, s in sheets.items()}
    if flags:
        by_character = {c.character_id: c for c in people}
        effects = [EncounterEffect(encounter=encounter, name=n, bearer=by_character[pk])
                   for pk, s in sheets.items() for i, n in enumerate(flags)
                   if getattr(s, f"ep_flag_{i}") and pk in by_character]
    else:
        effects = list(EncounterEffect.objects.filter(
            encounter=encounter, bearer_id__in={c.pk for c in people},
            expired_round__isnull=True).order_by("pk"))
    params = params_of(encounter)
    g = next((s.ep_gravity for s in sheets.values()), None)
    gravity = manoeuvres.gravity_modifiers(g if g is not None else ONE_G, params)
    return AttackContext(encounter=encounter, params=params, sheets=sheets, loaded=loaded,
                         effects=effects, gravity=gravity)
