"""Template helpers of the encounter pages."""

import math

from django import template
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from campaigns import charts
from campaigns.models import RollGrade

register = template.Library()


@register.filter
def sheet_of(character, view):
    """The character's rule-system sheet (``view.spec.sheet_related_name``), or None."""
    name = getattr(view.spec, "sheet_related_name", "")
    return getattr(character, name, None) if character is not None and name else None


@register.filter
def glance_of(combatant, view):
    """What ``view``'s viewer reads of ``combatant``'s state (encounters.glance.Glance), or
    None."""
    return view.glances.get(combatant.pk)


@register.filter
def option_label(key, view):
    """A reaction option's label from the rule system's ``action_labels``."""
    return view.label(key)


@register.filter
def seconds_until(moment):
    """Whole seconds (rounded up, at least 1) from now until ``moment``, or "" without one: the
    delay after which a page fetches itself again so that a prompt past its deadline is
    defaulted on time (views._poll) even while no step is pushed."""
    if moment is None:
        return ""
    return max(1, math.ceil((moment - timezone.now()).total_seconds()))


@register.filter
def prompt_of(reaction, view):
    """What ``reaction`` says of its attack (encounters.hooks.PromptDetails), or None."""
    return view.prompts.get(reaction.pk)


@register.filter
def defence_of(details, key):
    """The DefenceOdds of the answer ``key`` in ``details`` (a PromptDetails), or None."""
    if details is None:
        return None
    return next((d for d in details.defences if d.key == key), None)


@register.filter
def percent_text(chance):
    """A chance (a Fraction) in percent with one decimal, as the odds' tables write it."""
    return charts.percent(chance)


@register.filter
def grade_label(code):
    """A d100 grade's label in the reader's language (campaigns.models.RollGrade)."""
    try:
        return RollGrade(code).label
    except ValueError:
        return code


@register.simple_tag
def chance_bar(chance):
    """A chance drawn as a bar (inline SVG, classes for the colours: no style attribute, the
    Content-Security-Policy allows none): the part that succeeds, on the rest's ground."""
    width = f"{float(chance) * charts.WIDTH:.3f}"
    label = escape(gettext("%(p)s %% to succeed") % {"p": charts.percent(chance)})
    return mark_safe(  # the label escaped, the rest numbers
        '<svg class="odds-chart odds-bar chance-bar" viewBox="0 0 100 6" '
        f'preserveAspectRatio="none" role="img" aria-label="{label}" data-testid="chance-bar">'
        f'<rect class="odds-defended" x="0" y="0" width="{width}" height="6"></rect></svg>')
