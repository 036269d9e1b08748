"""Casting spells on the board. Source: 000_afeb9d2c9ccd2b72.txt, "Utilisation de la magie",
"Contre de la magie"; rules in gamerules.ew1.magic; choices in docs/rules, "Magic"."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from campaigns.journal import record_action, roll_row
from campaigns.models import ActionRecord
from characters.equipment import loadout_of
from characters.models import Character, EternalWarSheet
from characters.progression import grant_xp
from characters.regeneration import sheet_refresh
from combat.actors import disincarnate, lock_sheet_set, require_able, spend_pa
from factions.bonus import are_allies, combat_bonus
from gamerules.dice import RandomSource
from gamerules.ew1 import errors
from gamerules.ew1.attacks import Combatant, damage_reduction
from gamerules.ew1.magic import (DAMAGE, HEAL, SHIELD, Bonus, CastOutcome, Piece, SpellSpec,
                                 effect_hours, heal_amount, in_range, resolve_cast,
                                 zone_targets)
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
    "Niveaux"), and, when the campaign's ``friendly_fire`` is 0, the caster's faction allies.
    Raises SpellUnknown, OffBoard, OutOfRange, InvalidTarget (nobody reached), TargetProtected
    (only protected characters reached), FriendlyFire (only allies, or allies and protected
    characters, reached with friendly fire off), CannotAct, NotEnoughPA, Forbidden,
    NotFound."""
    rng = rng or random.SystemRandom()
    now = now or timezone.now()
    # Read (without locks) the spell and the pieces where it may land, then lock the caster's
    # sheet and theirs in one id-ordered statement before anything changes: a cast racing an
    # attack or another cast waits, it cannot deadlock (issue 9). A piece arriving on the zone
    # between this read and the lock is not reached, as if it came just after the cast.
    known = (KnownSpell.objects.select_related("spell", "character__board")
             .filter(character__id=character_id, spell__id=spell_id).first())
    board = known.character.board if known else None
    reach = known.spell.zone_radius if known else 0
    around = list(Character.objects.filter(  # a cell off the board is refused below
        board_id=board.pk, x__range=(x - reach, x + reach), y__range=(y - reach, y + reach),
        ew1__isnull=False).annotate_faction()) if board and board.contains(x, y) else []
    # (a piece without a sheet is no target)
    sheet, locked = lock_sheet_set(user=user, character_id=character_id,
                                   others=[p.pk for p in around])
    caster = sheet.character
    params = caster.campaign.parameters
    sheet_refresh(sheet, params=params, now=now)
    require_able(sheet)
    if known is None:
        raise SpellUnknown("spell_not_known")
    spell = spec_of(known.spell)
    hours = effect_hours(spell, default_shield_hours=params.shield_duration_hours)
    if not caster.board.contains(x, y):
        raise errors.OffBoard()
    if not in_range(spell, caster=(caster.x, caster.y), cell=(x, y)):
        raise errors.OutOfRange("spell_out_of_range", reach=spell.range_cells)

    in_view = _with_view(caster, params)  # also sets the caster's faction_id_cached
    factions = {p.pk: p.faction_id_cached for p in around}
    around = [s.character for s in locked.values()  # where they stand now, under the lock
              if s.character.pk in factions and s.character.board_id == caster.board_id
              and max(abs(s.character.x - x), abs(s.character.y - y)) <= reach]
    for p in around:
        if p.pk != caster.pk:
            p.faction_id_cached = factions[p.pk]
    pieces = [Piece(p.pk, p.x, p.y, ally=_is_ally(caster, p)) for p in around]
    target_ids = zone_targets(spell, caster=Piece(caster.pk, caster.x, caster.y, True),
                              cell=(x, y), pieces=pieces)
    if not target_ids:
        raise errors.InvalidTarget("nobody_stands_where")
    if spell.effect == DAMAGE:
        # Seed, "Niveaux": a level 0 character is protected until its first action.
        protected = {p.pk for p in around if p.pk != caster.pk and p.is_protected}
        if set(target_ids) <= protected:
            raise errors.TargetProtected()
        # Friendly fire off: the caster's faction allies are spared too (docs/rules).
        spared = protected | ({p.pk for p in around if are_allies(caster, p)}
                              if not params.friendly_fire else set())
        if set(target_ids) <= spared:
            raise errors.FriendlyFire()
        target_ids = [t for t in target_ids if t not in spared]
    spend_pa(sheet, params.magic_cost_pa, now)

    bonus = combat_bonus(caster, in_view, params)
    test_bonuses = (Bonus(f"faction ({bonus.allies} allies)", bonus.magic),) if bonus.magic else ()
    outcome = resolve_cast(spell, magic_skill=sheet.skills["magic"], level=sheet.level, rng=rng,
                           level_step=params.spell_level_step, skill_step=params.spell_skill_step,
                           test_bonuses=test_bonuses)
    rolls = [roll_row(label="cast", roll=outcome.test, target_score=outcome.score,
                      success=outcome.success, modifiers=test_bonuses, actor=caster)]
    results: list[dict] = []
    if outcome.success:
        rolls.append(roll_row(label="spell_power", roll=outcome.power_roll, actor=caster,
                              modifiers=outcome.bonuses))
        results = _apply(spell, known.spell, outcome.power, caster, locked, target_ids, rng,
                         params, now, rolls, hours=hours)
    grant_xp(sheet, params.magic_xp if outcome.success else params.miss_xp, params)
    caster.save(update_fields=["first_action_at", "last_action_at", "kills", "board", "x", "y",
                               "deaths"])
    sheet.save()
    single = next((p for p in around if p.pk == target_ids[0]), None) if len(
        target_ids) == 1 else None
    action = record_action(
        campaign=caster.campaign, kind="cast", now=now, user=user, actor=caster,
        target=single, pa_spent=params.magic_cost_pa,
        rolls=rolls, summary={"spell": spell.name, "effect": spell.effect, "cell": [x, y],
                              "roll": outcome.test.total, "score": outcome.score,
                              "success": outcome.success, "power": outcome.power,
                              "targets": results,
                              "xp": params.magic_xp if outcome.success else params.miss_xp})
    return CastResult(action, outcome, results)


