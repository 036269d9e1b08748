"""The campaign's leaderboard: its player characters ranked by the counters every system has
(kills, deaths, attacks, dodges) and by the columns the campaign's rule system adds
(``RuleSystemSpec.leaderboard``). Read-only; in characters because it ranks characters."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from campaigns.models import Campaign
from campaigns.rule_systems import LeaderboardColumn
from characters.models import Character

# The counters every system has; a system adds its own columns (RuleSystemSpec.leaderboard).
KILLS = LeaderboardColumn("kills", _("Kills"), ("-kills", "deaths", "name"), lambda c: c.kills)
DEATHS = LeaderboardColumn("deaths", _("Deaths"), ("-deaths", "name"), lambda c: c.deaths)
ATTACKS = LeaderboardColumn("attacks", _("Attacks"), ("-attacks", "name"), lambda c: c.attacks)
DODGES = LeaderboardColumn("dodges", _("Dodges"), ("-dodges", "name"), lambda c: c.dodges)


def _own_columns(rule_system: str) -> tuple[LeaderboardColumn, ...]:
    spec = rule_systems.get(rule_system)
    return spec.leaderboard if spec else ()


def leaderboard_columns(*, campaign: Campaign) -> list[LeaderboardColumn]:
    """The table's columns: the system's own first, then kills, deaths, attacks, dodges."""
    return [*_own_columns(campaign.rule_system), KILLS, DEATHS, ATTACKS, DODGES]


def leaderboard_tabs(*, campaign: Campaign) -> list[LeaderboardColumn]:
    """The sort tabs: kills (the default), the system's own, attacks, dodges, deaths."""
    return [KILLS, *_own_columns(campaign.rule_system), ATTACKS, DODGES, DEATHS]


def leaderboard_orders() -> list[str]:
    """Every ``order`` some registered system's leaderboard knows (the API's choices)."""
    own = [c.key for spec in rule_systems.registered() for c in spec.leaderboard]
    return ["kills", *dict.fromkeys(own), "attacks", "dodges", "deaths"]


def leaderboard(*, campaign: Campaign, order: str = "kills", limit: int = 50
                ) -> QuerySet[Character]:
    """The campaign's player characters ranked by ``order`` (a key of ``leaderboard_columns``:
    kills, deaths, attacks, dodges, or the system's own such as level), with their owner and
    sheet: one query. Unknown orders fall back to kills."""
    columns = {c.key: c for c in leaderboard_columns(campaign=campaign)}
    ordering = columns.get(order, KILLS).order_by
    spec = rule_systems.get(campaign.rule_system)
    sheet = spec.sheet_related_name if spec else ""
    qs = Character.objects.filter(campaign=campaign, kind=Character.Kind.PLAYER)
    if sheet:
        qs = qs.filter(**{f"{sheet}__isnull": False}).select_related(sheet)
    return qs.select_related("owner").order_by(*ordering)[:limit]
