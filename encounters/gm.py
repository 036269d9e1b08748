"""The encounters' panel of the game master's screen (campaigns.gm, registered in
encounters.apps): the campaign's encounters with their state, each linking to its control
page, and the form that opens a new one (a campaign of a turn-based system only)."""

from __future__ import annotations

from typing import Any

from campaigns import rule_systems
from campaigns.gm import GmPanel
from campaigns.models import EnemyState
from encounters.models import Encounter


def panel_context(*, user, campaign) -> dict[str, Any]:
    """``encounters``: the campaign's encounters, newest first (one query; none for a system
    that plays on a board); ``enemy_states`` the choices of what the players read of their
    enemies' state (the campaign's ``enemy_state``, services.enemy_state_set). The screen
    checked that ``user`` oversees the campaign."""
    spec = rule_systems.get(campaign.rule_system)
    if spec is None or spec.play_mode != rule_systems.ENCOUNTER:
        return {"plays_encounters": False, "encounters": []}
    return {"plays_encounters": True,
            "encounters": list(Encounter.objects.filter(campaign=campaign)),
            "enemy_states": EnemyState.choices}


PANEL = GmPanel(key="encounters", template="encounters/_gm_panel.html", context=panel_context)
