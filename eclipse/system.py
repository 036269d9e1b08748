"""Eclipse Phase as the registry sees it (campaigns.rule_systems.RuleSystemSpec).

The hooks import the eclipse modules when called (the spec is built while the apps load). The
shared character API shows an Eclipse Phase character's identity; its sheet is served by the
eclipse API (eclipse.api), so the spec names no shared-API serializer.
"""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace

from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from eclipse.demo import DEMO_CAMPAIGN
from eclipse.labels import KINDS as LABELS
from gamerules.eclipse_phase.checks import critical_rule
from gamerules.eclipse_phase.params import EclipsePhaseParameters

CODE = "eclipse_phase"


def new_sheet(character):
    """A default sheet for a character saved in the admin (eclipse.services.sheet_default)."""
    from eclipse.services import sheet_default
    return sheet_default(character=character)


def copy_sheets(template, characters):
    """Fresh copies of a creature's sheet for its copies (eclipse.services.sheets_copy)."""
    from eclipse.services import sheets_copy
    return sheets_copy(template=template, characters=characters)


def begin_creation(*, user, campaign, name: str) -> str:
    """Creation is one page (aptitudes, skills, the first morph): go there with the name."""
    return reverse("eclipse:create", kwargs={"campaign_id": campaign.pk}) + "?" + urlencode(
        {"name": name})


def sheet_view(*, character, log, now: datetime):
    """The shared character page's view: the character (its sheet loaded), its log, now."""
    from eclipse.selectors import figures_of, loaded_view
    loaded = loaded_view(character)
    figures = figures_of(loaded, character.campaign.parameters) if loaded is not None else None
    return SimpleNamespace(character=character, log=log, now=now, sheet=character.eclipse,
                           rules=loaded, figures=figures)


# The journal's kinds Eclipse Phase writes (campaigns.journal.register_kinds), rendered by
# templates/eclipse/registry/_log_entry.html.
JOURNAL_KINDS = ("eclipse_create", "eclipse_resleeve", "eclipse_equip", "eclipse_unequip",
                 "eclipse_heal", "eclipse_recover", "eclipse_moxie", "eclipse_stress",
                 "eclipse_action", "eclipse_move", "eclipse_reload", "eclipse_turn_end",
                 "eclipse_attack", "eclipse_suppressive", "eclipse_explosion", "eclipse_ambush",
                 "eclipse_gravity")

def gm_summary(characters, *, campaign, now: datetime):
    """The GM screen's rows (eclipse.gm.gm_summary)."""
    from eclipse.gm import gm_summary as rows
    return rows(characters, campaign=campaign, now=now)


def _demo(*, gm, players, now):
    from eclipse.demo import load_eclipse_demo
    return load_eclipse_demo(gm=gm, players=players, now=now)


SPEC = rule_systems.RuleSystemSpec(
    code=CODE,
    name="Eclipse Phase",
    parameters=EclipsePhaseParameters,
    rules_package="gamerules.eclipse_phase",
    play_mode=rule_systems.ENCOUNTER,
    sheet_related_name="eclipse",
    new_sheet=new_sheet,
    copy_sheets=copy_sheets,
    begin_creation=begin_creation,
    creation_steps=_("no dice: you share the aptitude points, give your skills their "
                     "ranks and choose a morph"),
    sheet_view=sheet_view,
    character_admin="eclipse.admin.EclipseCharacterAdmin",
    templates=rule_systems.Templates(
        sheet="eclipse/registry/_sheet.html",
        gauges="eclipse/registry/_gauges.html",
        list_columns="eclipse/registry/_list_columns.html",
        list_cells="eclipse/registry/_list_cells.html",
        log_entry="eclipse/registry/_log_entry.html"),
    labels=LABELS,
    urls=(("eclipse/encounters/", "eclipse.play_urls"), ("eclipse/", "eclipse.urls")),
    api_urls=("eclipse.api", "eclipse.play_api", "eclipse.tacnet_api"),
    demo=_demo,
    demo_campaign=DEMO_CAMPAIGN,
    gm_summary=gm_summary,
    gm_actions=(
        rule_systems.GmAction("heal", _("Heal"), "eclipse/gm/_heal.html", "eclipse.gm.heal"),
        rule_systems.GmAction("stress", _("Inflict stress"), "eclipse/gm/_stress.html",
                              "eclipse.gm.stress"),
        rule_systems.GmAction("recover", _("Rest off stress"), "eclipse/gm/_recover.html",
                              "eclipse.gm.recover"),
        rule_systems.GmAction("moxie", _("Refresh Moxie"), "eclipse/gm/_moxie.html",
                              "eclipse.gm.moxie"),
    ),
    free_test_rule=critical_rule,  # the chat's /roll d100 <= N: 00-99, doubles critical
    action_labels={"eclipse_create": _("Creation"), "eclipse_resleeve": _("Resleeve"),
                   "eclipse_equip": _("Equip"), "eclipse_unequip": _("Unequip"),
                   "eclipse_heal": _("Healing"), "eclipse_recover": _("Stress recovery"),
                   "eclipse_moxie": _("Moxie"), "eclipse_reload": _("Reload"),
                   "eclipse_stress": _("Stress"), "eclipse_gravity": _("Gravity"),
                   "eclipse_ambush": _("Ambush")},
)
