"""The game master's screen of a campaign (``/campaigns/<id>/gm/``): every player character's
row (gauges and conditions from its rule system's ``gm_summary``, the quick actions of its
``gm_actions``), the panels other apps register (campaigns.gm: the encounters), the system's
campaign-wide steps (``gm_links``). System-neutral: each system's numbers and actions come
through campaigns.rule_systems. Whoever does not oversee the campaign
(campaigns.permissions.oversees) is told it does not exist (NotFound)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone

from campaigns import gm as gm_panels
from campaigns import rule_systems
from campaigns.errors import NotFound
from campaigns.models import Campaign
from campaigns.permissions import oversees
from characters.models import Character


@dataclass(frozen=True)
class Panel:
    template: str
    context: dict[str, Any]


@dataclass(frozen=True)
class GmScreen:
    """``rows`` the GmRow of each player character by name; ``actions`` the system's quick
    actions, each with its list to pick from (``(GmAction, list)``); ``panels`` the registered
    panels with their context; ``links`` the system's ``(label, url)`` steps."""

    campaign: Campaign
    spec: rule_systems.RuleSystemSpec | None
    rows: list[rule_systems.GmRow]
    actions: list[tuple[rule_systems.GmAction, list[Any]]] = field(default_factory=list)
    panels: list[Panel] = field(default_factory=list)
    links: list[tuple[Any, str]] = field(default_factory=list)


def overseen_campaign(*, user, campaign_id: int) -> Campaign:
    """The campaign with its game master, if ``user`` oversees it. Raises NotFound (missing or
    not theirs: a player or a stranger cannot tell)."""
    campaign = Campaign.objects.select_related("game_master").filter(pk=campaign_id).first()
    if campaign is None or not oversees(user, campaign):
        raise NotFound("no_such_campaign")
    return campaign


def _characters(campaign: Campaign, spec):
    characters = (Character.objects.filter(campaign=campaign, kind=Character.Kind.PLAYER)
                  .select_related("owner", "board").order_by("name", "pk"))
    if spec is not None and spec.sheet_related_name:
        characters = characters.select_related(spec.sheet_related_name)
    return characters


def _actions(spec, campaign: Campaign) -> list[tuple[rule_systems.GmAction, list[Any]]]:
    """The system's quick actions with their choices (one query for each that has some)."""
    return [(a, a.choices_of(campaign)) for a in (spec.gm_actions if spec is not None else ())]


def gm_rows(campaign: Campaign, characters: list[Character], *, now: datetime
            ) -> list[rule_systems.GmRow]:
    """The GmRow of each of ``characters`` (of ``campaign``, loaded with it): the system's
    ``gm_summary``, or a row with the name alone. A character whose sheet is missing gets a
    bare row too."""
    for character in characters:
        character.campaign = campaign  # loaded once: no query per row
    spec = rule_systems.get(campaign.rule_system)
    if spec is None or spec.gm_summary is None:
        return [rule_systems.GmRow(c, None) for c in characters]
    with_sheet = [c for c in characters if spec.sheet_of(c) is not None]
    rows = {row.character.pk: row
            for row in spec.gm_summary(with_sheet, campaign=campaign, now=now)}
    return [rows.get(c.pk) or rule_systems.GmRow(c, None) for c in characters]


def gm_screen(*, user, campaign_id: int, now: datetime | None = None) -> GmScreen:
    """The screen as ``user`` sees it at ``now``, in a number of queries that does not grow
    with the characters (pinned in tests/pages/test_gm_screen.py). Raises NotFound."""
    now = now or timezone.now()
    campaign = overseen_campaign(user=user, campaign_id=campaign_id)
    spec = rule_systems.get(campaign.rule_system)
    rows = gm_rows(campaign, list(_characters(campaign, spec)), now=now)
    panels = [Panel(p.template, dict(p.context(user=user, campaign=campaign)))
              for p in gm_panels.panels()]
    links = list(spec.gm_links(campaign)) if spec is not None and spec.gm_links else []
    return GmScreen(campaign, spec, rows, _actions(spec, campaign), panels, links)


def gm_row(*, user, campaign_id: int, character_id: int, now: datetime | None = None
           ) -> GmScreen:
    """The screen reduced to one character's row (what a quick action answers). Raises
    NotFound (the campaign not overseen, the character not a player character of it)."""
    now = now or timezone.now()
    campaign = overseen_campaign(user=user, campaign_id=campaign_id)
    spec = rule_systems.get(campaign.rule_system)
    characters = list(_characters(campaign, spec).filter(pk=character_id))
    if not characters:
        raise NotFound("no_such_character")
    return GmScreen(campaign, spec, gm_rows(campaign, characters, now=now),
                    _actions(spec, campaign))


def gm_action_run(*, user, campaign_id: int, character_id: int, key: str, data) -> str:
    """Run the quick action ``key`` of the campaign's system on the character: its ``run``
    calls the system's service (which checks, journals and pushes). Returns the words said
    when done. Raises NotFound (campaign not overseen, character not of it, no such action),
    and the service's RuleError on a refusal."""
    campaign = overseen_campaign(user=user, campaign_id=campaign_id)
    spec = rule_systems.get(campaign.rule_system)
    action = spec.gm_action(key) if spec is not None else None
    character = (Character.objects.filter(campaign=campaign, kind=Character.Kind.PLAYER,
                                          pk=character_id).select_related("campaign").first())
    if action is None or character is None:
        raise NotFound("no_such_character")
    return str(action.runner()(user=user, character=character, data=data))
