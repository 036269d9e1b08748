"""campaigns 0007 keeps each campaign's parameters to those its own rule system defines (issue
19, item 1) and says what it dropped: another system's names, values the system does not take,
the homebrew's characteristic_max of 40 that the old add page saved from EW1's form; EW1's
friendly_fire 0/1 becomes a yes/no. Runs on SQLite and, with DATABASE_URL set, on PostgreSQL."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("campaigns", "0006_roll_label_80")]
AFTER = [("campaigns", "0007_rule_parameters_per_system")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def before_0007():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    yield _migrate(BEFORE)
    _migrate(leaves)


@pytest.mark.django_db(transaction=True)
def test_each_campaign_keeps_what_its_system_defines_and_the_drops_are_listed(before_0007,
                                                                             capsys):
    Campaign = before_0007.get_model("campaigns", "Campaign")
    make = Campaign.objects.create
    homebrew = make(name="Gué", rule_system="homebrew", rule_parameters={
        "characteristic_max": 40, "view_radius": 3, "sub_max": 21, "hp_max_default": 30,
        "spend_all_points": False})
    ew1 = make(name="Brenna", rule_system="ew1", rule_parameters={
        "friendly_fire": 0, "move_cost_pa": "1", "game_day_time_zone": "Europe/Paris",
        "daily_pa_cap": 2.5, "aptitude_max": 30})
    on = make(name="Allies", rule_system="ew1", rule_parameters={"friendly_fire": 1})
    eclipse = make(name="Locus", rule_system="eclipse_phase", rule_parameters={
        "walk_m": 5, "success_inclusive": True, "characteristic_points": 200})
    clean = make(name="Clean", rule_system="homebrew", rule_parameters={"characteristic_max": 80})
    untouched = make(name="Nothing", rule_system="ew1", rule_parameters={})

    _migrate(AFTER)

    def stored(campaign):
        return Campaign.objects.get(pk=campaign.pk).rule_parameters

    assert stored(homebrew) == {"hp_max_default": 30, "spend_all_points": False}
    assert stored(ew1) == {"friendly_fire": False, "move_cost_pa": "1",
                           "game_day_time_zone": "Europe/Paris"}
    assert stored(on) == {}
    assert stored(eclipse) == {"walk_m": 5, "success_inclusive": True}
    assert stored(clean) == {"characteristic_max": 80}
    assert stored(untouched) == {}
    printed = capsys.readouterr().out
    for line in (f"Gué (#{homebrew.pk}): dropped characteristic_max=40 (Eternal War One II's default",
                 f"Gué (#{homebrew.pk}): dropped view_radius=3 (homebrew has no such parameter)",
                 "dropped sub_max=21 (not a value homebrew takes)",
                 f"Brenna (#{ew1.pk}): friendly_fire 0 is now False",
                 "dropped daily_pa_cap=2.5", "dropped aptitude_max=30 (ew1 has no such",
                 f"Locus (#{eclipse.pk}): dropped characteristic_points=200"):
        assert line in printed, line
    assert "Clean" not in printed and "Nothing" not in printed
