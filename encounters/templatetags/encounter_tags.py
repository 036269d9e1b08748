"""Template helpers of the encounter pages."""

from django import template

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