def _is_ally(caster: Character, piece: Character) -> bool:
    """The caster itself, one's own other characters, members of the caster's faction."""
    if piece.pk == caster.pk or (caster.owner_id and piece.owner_id == caster.owner_id):
        return True
    mine = getattr(caster, "faction_id_cached", None)  # set by _with_view
    return mine is not None and piece.faction_id_cached == mine


def _with_view(caster: Character, params) -> list[Character]:
    r = params.view_radius
    pieces = list(Character.objects.filter(
        board_id=caster.board_id, x__range=(caster.x - r, caster.x + r),
        y__range=(caster.y - r, caster.y + r)).annotate_faction())
    for p in pieces:
        if p.pk == caster.pk:
            caster.faction_id_cached = p.faction_id_cached
    return pieces


def _apply(spell: SpellSpec, model: Spell, power: int, caster: Character,
           sheets: dict[int, EternalWarSheet], target_ids: list[int], rng: RandomSource, params,
           now: datetime, rolls: list[dict], *, hours: int) -> list[dict]:
    """Apply a successful cast to every target (``sheets``: locked by ``lock_sheet_set``, by
    character id, with their equipped items; the caster's already refreshed); a shield holds
    ``hours`` hours."""
    shields = dict(ActiveEffect.objects.filter(target_id__in=target_ids, expires_at__gt=now)
                   .values("target_id").annotate(best=Max("amount")).values_list("target_id",
                                                                                  "best"))
    results = []
    for target_id in target_ids:
        target_sheet = sheets[target_id]
        target = target_sheet.character
        if target_id != caster.pk:
            sheet_refresh(target_sheet, params=params, now=now)
        entry = {"id": target_id, "name": target.name}
        if spell.effect == DAMAGE:
            loadout = loadout_of(target.equipped_items)
            defender = Combatant(
                characteristics=target_sheet.characteristics, skills=target_sheet.skills,
                level=target_sheet.level, armour=loadout.armour, modifiers=loadout.modifiers,
                fixed_reduction=target_sheet.fixed_reduction, shield=shields.get(target_id, 0))
            reduction, reduction_rolls = damage_reduction(defender, rng, params)
            rolls.extend(roll_row(label=r.label, roll=r.roll, target_score=r.target,
                                  success=r.success, actor=target) for r in reduction_rolls)
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
            ActiveEffect.objects.filter(target_id=target_id, spell=model).delete()
            ActiveEffect.objects.create(target_id=target_id, caster=caster, spell=model,
                                        amount=power,
                                        expires_at=now + timedelta(hours=hours))
            entry.update(shield=power, until=(now + timedelta(hours=hours)).isoformat())
        if target_id != caster.pk:
            target_sheet.save()
            target.save(update_fields=["board", "x", "y", "deaths"])
        results.append(entry)
    return results
