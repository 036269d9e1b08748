"""Template helpers of the encounter pages."""

import math

from django import template
from django.utils import timezone

register = template.Library()


@register.filter
def sheet_of(character, view):
    """The character's rule-system sheet (``view.spec.sheet_related_name``), or None."""
    name = getattr(view.spec, "sheet_related_name", "")
    return getattr(character, name, None) if character is not None and name else None


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
