"""Template helpers of the homebrew actions on the encounter page."""

from django import template

from homebrew.play import round_key
from homebrew.selectors import turn_options

register = template.Library()


@register.simple_tag
def homebrew_turn(view, me):
    """homebrew.selectors.TurnOptions of ``me`` in ``view``'s encounter."""
    return turn_options(view=view, me=me, round_key=round_key(view.encounter))


@register.filter
def option_label_hb(key, view):
    """A reaction's label from the system's ``action_labels`` (as the encounter's)."""
    return view.label(str(key))
