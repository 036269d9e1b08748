"""The context of a homebrew attack or reaction, loaded once; and the one write of its outcome.

As ``ew1/context.py``: the service loads what the rules read with ``attack_context`` (or
``reaction_context``), checks in memory, calls the pure rules (gamerules.homebrew.action) on
the ``Fighter`` values of the locked sheets, hands the fighters they return back to
``AttackContext.keep`` and stores everything with ``AttackContext.write``.

``attack_context`` runs TWO queries, whatever the number of allies who may parry:

1. the sheets of the actor, the target and every ally named, with their characters and
   campaign, locked FOR UPDATE in one id-ordered statement (no deadlock between two attacks);
2. the actor's equipped weapon or spell (none: ``weapon`` is None).

``reaction_context`` runs ONE: the sheets of the target and of the ally who parries for it.

``write`` runs ONE UPDATE of every sheet whose numbers changed (hp, mp, health,
dodge_lost_round: the sheets are locked, nothing else changes them meanwhile; none when the
rules changed nothing, a dodge that avoided everything), plus one INSERT of the permanent injuries when
there are any. The DeclaredAttack and the journal are the caller's (one INSERT each).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from campaigns.errors import NotFound
from gamerules.homebrew.action import Fighter
from gamerules.homebrew.attack import AttackKind, Weapon
from gamerules.homebrew.health import HealthState
from gamerules.homebrew.orders import PendingAttack, result_from_record
from gamerules.homebrew.params import HomebrewParameters
from gamerules.homebrew.reactions import Reactor
from gamerules.homebrew.turn import Posture
from homebrew.models import DeclaredAttack, HomebrewSheet, PermanentInjury, WeaponTemplate

WRITTEN = ["hp", "mp", "health", "dodge_lost_round"]


def fighter_of(sheet: HomebrewSheet) -> Fighter:
    """The rules' view of a sheet (its character loaded)."""
    return Fighter(id=sheet.pk, physique=sheet.physique, mental=sheet.mental, force=sheet.force,
                   dexterite=sheet.dexterite, hp=sheet.hp, hp_max=sheet.hp_max, mp=sheet.mp,
                   posture=Posture(sheet.posture), health=HealthState(sheet.health),
                   enemy=not sheet.character.is_player, spared=sheet.spared,
                   dodge_lost_round=sheet.dodge_lost_round)


def reactor_of(sheet: HomebrewSheet, round_key: str) -> Reactor:
    """The rules' view of a sheet reacting in the round ``round_key`` (no query: the odds)."""
    return Reactor(force=sheet.force, dexterite=sheet.dexterite,
                   posture=Posture(sheet.posture), can_dodge=sheet.can_dodge(round_key))


def rule_weapon(weapon: WeaponTemplate) -> Weapon:
    return Weapon(weapon.name, weapon.die, AttackKind(weapon.kind), weapon.mp_cost)


def locked_sheets(ids: Iterable[int]) -> dict[int, HomebrewSheet]:
    """The sheets of ``ids``, locked in id order, with their characters and campaigns: one
    query."""
    rows = (HomebrewSheet.objects.select_for_update(of=("self",))
            .select_related("character__campaign").filter(pk__in=set(ids)).order_by("pk"))
    return {s.pk: s for s in rows}


@dataclass
class AttackContext:
    """The locked sheets by character id, the actor's weapon (attacks), and what the rules
    changed, kept until ``write``."""

    sheets: Mapping[int, HomebrewSheet]
    now: datetime
    weapon: WeaponTemplate | None = None
    changed: dict[int, Fighter] = field(default_factory=dict)
    dirty: set[int] = field(default_factory=set)  # the sheets whose numbers changed
    injuries: list[PermanentInjury] = field(default_factory=list)

    def sheet(self, character_id: int) -> HomebrewSheet:
        """A locked sheet. Raises NotFound when it is not there."""
        try:
            return self.sheets[character_id]
        except KeyError:
            raise NotFound("no_such_character") from None

    def fighter(self, character_id: int) -> Fighter:
        """A fighter as the rules last left it (the sheet's numbers before any change)."""
        return self.changed.get(character_id) or fighter_of(self.sheet(character_id))

    def keep(self, fighter: Fighter, *, injury: str = "", round_key: str = "") -> None:
        """Take ``fighter``'s numbers onto its sheet (in memory) for ``write``; ``injury``: the
        cause of a permanent injury it took."""
        sheet = self.sheet(fighter.id)
        numbers = (fighter.hp, fighter.mp, fighter.health.value, fighter.dodge_lost_round)
        if numbers != tuple(getattr(sheet, f) for f in WRITTEN):
            sheet.hp, sheet.mp, sheet.health, sheet.dodge_lost_round = numbers
            self.dirty.add(fighter.id)
        self.changed[fighter.id] = fighter
        if injury:
            self.injuries.append(PermanentInjury(sheet=sheet, description=injury,
                                                 round_key=round_key, created_at=self.now))

    def write(self) -> None:
        """The sheets whose numbers changed in one UPDATE, the injuries in one INSERT (none:
        no query; a dodge that left everything as it was writes no sheet)."""
        if self.dirty:
            HomebrewSheet.objects.bulk_update([self.sheets[i] for i in sorted(self.dirty)],
                                              WRITTEN)
        if self.injuries:
            PermanentInjury.objects.bulk_create(self.injuries)

    def params(self, character_id: int) -> HomebrewParameters:
        return self.sheet(character_id).character.campaign.parameters


def attack_context(*, actor_id: int, target_id: int, protector_ids: Iterable[int] = (),
                   weapon_id: int, now: datetime) -> AttackContext:
    """Lock and load an attack's sheets and the actor's weapon ``weapon_id`` if equipped (two
    queries)."""
    sheets = locked_sheets([actor_id, target_id, *protector_ids])
    weapon = WeaponTemplate.objects.filter(pk=weapon_id, wielders=actor_id).first()
    return AttackContext(sheets=sheets, now=now, weapon=weapon)


def reaction_context(*, target_id: int, reactor_id: int, now: datetime) -> AttackContext:
    """Lock and load the sheets of a reaction's target and reactor (one query)."""
    return AttackContext(sheets=locked_sheets({target_id, reactor_id}), now=now)


def pending_of(declared: DeclaredAttack) -> PendingAttack:
    """The typed pending attack of a stored DeclaredAttack (gamerules.homebrew.orders)."""
    return PendingAttack(
        attack=declared.pk, description=declared.description, actor=declared.actor_id,
        target=declared.target_id, round_key=declared.round_key,
        result=result_from_record(
            weapon_name=declared.weapon_name, die=declared.die, kind=declared.kind,
            posture=declared.posture, test=declared.test,
            damage_expression=declared.damage_expression, damage_face=declared.damage_face,
            damage=declared.damage, max_damage=declared.max_damage,
            multiplier=declared.multiplier),
        reactions=tuple(declared.reactions), protectors=tuple(declared.protectors))
