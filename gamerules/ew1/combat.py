"""Eternal War One II brawl attack (kept as the short name of ``attacks.resolve_attack`` with
kind "brawl"). Source: 000_afeb9d2c9ccd2b72.txt, "Attaque Bagarre"."""

from __future__ import annotations

from gamerules.dice import RandomSource
from gamerules.ew1.attacks import (BASE_DAMAGE, BRAWL, AttackOutcome, Combatant, LabelledRoll,
                                   Modifier, base_damage_dice, resolve_attack)
from gamerules.ew1.params import EW1Parameters

__all__ = ["BASE_DAMAGE", "AttackOutcome", "Combatant", "LabelledRoll", "Modifier",
           "base_damage_dice", "resolve_brawl"]


def resolve_brawl(attacker: Combatant, defender: Combatant, rng: RandomSource,
                  params: EW1Parameters, *, attack_modifiers: tuple[Modifier, ...] = (),
                  dodge_modifiers: tuple[Modifier, ...] = ()) -> AttackOutcome:
    """Resolve a brawl (Bagarre) attack: d100 <= Bagarre + modifiers hits, then dodge, damage
    (base damage + 1d4, +1d3 if perfect), reduction and XP as in ``attacks.resolve_attack``."""
    return resolve_attack(BRAWL, attacker, defender, rng, params,
                          attack_modifiers_extra=attack_modifiers,
                          dodge_modifiers=dodge_modifiers)
