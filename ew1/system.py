"""Eternal War One II as the registry sees it (campaigns.rule_systems.RuleSystemSpec)."""

from __future__ import annotations

from campaigns import rule_systems
from gamerules.ew1.params import EW1Parameters

SPEC = rule_systems.RuleSystemSpec(
    code="ew1",
    name="Eternal War One II",
    parameters=EW1Parameters,
    rules_package="gamerules.ew1",
    play_mode=rule_systems.BOARD,
    sheet_related_name="ew1",
)
