"""Casting spells on the board. Source: 000_afeb9d2c9ccd2b72.txt, "Utilisation de la magie",
"Contre de la magie"; rules in gamerules.ew1.magic; choices in docs/rules, "Magic"."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from typing import Any

from django.db import transaction
from django.utils import timezone

from campaigns.journal import roll_row
from campaigns.models import ActionRecord
from characters.models import Character
from ew1.actors import disincarnate, require_able, spend_pa
from ew1.context import ActionContext, action_context, outcome_write
from ew1.progression import grant_xp
from ew1.bonus import are_allies, combat_bonus
from gamerules.dice import RandomSource
from gamerules.ew1 import errors
from gamerules.ew1.attacks import damage_reduction
from gamerules.ew1.magic import (DAMAGE, HEAL, SHIELD, Bonus, CastOutcome, Piece, SpellSpec,
                                 effect_hours, heal_amount, in_range, resolve_cast,
                                 zone_targets)
from gamerules.geometry import chebyshev
from magic.errors import SpellUnknown
from magic.models import ActiveEffect, KnownSpell, Spell


def spec_of(spell: Spell) -> SpellSpec:
    return SpellSpec(name=spell.name, effect=spell.effect, dice=spell.dice,
                     range_cells=spell.range_cells, zone_radius=spell.zone_radius,
                     reach=spell.reach, duration_hours=spell.duration_hours)


@dataclass(frozen=True)
class CastResult:
    action: ActionRecord
    outcome: CastOutcome
    targets: list[dict]


@transaction.atomic
def spell_cast(*, user, character_id: int, spell_id: int, x: int, y: int,
               rng: RandomSource | None = None, now: datetime | None = None) -> CastResult:
    """Cast a known spell on cell (x, y): ``magic_cost_pa`` (2 PA), a magic skill test with the
    faction magic bonus, then the effect on every piece reached (one target for radius 0, the
    zone otherwise): damage through each target's damage reduction (no dodge: spells cannot be
    countered), heal capped at max PV, shield for ``duration_hours`` (or the campaign's
    ``shield_duration_hours`` when the spell has none). XP ``magic_xp`` (10) on a
    success, ``miss_xp`` on a failure. A damage spell spares protected level 0 characters (seed,
    "Niveaux"), and, when the campaign's ``friendly_fire`` is off, the caster's faction allies.
    Raises SpellUnknown, OffBoard, OutOfRange, InvalidTarget (nobody reached), TargetProtected
    (only protected characters reached), FriendlyFire (only allies, or allies and protected
    characters, reached with friendly fire off), CannotAct, NotEnoughPA, Forbidden,
    NotFound."""
    rng = rng or random.SystemRandom()
    now = now or timezone.now()
    known, around, context = _read_and_lock(user=user, character_id=character_id,
                                            spell_id=spell_id, cell=(x, y), now=now)
    sheet, caster, params = context.actor, context.character, context.params
    board = require_able(sheet)
    if known is None:
        raise SpellUnknown("spell_not_known")
    reach = known.spell.zone_radius
    spell = spec_of(known.spell)
    hours = effect_hours(spell, default_shield_hours=params.shield_duration_hours)
    if not board.contains(x, y):
        raise errors.OffBoard()
    if not in_range(spell, caster=caster.cell, cell=(x, y)):
        raise errors.OutOfRange("spell_out_of_range", reach=spell.range_cells)
    zone = _zone(context, around, cell=(x, y), reach=reach)
    target_ids = _targets(context, spell, zone, cell=(x, y))
    spend_pa(sheet, params.magic_cost_pa, now)

    outcome, rolls = _roll_cast(context, spell, rng=rng)
    results: list[dict[str, Any]] = []
    if outcome.success:
        results = _apply(spell, known.spell, outcome.power, context, target_ids, rng=rng,
                         rolls=rolls, hours=hours)
    grant_xp(sheet, params.magic_xp if outcome.success else params.miss_xp, params)
    single = next((p for p in zone if p.pk == target_ids[0]), None) if len(
        target_ids) == 1 else None
    action = outcome_write(
        context=context, changed=target_ids if outcome.success else (),
        character_fields=CAST_CHARACTER_FIELDS, kind="cast", user=user, target=single,
        cost=params.magic_cost_pa,
        rolls=rolls, summary={"spell": spell.name, "effect": spell.effect, "cell": [x, y],
                              "roll": outcome.test.total, "score": outcome.score,
                              "success": outcome.success, "power": outcome.power,
                              "targets": results,
                              "xp": params.magic_xp if outcome.success else params.miss_xp})
    return CastResult(action, outcome, results)


def _read_and_lock(*, user, character_id: int, spell_id: int, cell: tuple[int, int],
                   now: datetime) -> tuple[KnownSpell | None, list[int], ActionContext]:
    """Read (without locks) the spell and the pieces where it may land, then lock the caster's
    sheet and theirs in one id-ordered statement before anything changes: a cast racing an
    attack or another cast waits, it cannot deadlock (issue 9). A piece arriving on the zone
    between this read and the lock is not reached, as if it came just after the cast.
    Returns the caster's known spell (None: not known), the ids of the pieces around ``cell``
    within the zone's radius and the action's context."""
    x, y = cell
    known = (KnownSpell.objects.select_related("spell", "character__board")
             .filter(character__id=character_id, spell__id=spell_id).first())
    board = known.character.board if known else None
    reach = known.spell.zone_radius if known else 0
    on_board = board is not None and board.contains(x, y)  # off the board: refused by the caller
    around = list(Character.objects.filter(
        board_id=board.pk, x__range=(x - reach, x + reach), y__range=(y - reach, y + reach),
        ew1__isnull=False).values_list("pk", flat=True)) if board and on_board else []
    # (a piece without a sheet is no target). A cell off the board widens no query: a huge
    # coordinate would overflow the database's integers.
    context = action_context(user=user, character_id=character_id, others=around,
                             cells=[(cell, reach)] if on_board else [], now=now)
    return known, around, context


def _roll_cast(context: ActionContext, spell: SpellSpec, *, rng: RandomSource
               ) -> tuple[CastOutcome, list[dict[str, Any]]]:
    """The magic skill test with the faction's magic bonus, and on a success the power roll:
    the outcome and its roll rows (the test's, then the power's)."""
    sheet, caster, params = context.actor, context.character, context.params
    bonus = combat_bonus(caster, context.pieces, params)
    test_bonuses = (Bonus(f"faction ({bonus.allies} allies)", bonus.magic),) if bonus.magic else ()
    outcome = resolve_cast(spell, magic_skill=sheet.skills["magic"], level=sheet.level, rng=rng,
                           level_step=params.spell_level_step, skill_step=params.spell_skill_step,
                           test_bonuses=test_bonuses)
    rolls = [roll_row(label="cast", roll=outcome.test, target_score=outcome.score,
                      grade=outcome.grade, modifiers=test_bonuses, actor=caster)]
    if outcome.success:
        assert outcome.power_roll is not None  # resolve_cast rolls the power on every success
        rolls.append(roll_row(label="spell_power", roll=outcome.power_roll, actor=caster,
                              modifiers=outcome.bonuses))
    return outcome, rolls


# What a cast may change on the caster (action times, kills, off the board if its own zone
# kills it) and on its targets (off the board, deaths).
CAST_CHARACTER_FIELDS = ["first_action_at", "last_action_at", "kills", "board", "x", "y",
                         "deaths"]


def _zone(context: ActionContext, around: list[int], *, cell: tuple[int, int], reach: int
          ) -> list[Character]:
    """The locked pieces read in the zone, where they stand now (under the lock)."""
    caster = context.character
    ids = set(around)
    return [s.character for s in context.sheets.values()
            if s.character.pk in ids and s.character.board_id == caster.board_id
            and chebyshev(s.character.cell, cell) <= reach]


def _targets(context: ActionContext, spell: SpellSpec, zone: list[Character], *,
             cell: tuple[int, int]) -> list[int]:
    """The ids the spell reaches (``zone_targets``), minus, for a damage spell, the protected
    level 0 characters and (friendly fire off) the caster's faction allies. Raises
    InvalidTarget, TargetProtected, FriendlyFire when nobody is left."""
    caster, params = context.character, context.params
    pieces = [Piece(p.pk, *p.cell, ally=_is_ally(caster, p)) for p in zone]
    target_ids = zone_targets(spell, caster=Piece(caster.pk, *caster.cell, True),
                              cell=cell, pieces=pieces)
    if not target_ids:
        raise errors.InvalidTarget("nobody_stands_where")
    if spell.effect == DAMAGE:
        # Seed, "Niveaux": a level 0 character is protected until its first action.
        protected = {p.pk for p in zone if p.pk != caster.pk and p.ew1.is_protected}
        if set(target_ids) <= protected:
            raise errors.TargetProtected()
        # Friendly fire off: the caster's faction allies are spared too (docs/rules).
        spared = protected | ({p.pk for p in zone if are_allies(caster, p)}
                              if not params.friendly_fire else set())
        if set(target_ids) <= spared:
            raise errors.FriendlyFire()
        target_ids = [t for t in target_ids if t not in spared]
    return target_ids


def _is_ally(caster: Character, piece: Character) -> bool:
    """The caster itself, one's own other characters, members of the caster's faction."""
    if piece.pk == caster.pk or (caster.owner_id and piece.owner_id == caster.owner_id):
        return True
    mine = caster.faction_id_cached  # set by action_context
    return mine is not None and piece.faction_id_cached == mine


def _apply(spell: SpellSpec, model: Spell, power: int, context: ActionContext,
           target_ids: list[int], *, rng: RandomSource, rolls: list[dict[str, Any]],
           hours: int) -> list[dict[str, Any]]:
    """Apply a successful cast to every target, in memory (``outcome_write`` stores the sheets
    and characters); a shield holds ``hours`` hours: the shields are replaced in two
    statements whatever the number of targets."""
    caster, params, now = context.character, context.params, context.now
    results: list[dict[str, Any]] = []
    for target_id in target_ids:
        target_sheet = context.sheets[target_id]
        target = target_sheet.character
        entry: dict[str, Any] = {"id": target_id, "name": target.name}
        if spell.effect == DAMAGE:
            reduction, reduction_rolls = damage_reduction(context.combatant(target_id), rng,
                                                          params)
            rolls.extend(roll_row(label=r.label, roll=r.roll, target_score=r.target,
                                  grade=r.grade, actor=target) for r in reduction_rolls)
            lost = max(0, power - reduction)
            target_sheet.pv -= lost
            entry.update(reduction=reduction, pv_lost=lost, pv=target_sheet.pv)
            if target_sheet.pv < 0:
                disincarnate(target, killer=caster)
                entry["disincarnated"] = True
        elif spell.effect == HEAL:
            healed = heal_amount(power, pv=target_sheet.pv, pv_max=target_sheet.pv_max)
            target_sheet.pv += healed
            entry.update(healed=healed, pv=target_sheet.pv)
        elif spell.effect == SHIELD:
            entry.update(shield=power, until=(now + timedelta(hours=hours)).isoformat())
        results.append(entry)
    if spell.effect == SHIELD:
        ActiveEffect.objects.filter(target_id__in=target_ids, spell=model).delete()
        ActiveEffect.objects.bulk_create(
            ActiveEffect(target_id=t, caster=caster, spell=model, amount=power,
                         expires_at=now + timedelta(hours=hours)) for t in target_ids)
    return results
