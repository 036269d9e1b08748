"""The homebrew d100 system as the registry sees it (campaigns.rule_systems.RuleSystemSpec).

The hooks import the homebrew modules when called (the spec is built while the apps load).
The shared character API shows a homebrew character's identity; its sheet is served by the
homebrew API (homebrew.api), so the spec names no shared-API serializer.
"""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace

from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from gamerules.homebrew.checks import critical_rule
from gamerules.homebrew.params import HomebrewParameters
from homebrew.demo import DEMO_CAMPAIGN
from homebrew.labels import KINDS as LABELS


def new_sheet(character):
    """A default sheet for a character saved in the admin (homebrew.services.sheet_default)."""
    from homebrew.services import sheet_default
    return sheet_default(character=character)


def copy_sheets(template, characters):
    """Fresh copies of a creature's sheet for its copies (homebrew.services.sheets_copy)."""
    from homebrew.services import sheets_copy
    return sheets_copy(template=template, characters=characters)


def begin_creation(*, user, campaign, name: str) -> str:
    """Creation is one page where the player shares the campaign's characteristic points: go
    there with the name."""
    return reverse("homebrew:create", kwargs={"campaign_id": campaign.pk}) + "?" + urlencode(
        {"name": name})


def sheet_view(*, character, log, now: datetime):
    """The shared character page's view: the character (its sheet loaded), its log, now."""
    return SimpleNamespace(character=character, log=log, now=now, sheet=character.homebrew)


# The journal's kinds the homebrew writes (campaigns.journal.register_kinds), rendered by
# templates/homebrew/registry/_log_entry.html.
JOURNAL_KINDS = ("homebrew_create", "homebrew_test", "homebrew_posture", "homebrew_attack",
                 "homebrew_reaction", "homebrew_rest", "homebrew_fumble", "homebrew_move",
                 "homebrew_action")

def gm_summary(characters, *, campaign, now: datetime):
    """The GM screen's rows (homebrew.gm.gm_summary)."""
    from homebrew.gm import gm_summary as rows
    return rows(characters, campaign=campaign, now=now)


def gm_links(campaign):
    """The GM's campaign-wide steps (homebrew.gm.gm_links: the rest for everyone)."""
    from homebrew.gm import gm_links as links
    return links(campaign)


def _demo(*, gm, players, now):
    from homebrew.demo import load_homebrew_demo
    return load_homebrew_demo(gm=gm, players=players, now=now)


SPEC = rule_systems.RuleSystemSpec(
    code="homebrew",
    name=_("Homebrew d100"),
    parameters=HomebrewParameters,
    rules_package="gamerules.homebrew",
    play_mode=rule_systems.ENCOUNTER,
    sheet_related_name="homebrew",
    new_sheet=new_sheet,
    copy_sheets=copy_sheets,
    begin_creation=begin_creation,
    creation_steps=_("no dice: you share the campaign's characteristic points, then "
                     "pick your starting weapons and spells"),
    sheet_view=sheet_view,
    character_admin="homebrew.admin.HomebrewCharacterAdmin",
    templates=rule_systems.Templates(
        sheet="homebrew/registry/_sheet.html",
        gauges="homebrew/registry/_gauges.html",
        list_columns="homebrew/registry/_list_columns.html",
        list_cells="homebrew/registry/_list_cells.html",
        log_entry="homebrew/registry/_log_entry.html"),
    labels=LABELS,
    urls=(("homebrew/", "homebrew.urls"),),
    api_urls=("homebrew.api",),
    demo=_demo,
    demo_campaign=DEMO_CAMPAIGN,
    gm_summary=gm_summary,
    gm_actions=(rule_systems.GmAction("rest", _("Rest"), "homebrew/gm/_rest.html",
                                      "homebrew.gm.rest"),),
    gm_links=gm_links,
    free_test_rule=critical_rule,  # the chat's /roll d100 <= N: 1-5 and 96-100 critical
    action_labels={"homebrew_attack": _("Attack"), "homebrew_reaction": _("Reaction"),
                   "homebrew_test": _("Test"), "homebrew_rest": _("Rest"),
                   "homebrew_create": _("Creation"), "homebrew_posture": _("Posture"),
                   "homebrew_fumble": _("Critical failure"), "homebrew_move": _("Move"),
                   "homebrew_action": _("Action"), "none": _("No reaction"),
                   "parry": _("Parry"), "dodge": _("Dodge")},
)
