"""Eternal War One II's rows and quick actions on the game master's screen (characters.gm,
through RuleSystemSpec.gm_summary and gm_actions in ew1.system): an item granted from the
catalogue (ew1.equipment.item_grant); the spell granted is the magic's (magic.gm)."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.errors import InvalidInput
from campaigns.numbers import whole_number
from campaigns.rule_systems import GmRow


def gm_summary(characters, *, campaign, now: datetime) -> list[GmRow]:
    """Each character's row: the gauges partial's view (ew1.selectors.SheetView without log or
    items: PV and PA regenerated to ``now`` in memory, the level) and its condition (down at
    0 PV, dead, disincarnated). No query: the sheets come selected with the characters."""
    from ew1.regeneration import sheet_refresh
    from ew1.selectors import SheetView
    from gamerules.ew1.progression import level_progress

    params = campaign.parameters
    states = {"down": gettext_lazy("down at 0 PV"), "dead": gettext_lazy("dead"),
              "disincarnated": gettext_lazy("disincarnated")}
    rows = []
    for c in characters:
        pa, pv = sheet_refresh(c.ew1, params=params, now=now)
        view = SheetView(c, level_progress(c.ew1.xp), pa, pv, [], now)
        state = view.life_state
        rows.append(GmRow(c, view, (states[state],) if state in states else ()))
    return rows


def item_choices(campaign) -> list:
    """The catalogue the campaign sees (its own items and the shared ones), by name."""
    from ew1.models import ItemTemplate
    return list(ItemTemplate.objects.filter(Q(campaign=campaign) | Q(campaign__isnull=True))
                .order_by("name", "pk"))


def grant_item(*, user, character, data) -> str:
    """ew1.equipment.item_grant of the chosen template (its dice rolled once, journaled)."""
    from ew1.equipment import ItemError, item_grant
    from ew1.models import ItemTemplate

    template_id = whole_number(data.get("item", ""), negative=False, digits=9)
    if template_id is None:
        raise InvalidInput()
    template = ItemTemplate.objects.filter(pk=template_id).first()
    if template is None:
        raise ItemError("item_belongs_another")
    item_grant(character=character, template=template, user=user)
    return _("%(item)s given to %(name)s.") % {"item": template.name, "name": character.name}
