"""Eclipse Phase's rows and quick actions on the game master's screen (characters.gm, through
RuleSystemSpec.gm_summary and gm_actions in eclipse.system): healing, stress inflicted or
recovered by rest, Moxie refreshed, each calling its service in eclipse.services (which checks
the GM, journals and pushes)."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace

from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.errors import InvalidInput
from campaigns.numbers import whole_number
from campaigns.rule_systems import GmRow
from eclipse.selectors import armour_prefetch, figures_of, rules_of, weapons_prefetch
from gamerules.eclipse_phase.errors import EclipseError

CONDITIONS = {"unconscious": gettext_lazy("unconscious"), "dead": gettext_lazy("dead"),
              "destroyed": gettext_lazy("destroyed"),
              "beyond_lucidity": gettext_lazy("beyond lucidity"),
              "insane": gettext_lazy("insane")}


def gm_summary(characters, *, campaign, now: datetime) -> list[GmRow]:
    """Each character's row: the gauges partial's view (``figures``: damage against DUR,
    wounds, stress against lucidity, Moxie) and the conditions (unconscious, dead, knocked
    down, stunned, beyond lucidity, insane, the derangements named). Three queries whatever the
    number of characters (their sleeves, armour and weapons); a sheet the rules refuse shows
    the Moxie alone."""
    sheets = [c.eclipse for c in characters]
    prefetch_related_objects(sheets, "sleeve", armour_prefetch(), weapons_prefetch())
    params = campaign.parameters
    rows = []
    for c, sheet in zip(characters, sheets):
        try:
            figures = figures_of(rules_of(sheet), params)
        except EclipseError:
            figures = None
        rows.append(GmRow(c, SimpleNamespace(character=c, sheet=sheet, figures=figures,
                                             now=now), _conditions(sheet, figures)))
    return rows


def _conditions(sheet, figures) -> tuple:
    found: list = []
    if figures is not None:
        health = figures.loaded.health
        for code in (figures.condition, figures.mental_condition):
            if code in CONDITIONS:
                found.append(CONDITIONS[code])
        if health.knocked_down:
            found.append(gettext_lazy("knocked down"))
        if health.stunned:
            found.append(gettext_lazy("stunned"))
    found.extend(list(sheet.derangements) + list(sheet.disorders))
    return tuple(found)


def _number(data, name: str) -> int:
    value = whole_number(data.get(name, "") or "0", negative=False, digits=9)
    if value is None:
        raise InvalidInput()
    return value


def heal(*, user, character, data) -> str:
    """eclipse.services.heal: ``damage`` and ``wounds`` removed from the current body."""
    from eclipse.services import heal as service
    service(user=user, character=character.pk, damage=_number(data, "damage"),
            wounds=_number(data, "wounds"))
    return _("%(name)s healed.") % {"name": character.name}


def stress(*, user, character, data) -> str:
    """eclipse.services.stress_inflict: a stress value (a number or dice), resisted."""
    from eclipse.services import stress_inflict
    result = stress_inflict(user=user, character=character.pk, sv=data.get("sv", ""),
                            source=_("game master's screen"))
    return _("%(name)s takes %(n)s stress.") % {"name": character.name, "n": result.taken}


def recover(*, user, character, data) -> str:
    """eclipse.services.stress_recover by rest: ``stress`` removed."""
    from eclipse.services import stress_recover
    stress_recover(user=user, character=character.pk, method="rest",
                   stress=_number(data, "stress"))
    return _("%(name)s recovers.") % {"name": character.name}


def moxie(*, user, character, data) -> str:
    """eclipse.services.moxie_refresh: Moxie back to its maximum."""
    from eclipse.services import moxie_refresh
    moxie_refresh(user=user, character=character.pk)
    return _("%(name)s's Moxie refreshed.") % {"name": character.name}
