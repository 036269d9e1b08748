"""Translated names for the codes Eclipse Phase stores (skills, tests, roll labels, the
modifiers' sources): its ``RuleSystemSpec.labels``, read through campaigns.labels (the rolls'
details every journal shows) and eclipse.templatetags.eclipse_journal. The journal keeps stable
English codes and labels (tests, API); these tables name them in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _, pgettext_lazy

from gamerules.eclipse_phase.situations import BY_CODE

# The skills' codes (gamerules.eclipse_phase.sheet.SKILL_APTITUDES), by their names.
SKILLS = {"fray": _("Fray"), "blades": _("Blades"), "clubs": _("Clubs"),
          "unarmed_combat": _("Unarmed combat"), "beam_weapons": _("Beam weapons"),
          "kinetic_weapons": _("Kinetic weapons"), "seeker_weapons": _("Seeker weapons"),
          "spray_weapons": _("Spray weapons"), "throwing_weapons": _("Throwing weapons"),
          "gunnery": _("Gunnery"), "perception": _("Perception"),
          "infiltration": _("Infiltration"), "freerunning": _("Freerunning"),
          "freefall": _("Freefall"), "climbing": _("Climbing"), "psi_assault": _("Psi assault"),
          "medicine": _("Medicine"), "psychosurgery": _("Psychosurgery"),
          "control": _("Control"), "sense": _("Sense"), "demolitions": _("Demolitions"),
          "infosec": _("Infosec"), "programming": _("Programming")}

# The tests' labels the rules write; a skill's code stays as the sheet shows it.
TESTS = {"dodge": _("dodge"), "unarmed combat": _("unarmed combat"),
         "perception (blind fire)": _("perception (blind fire)")}
# The tests on an aptitude times a campaign parameter ("SOMx3 against knockdown" with the
# seed's multiplier; gamerules.eclipse_phase writes the campaign's): named with the multiplier
# the label carries, so a label stays true whatever the campaign sets.
TEST_PATTERNS = {
    r"SOMx(?P<x>\d+) against knockdown": _("SOMx%(x)s against knockdown"),
    r"SOMx(?P<x>\d+) against stun": _("SOMx%(x)s against stun"),
    r"SOMx(?P<x>\d+) to keep the weapon": _("SOMx%(x)s to keep the weapon"),
    r"SOMx(?P<x>\d+) to escape": _("SOMx%(x)s to escape"),
    r"WILx(?P<x>\d+) against stress": _("WILx%(x)s against stress"),
    r"WILx(?P<x>\d+) against psi": _("WILx%(x)s against psi"),
    r"dodge/(?P<x>\d+)": _("dodge/%(x)s")}  # against a ranged attack: ranged_dodge_divisor

# The other rolls' labels (eclipse.defence, eclipse.blasts, eclipse.actions, eclipse.services,
# eclipse.encounter).
ROLLS = {**SKILLS, **TESTS, "damage": pgettext_lazy("roll", "damage"),
         "initiative": pgettext_lazy("roll", "initiative"),
         "explosion": pgettext_lazy("roll", "explosion"),
         "cone": pgettext_lazy("roll", "cone's targets"),
         "stress value": pgettext_lazy("roll", "stress value")}
# A test flipped with Moxie (eclipse.defence.test_row).
ROLL_PATTERNS = {**TEST_PATTERNS,
                 r"(?P<code>.+) \(Moxie flip (?P<a>\d+) -> (?P<b>\d+)\)":
                 pgettext_lazy("roll", "%(code)s (Moxie flip %(a)s → %(b)s)")}

# The modifiers' sources the rules write (gamerules.eclipse_phase), and the table rows
# ("situation:<code>", named by the row).
SOURCES = {"wounds": _("wounds"), "traumas": _("traumas"), "margin": _("margin of success"),
           "full_defence": _("full defence"), "charge": _("charge"),
           "som": _("SOM damage bonus"), "gm": _("difficulty"), "movement": _("running"),
           "subdue": _("escape"), "surprise": _("surprised"),
           "pain_filter": _("wounds (pain filter: one ignored)"),
           "initiative_base": pgettext_lazy("modifier", "initiative base"),
           "gravity": pgettext_lazy("modifier", "high gravity")}
MODIFIERS = {**SOURCES, **{f"situation:{code}": _(row.label) for code, row in BY_CODE.items()},
             # by their labels (gamerules.eclipse_phase.firing): the source is "firing_mode"
             "concentrated burst": pgettext_lazy("modifier", "concentrated burst"),
             "concentrated full auto": pgettext_lazy("modifier", "concentrated full auto")}
# Labels made of parts (gamerules.eclipse_phase.manoeuvres).
MODIFIER_PATTERNS = {
    r"(?P<n>\d+) weapons": pgettext_lazy("modifier", "%(n)s weapons"),
    r"high gravity (?P<g>[0-9.]+) g \((?P<n>\d+) wound malus\)":
        pgettext_lazy("modifier", "high gravity %(g)s g (%(n)s wound malus)")}

KINDS = {"skill": SKILLS, "roll": ROLLS, "roll_patterns": ROLL_PATTERNS, "modifier": MODIFIERS,
         "modifier_patterns": MODIFIER_PATTERNS}
