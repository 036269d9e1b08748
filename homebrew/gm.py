"""The homebrew's rows and quick actions on the game master's screen (characters.gm, through
RuleSystemSpec.gm_summary, gm_actions and gm_links in homebrew.system)."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.rule_systems import GmRow
from homebrew.models import Health


def gm_summary(characters, *, campaign, now: datetime) -> list[GmRow]:
    """Each character's row: the gauges partial's view (its sheet, loaded with it: no query)
    and its conditions (unconscious, dead)."""
    rows = []
    for c in characters:
        sheet = c.homebrew
        conditions = (sheet.get_health_display(),) if sheet.health != Health.STANDING else ()
        rows.append(GmRow(c, SimpleNamespace(character=c, sheet=sheet, now=now), conditions))
    return rows


def rest(*, user, character, data) -> str:
    """A rest for this character alone (homebrew.services.rest_grant: "short", "medium" or
    "long", the campaign's amounts; journaled, pushed). Returns what it gave, in words."""
    from homebrew.services import rest_grant

    given = rest_grant(user=user, campaign=character.campaign, kind=data.get("kind", ""),
                       character_ids=[character.pk])[0]
    return _("%(name)s rests: +%(hp)s HP, +%(mp)s MP.") % {
        "name": given.name, "hp": given.outcome.hp_gained, "mp": given.outcome.mp_gained}


def gm_links(campaign) -> list[tuple[object, str]]:
    """The rest for several characters at once (the rest page)."""
    return [(gettext_lazy("Rest for everyone"),
             reverse("homebrew:rest", kwargs={"campaign_id": campaign.pk}))]
