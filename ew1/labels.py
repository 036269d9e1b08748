"""Translated names for the codes Eternal War One II stores (skills, roll labels, damage
reduction terms): its ``RuleSystemSpec.labels``, read through campaigns.labels."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

SKILLS = {
    "brawl": pgettext_lazy("skill", "Brawl"),
    "melee": pgettext_lazy("skill", "Melee weapon"),
    "ranged": pgettext_lazy("skill", "Ranged weapon"),
    "magic": pgettext_lazy("skill", "Magic"),
    "dodge": pgettext_lazy("skill", "Dodge"),
    "throw": pgettext_lazy("skill", "Throw"),
    "game": pgettext_lazy("skill", "Game"),
}

ROLLS = {
    "attack": pgettext_lazy("roll", "attack"),
    "dodge": pgettext_lazy("roll", "dodge"),
    "base_damage": pgettext_lazy("roll", "base damage"),
    "brawl_damage": pgettext_lazy("roll", "brawl damage"),
    "perfect_damage": pgettext_lazy("roll", "perfect attack damage"),
    "damage_reduction": pgettext_lazy("roll", "damage reduction"),
    "weapon_damage": pgettext_lazy("roll", "weapon damage"),
    "throw_damage": pgettext_lazy("roll", "throw damage"),
    "game": pgettext_lazy("roll", "game"),
    "game_xp": pgettext_lazy("roll", "game XP"),
    "heal": pgettext_lazy("roll", "healing"),
    "cast": pgettext_lazy("roll", "casting"),
    "spell_power": pgettext_lazy("roll", "spell power"),
}

# The modifiers' sources (gamerules.ew1.attacks, gamerules.ew1.magic, the board's and magic's
# faction and own-characters modifiers); a characteristic's code (FOR, DEX, LUK) stays.
MODIFIERS = {
    "weapon skill (ca)": pgettext_lazy("modifier", "weapon skill (ca)"),
    "distance": pgettext_lazy("modifier", "distance"),
    "own characters in view": pgettext_lazy("modifier", "own characters in view"),
    "magic skill": pgettext_lazy("modifier", "magic skill"),
    "level": pgettext_lazy("modifier", "level"),
}
MODIFIER_PATTERNS = {
    r"faction \((?P<n>\d+) allies\)": pgettext_lazy("modifier", "faction (%(n)s allies)"),
    r"items (?P<stat>[A-Z]{3})": pgettext_lazy("modifier", "items %(stat)s"),
}

# The terms of a damage reduction (gamerules.ew1.attacks.reduction_breakdown).
REDUCTION_TERMS = {
    "base": pgettext_lazy("reduction", "base"),
    "rolls_won": pgettext_lazy("reduction", "DEF rolls won"),
    "armour": pgettext_lazy("reduction", "armour"),
    "shield": pgettext_lazy("reduction", "shield"),
    "fixed": pgettext_lazy("reduction", "fixed"),
}

KINDS = {"skill": SKILLS, "roll": ROLLS, "reduction": REDUCTION_TERMS, "modifier": MODIFIERS,
         "modifier_patterns": MODIFIER_PATTERNS}
