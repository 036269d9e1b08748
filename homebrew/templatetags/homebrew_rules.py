"""``{% load homebrew_rules %}``: the homebrew rules' hints in the campaign's own numbers (its
parameters: gamerules.homebrew.params), for the sheet and the creation page. No query: the
parameters are read off the campaign already loaded."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

register = template.Library()
# The d100's last face: a critical-failure band from past it is none.
LAST_FACE = 100


def _band(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


@register.simple_tag
def hb_test_hint(params) -> str:
    """How a test succeeds: a characteristic with 1d100 at or under its value, with the
    campaign's critical bands (``critical_success_max``: 1 to it, none at 0;
    ``critical_failure_min``: it to 100, none at 101); a sub with 1d``sub_test_sides``."""
    bands = []
    if params.critical_success_max >= 1:
        bands.append(_("%(faces)s: critical success")
                     % {"faces": _band(1, params.critical_success_max)})
    if params.critical_failure_min <= LAST_FACE:
        bands.append(_("%(faces)s: critical failure")
                     % {"faces": _band(params.critical_failure_min, LAST_FACE)})
    criticals = ", ".join(bands) if bands else _("no critical success or failure")
    return _("A characteristic succeeds with 1d100 at or under its value (%(criticals)s); a sub "
             "succeeds with 1d%(sides)s at or under its value.") % {
        "criticals": criticals, "sides": params.sub_test_sides}


@register.simple_tag
def hb_creation_hint(params) -> str:
    """The creation budget: ``characteristic_points`` shared between the three mains (each from
    ``characteristic_min`` to ``characteristic_max``), all spent or at most that many
    (``spend_all_points``); each main's subs share its tens, at most ``sub_max`` each."""
    values = {"points": params.characteristic_points, "low": params.characteristic_min,
              "high": params.characteristic_max, "sub": params.sub_max}
    if params.spend_all_points:
        text = _("Share all %(points)s points between Physique, Perception and Mental, each from "
                 "%(low)s to %(high)s. Each one's two subs share as many points as its tens (60 "
                 "gives 6), at most %(sub)s each.")
    else:
        text = _("Share at most %(points)s points between Physique, Perception and Mental, each "
                 "from %(low)s to %(high)s. Each one's two subs share as many points as its tens "
                 "(60 gives 6), at most %(sub)s each.")
    return text % values
