"""The homebrew d100 system as the registry sees it (campaigns.rule_systems.RuleSystemSpec)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from gamerules.homebrew.params import HomebrewParameters


def new_sheet(character):
    """A default sheet for a character made in the admin (homebrew.services.sheet_default)."""
    from homebrew.services import sheet_default

    return sheet_default(character=character)


SPEC = rule_systems.RuleSystemSpec(
    code="homebrew",
    name=_("Homebrew d100"),
    parameters=HomebrewParameters,
    rules_package="gamerules.homebrew",
    play_mode=rule_systems.ENCOUNTER,
    sheet_related_name="homebrew",
    new_sheet=new_sheet,
    creation_url_name="homebrew:create",
    serializer="homebrew.api.SheetSerializer",
    templates=rule_systems.Templates(sheet="homebrew/_sheet.html",
                                     gauges="homebrew/_gauges.html"),
    action_labels={"homebrew_attack": _("Attack"), "homebrew_reaction": _("Reaction"),
                   "homebrew_test": _("Test"), "homebrew_rest": _("Rest"),
                   "homebrew_create": _("Creation"), "homebrew_posture": _("Posture"),
                   "homebrew_fumble": _("Critical failure")},
)
