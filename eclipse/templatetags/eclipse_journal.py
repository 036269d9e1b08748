"""``{% load eclipse_journal %}``: the Eclipse Phase journal's stored codes shown by their
translated names (templates/eclipse/registry/_log_entry.html and its partials). The journal keeps
stable English codes and labels (tests, API); these filters name them in the reader's language
from tables keyed by code (the modifier's ``source``, the test's label as the rules give it),
never by matching free text. An unknown code shows as stored. No query."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext, gettext_lazy as _, pgettext_lazy

from campaigns import rule_systems
from campaigns.models import RollGrade
from eclipse.models import BlastKind
from eclipse.play import AIM_COMPLEX, AIM_QUICK
from gamerules.eclipse_phase.situations import BY_CODE

register = template.Library()

BANDS = {"point_blank": _("point blank"), "short": _("short"), "medium": _("medium"),
         "long": _("long"), "extreme": _("extreme")}
PACES = {"walk": pgettext_lazy("pace", "walking"), "run": pgettext_lazy("pace", "running")}
CONDITIONS = {"active": _("active"), "unconscious": _("unconscious"), "dead": _("dead"),
              "destroyed": _("destroyed")}
MISHAPS = {"damaged": _("damaged"), "jammed": _("jammed"), "destroyed": _("destroyed")}
ACTIONS = {"full_defence": _("full defence"), "brace": _("waits for a charge"),
           "aim": _("aims"), "stand_up": _("stands up"), "escape": _("escapes a hold"),
           "reload": _("reloads"), "move": _("moves")}
COSTS = {"quick": _("quick"), "complex": _("complex"), "automatic": _("automatic")}
SPARED = {"cover": _("in cover"), "full_defence": _("in full defence")}
# The modifiers' sources the rules write (gamerules.eclipse_phase), besides the table rows
# ("situation:<code>", named by the row).
SOURCES = {"wounds": _("wounds"), "traumas": _("traumas"), "margin": _("margin of success"),
           "full_defence": _("full defence"), "charge": _("charge"),
           "som": _("SOM damage bonus"), "gm": _("difficulty"), "movement": _("running"),
           "subdue": _("escape"), "surprise": _("surprised")}
# The tests' labels the rules write; a skill's code stays as the sheet shows it.
TESTS = {"dodge": _("dodge"), "dodge/2": _("dodge/2"),
         "SOMx3 against knockdown": _("SOMx3 against knockdown"),
         "SOMx3 against stun": _("SOMx3 against stun"),
         "SOMx3 to keep the weapon": _("SOMx3 to keep the weapon"),
         "SOMx3 to escape": _("SOMx3 to escape"), "unarmed combat": _("unarmed combat"),
         "perception (blind fire)": _("perception (blind fire)")}


# The skills' codes (gamerules.eclipse_phase.sheet.SKILL_APTITUDES), by their names.
SKILLS = {"fray": _("Fray"), "blades": _("Blades"), "clubs": _("Clubs"),
          "unarmed_combat": _("Unarmed combat"), "beam_weapons": _("Beam weapons"),
          "kinetic_weapons": _("Kinetic weapons"), "seeker_weapons": _("Seeker weapons"),
          "spray_weapons": _("Spray weapons"), "throwing_weapons": _("Throwing weapons"),
          "gunnery": _("Gunnery"), "perception": _("Perception"),
          "infiltration": _("Infiltration"), "freerunning": _("Freerunning"),
          "freefall": _("Freefall"), "climbing": _("Climbing"), "psi_assault": _("Psi assault"),
          "medicine": _("Medicine"), "psychosurgery": _("Psychosurgery")}


# The play's effect names (constants of eclipse.play: codes, not free text).
EFFECTS = {AIM_QUICK: _("Aimed (+10)"), AIM_COMPLEX: _("Aimed (+30)")}


def _named(table, code) -> str:
    name = table.get(code)
    return str(name) if name is not None else str(code if code is not None else "")


@register.filter
def ep_band(code):
    return _named(BANDS, code)


@register.filter
def ep_blast(code):
    return _named(dict(BlastKind.choices), code)


@register.filter
def ep_effect(name):
    return _named(EFFECTS, name)


@register.filter
def ep_pace(code):
    return _named(PACES, code)


@register.filter
def ep_condition(code):
    return _named(CONDITIONS, code)


@register.filter
def ep_mishap(code):
    return _named(MISHAPS, code)


@register.filter
def ep_action(code):
    return _named(ACTIONS, code)


@register.filter
def ep_cost(code):
    return _named(COSTS, code)


@register.filter
def ep_spared(code):
    return _named(SPARED, code)


@register.filter
def ep_grade(code):
    return _named(dict(RollGrade.choices), code)


@register.filter
def ep_skill(code):
    """A skill's name from its code ("kinetic_weapons" -> "Kinetic weapons"); others as is."""
    return _named(SKILLS, code)


@register.filter
def ep_test(label):
    """A test's label by its name: the rules' own labels, a skill's code, and a skill with
    what follows it ("kinetic_weapons (Moxie flip 45 -> 54)")."""
    if label in TESTS:
        return _named(TESTS, label)
    head, sep, rest = str(label or "").partition(" (")
    return f"{_named(SKILLS, head)}{sep}{rest}" if head in SKILLS else _named(TESTS, label)


@register.filter
def ep_modifier(m):
    """A stored modifier ({"label", "value", "source"}) as "name +n"."""
    source = str(m.get("source") or "")
    if source.startswith("situation:") and source[10:] in BY_CODE:
        name = gettext(BY_CODE[source[10:]].label)
    elif source in SOURCES:
        name = str(SOURCES[source])
    else:
        name = str(m.get("label") or source)
    value = int(m.get("value") or 0)
    return f"{name} {value:+d}"


@register.filter
def ep_choice(code):
    """A defence answer ("dodge", "melee:blades+moxie"...) by the labels the play registers."""
    spec = rule_systems.get("eclipse_phase")
    name = spec.action_labels.get(code) if spec is not None and code else None
    return str(name) if name is not None else str(code or "")
