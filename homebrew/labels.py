"""Translated names for the codes the homebrew d100 stores (roll labels, modifiers, postures,
rests, critical failure effects, why a reaction is not possible): its
``RuleSystemSpec.labels``, read through campaigns.labels and homebrew.templatetags.
homebrew_journal, and the creation page's and its refusals' names of the characteristics
(problem_text). The sub-characteristics are named in the reader's language (the seed's French
names in French: Force, Dextérité, Sens, Éther, Esprit), as the sheet names them; the main
three and Intelligence are the same words in both."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_lazy as _, pgettext_lazy

from gamerules.homebrew.characteristics import PROBLEMS, SUBS, CharacteristicsError, Problem

CHARACTERISTICS: dict[str, Any] = {
    "physique": "Physique", "perception": "Perception", "mental": "Mental",
    "force": pgettext_lazy("characteristic", "Strength"),
    "dexterite": pgettext_lazy("characteristic", "Dexterity"),
    "sens": pgettext_lazy("characteristic", "Senses"),
    "ether": pgettext_lazy("characteristic", "Ether"),
    "esprit": pgettext_lazy("characteristic", "Spirit"),
    "intelligence": "Intelligence"}

ROLLS = {**CHARACTERISTICS, "damage": pgettext_lazy("roll", "damage"),
         "initiative": pgettext_lazy("roll", "initiative")}

# The modifiers' sources (gamerules.homebrew.checks); an assist's label names its helper.
MODIFIERS = {"gm": pgettext_lazy("modifier", "difficulty"),
             "difficulty": pgettext_lazy("modifier", "difficulty"),
             "assist": pgettext_lazy("modifier", "assist")}
MODIFIER_PATTERNS = {r"assist: (?P<name>.+)": pgettext_lazy("modifier", "assist: %(name)s")}

POSTURES = {"offensive": pgettext_lazy("posture", "offensive"),
            "defensive": pgettext_lazy("posture", "defensive")}
RESTS = {"short": _("short rest"), "medium": _("medium rest"), "long": _("long rest")}
REACTIONS = {"none": _("no reaction"), "parry": _("parry"), "dodge": _("dodge")}
HEALTH = {"standing": _("standing"), "unconscious": _("unconscious"), "dead": _("dead")}

# The critical failure effects (gamerules.homebrew.fumbles.FUMBLE_EFFECTS, by code); the
# malus, the GM's to set, is the journal's.
FUMBLES = {
    "ridiculous": _("Ridiculous failure (no other effect)"),
    "off_balance": _("Off balance: a malus on the next test"),
    "drop_weapon": _("Weapon dropped: a short action to pick it up"),
    "exposed": _("Exposed: no parry or dodge until the next turn"),
    "lose_next_action": _("Loses the next action"),
    "self_hit": _("Hurts oneself: takes the weapon's damage die"),
    "hit_ally": _("Hits a nearby ally: the weapon's damage die to an ally"),
    "custom": _("the game master's effect"),
}

# Why the target could not parry or dodge (gamerules.homebrew.reactions.refusal_for codes, and
# "target_down"), said of the target named %(name)s.
WHY_NOT = {
    "attack_missed": _("the attack missed"),
    "surprised": _("%(name)s is surprised in its first turn"),
    "needs_defensive_posture": _("%(name)s is in offensive posture"),
    "parry_against_magic": _("a magical attack cannot be parried"),
    "no_more_dodges": _("%(name)s failed a dodge this round"),
    "dodge_for_ally": _("one dodges only attacks aimed at oneself"),
    "target_down": _("%(name)s is down"),
}

KINDS: dict[str, Mapping[str, Any]] = {"roll": ROLLS, "modifier": MODIFIERS,
                                       "modifier_patterns": MODIFIER_PATTERNS}


def problem_text(problem: Problem, translate=gettext) -> str:
    """One creation problem in the reader's language, the characteristics it names with
    CHARACTERISTICS (the rules name them with the seed's French words): its field's label,
    and the field's two subs for a shared budget ("sub_points")."""
    words = dict(problem.words)
    if "label" in words and problem.field in CHARACTERISTICS:
        words["label"] = CHARACTERISTICS[problem.field]
    if "first" in words and problem.field in SUBS:
        words["first"], words["second"] = (CHARACTERISTICS[s] for s in SUBS[problem.field])
    return translate(PROBLEMS[problem.key or problem.code]) % {**problem.params, **words}


def problems_text(exc: CharacteristicsError) -> str:
    """Every problem of ``exc`` (problem_text), joined."""
    return "; ".join(problem_text(p) for p in exc.problems)
