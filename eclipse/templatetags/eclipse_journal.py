"""``{% load eclipse_journal %}``: the Eclipse Phase journal's stored codes shown by their
translated names (templates/eclipse/registry/_log_entry.html and its partials). The journal keeps
stable English codes and labels (tests, API); these filters name them in the reader's language
from tables keyed by code (the modifier's ``source``, the test's label as the rules give it),
never by matching free text. An unknown code shows as stored. No query."""

from __future__ import annotations

import re

from django import template
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from campaigns import rule_systems
from campaigns.labels import modifier_name
from campaigns.models import RollGrade
from eclipse.acting import AIM_COMPLEX, AIM_QUICK
from eclipse.labels import SKILLS, TEST_PATTERNS, TESTS
from eclipse.models import BlastKind

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
# The play's effect names (constants of eclipse.acting: codes, not free text), with the
# campaign's bonus.
EFFECTS = {AIM_QUICK: (_("Aimed (+%(n)s)"), "aim_quick_bonus"),
           AIM_COMPLEX: (_("Aimed (+%(n)s)"), "aim_complex_bonus")}


def _named(table, code) -> str:
    name = table.get(code)
    return str(name) if name is not None else str(code if code is not None else "")


@register.filter
def ep_band(code):
    return _named(BANDS, code)


@register.filter
def ep_blast(code, params=None):
    """An explosive's blast by its name; a plain blast with the campaign's DV lost per metre
    (``params``: its EclipsePhaseParameters; the defaults without)."""
    if code == BlastKind.BLAST:
        n = params.blast_dv_per_m if params is not None else _default_params().blast_dv_per_m
        return str(_("Blast (-%(n)s DV per metre)")) % {"n": n}
    return _named(dict(BlastKind.choices), code)


def _default_params():
    from gamerules.eclipse_phase.params import EclipsePhaseParameters
    return EclipsePhaseParameters()


@register.filter
def ep_effect(name, params=None):
    """An effect's name with the campaign's bonus (``params``: its EclipsePhaseParameters)."""
    found = EFFECTS.get(name)
    if found is None:
        return str(name or "")
    text, parameter = found
    return str(text) % {"n": getattr(params if params is not None else _default_params(),
                                      parameter)}


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
    for pattern, template_ in TEST_PATTERNS.items():  # an aptitude times the campaign's number
        found = re.fullmatch(pattern, str(label or ""))
        if found is not None:
            return str(template_) % found.groupdict()
    head, sep, rest = str(label or "").partition(" (")
    return f"{_named(SKILLS, head)}{sep}{rest}" if head in SKILLS else _named(TESTS, label)


@register.filter
def ep_modifier(m):
    """A stored modifier ({"label", "value", "source"}) as "name +n" (its name by
    campaigns.labels.modifier_name: eclipse.labels names the sources and the table rows)."""
    value = int(m.get("value") or 0)
    return f"{modifier_name(m)} {value:+d}"


@register.filter
def ep_choice(code):
    """A defence answer ("dodge", "melee:blades+moxie"...) by the labels the play registers."""
    spec = rule_systems.get("eclipse_phase")
    name = spec.action_labels.get(code) if spec is not None and code else None
    return str(name) if name is not None else str(code or "")
