"""The journal is the same for every rule system (issue 10, item 2): an action's ``cost`` in the
system's unit, each test roll's ``grade`` from the rule that graded it, ``success`` derived
from the grade by the database; migration campaigns 0003 backfills the grades.

EW1's grades (seed 000, "Mécanismes de combat"): an attack hits on d100 <= score and is perfect
strictly below ``perfect_below`` (5); the dodge succeeds strictly below its score, a DEF roll
at or below DEF, a cast or a game at or below the skill. EW1 has no critical failure: a 100 is
a plain failure.
"""

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaigns.journal import record_action, roll_row
from campaigns.models import ActionRecord, RollRecord
from combat.services import action_brawl, action_game
from gamerules.d100 import Grade
from gamerules.dice import roll
from tests import factories
from tests.gamerules.fakes import FakeRandom
from tests.services.conftest import NOW

SKILLS = {"brawl": 90, "melee": 35, "ranged": 25, "magic": 55, "dodge": 10, "throw": 25,
          "game": 30}
# FOR + TAI = 20: a brawl rolls 1d4 and no base damage; dodge score 10 + 10 // 5 = 12; DEF 10;
# a level 0 defender rolls three DEF rolls (gamerules.ew1.progression).
STATS = {"FOR": 10, "TAI": 10, "DEF": 10, "LUK": 10, "skills": SKILLS}
NO_DODGE, DEF_FAIL = 12, 11


@pytest.fixture
def fighters(campaign, alice, bob):
    a = factories.character(owner=alice, campaign=campaign, name="A", at=(5, 5), now=NOW,
                            **STATS)
    b = factories.character(owner=bob, campaign=campaign, name="B", at=(6, 5), now=NOW,
                            **STATS)
    return a, b


def brawl(user, a, b, *faces):
    rng = FakeRandom(*faces)
    result = action_brawl(user=user, character_id=a.pk, target_id=b.pk, rng=rng, now=NOW)
    assert rng.exhausted, f"faces left unused: {rng.queue}"
    return result


def graded(action) -> list[tuple[str, int, str, bool | None]]:
    return list(action.rolls.values_list("label", "total", "grade", "success"))


@pytest.mark.parametrize("face, grade", [
    (1, "perfect"), (4, "perfect"),  # strictly below 5
    (5, "success"), (90, "success"),  # 90: the brawl score, inclusive
])
def test_a_hit_is_graded_perfect_below_5_and_success_up_to_the_score(alice, fighters, face,
                                                                      grade):
    a, b = fighters
    perfect = grade == "perfect"
    damage = (4, 3) if perfect else (4,)  # 1d4, and 1d3 more on a perfect
    result = brawl(alice, a, b, face, NO_DODGE, *damage, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    assert result.outcome.perfect is perfect
    rows = graded(result.action)
    assert rows[:2] == [("attack", face, grade, True), ("dodge", NO_DODGE, "failure", False)]
    assert rows[2:-3] == [("brawl_damage", 4, "", None)] + (
        [("perfect_damage", 3, "", None)] if perfect else [])
    assert rows[-3:] == [("damage_reduction", DEF_FAIL, "failure", False)] * 3


@pytest.mark.parametrize("face", [91, 100])
def test_a_miss_is_a_failure_and_100_is_no_critical_failure_in_ew1(alice, fighters, face):
    a, b = fighters
    result = brawl(alice, a, b, face)

    assert graded(result.action) == [("attack", face, "failure", False)]


def test_the_dodge_succeeds_strictly_below_and_def_at_or_below(alice, fighters):
    a, b = fighters
    dodged = brawl(alice, a, b, 50, 11)
    assert graded(dodged.action)[1] == ("dodge", 11, "success", True)

    hit = brawl(alice, a, b, 50, NO_DODGE, 4, 10, DEF_FAIL, 1)
    assert graded(hit.action)[-3:] == [("damage_reduction", 10, "success", True),
                                       ("damage_reduction", DEF_FAIL, "failure", False),
                                       ("damage_reduction", 1, "success", True)]


def test_the_campaigns_perfect_below_sets_the_grade(alice, bob):
    campaign = factories.campaign(name="Generous", perfect_below=10)
    a = factories.character(owner=alice, campaign=campaign, name="A", at=(5, 5), now=NOW,
                            **STATS)
    b = factories.character(owner=bob, campaign=campaign, name="B", at=(6, 5), now=NOW,
                            **STATS)
    result = brawl(alice, a, b, 9, NO_DODGE, 4, 3, DEF_FAIL, DEF_FAIL, DEF_FAIL)

    assert graded(result.action)[0] == ("attack", 9, "perfect", True)
    assert result.action.cost == Decimal("2")


@pytest.mark.parametrize("face, grade", [(30, "success"), (31, "failure"), (100, "failure")])
def test_a_game_is_graded_at_or_below_the_skill(alice, fighters, face, grade):
    a, _ = fighters
    faces = (face, 2, 3) if grade == "success" else (face,)  # a win rolls 2d4 XP
    result = action_game(user=alice, character_id=a.pk, rng=FakeRandom(*faces), now=NOW)

    assert graded(result.action)[0] == ("game", face, grade, grade == "success")
    assert result.action.cost == Decimal("1")


def test_a_critical_failure_is_stored_as_a_failure(campaign):
    """A system with critical failures (homebrew's 96-100) writes the grade; success follows."""
    action = record_action(campaign=campaign, kind="homebrew_test", now=NOW, cost=Decimal("1"), rolls=[
        roll_row(label="t", roll=roll("1d100", FakeRandom(96)), target_score=99,
                 grade=Grade.CRITICAL_FAILURE),
        roll_row(label="t", roll=roll("1d100", FakeRandom(5)), target_score=1,
                 grade=Grade.CRITICAL_SUCCESS),
        roll_row(label="damage", roll=roll("1d6", FakeRandom(6)))])

    assert graded(action) == [("t", 96, "critical_failure", False),
                              ("t", 5, "critical_success", True), ("damage", 6, "", None)]
    assert ActionRecord.objects.get(pk=action.pk).cost == Decimal("1")
    assert [r.get_grade_display() for r in action.rolls.all()] == [
        "Critical failure", "Critical success", ""]


# --- the migration ---------------------------------------------------------------------------

BEFORE = [("campaigns", "0002_initial")]


def _old_rows(old):
    """Rows as the journal stored them before 0003: ``pa_spent`` and ``success`` only."""
    campaigns = old.get_model("campaigns", "Campaign").objects
    ew1 = campaigns.create(name="Old", rule_system="ew1")
    generous = campaigns.create(name="Generous", rule_system="ew1",
                                rule_parameters={"perfect_below": 10})
    eclipse = campaigns.create(name="Eclipse", rule_system="eclipse_phase")
    actions = old.get_model("campaigns", "ActionRecord").objects
    rolls = old.get_model("campaigns", "RollRecord").objects

    def action(campaign, kind, rows, **summary):
        a = actions.create(campaign=campaign, kind=kind, pa_spent=Decimal("2"),
                           summary=summary, created_at=NOW)
        for label, total, success in rows:
            rolls.create(action=a, label=label, expression="1d100", faces=[total], total=total,
                         target_score=50 if success is not None else None, success=success,
                         created_at=NOW)
        return a.pk

    return {
        "perfect": action(ew1, "brawl", [("attack", 3, True), ("dodge", 2, True)],
                          perfect=True),
        "hit": action(ew1, "melee", [("attack", 40, True), ("damage_reduction", 4, False),
                                     ("weapon_damage", 6, None)], perfect=False),
        "miss": action(ew1, "throw", [("attack", 100, False)], perfect=False),
        # journaled without the summary's "perfect": the faces and the campaign decide
        "bare_perfect": action(generous, "ranged", [("attack", 7, True)]),
        "bare_hit": action(ew1, "ranged", [("attack", 7, True)]),
        "cast": action(ew1, "cast", [("cast", 1, True), ("spell_power", 5, None)]),
        "eclipse": action(eclipse, "brawl", [("attack", 3, True)], perfect=True),
    }


@pytest.mark.django_db(transaction=True)
def test_migration_0003_keeps_the_cost_and_grades_the_old_rolls():
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    ids = _old_rows(executor.loader.project_state(BEFORE).apps)

    MigrationExecutor(connection).migrate(leaves)

    def rows(key):
        return [(r.label, r.grade, r.success) for r in RollRecord.objects.filter(
            action_id=ids[key]).order_by("id")]

    assert set(ActionRecord.objects.values_list("cost", flat=True)) == {Decimal("2")}
    assert rows("perfect") == [("attack", "perfect", True), ("dodge", "success", True)]
    assert rows("hit") == [("attack", "success", True), ("damage_reduction", "failure", False),
                           ("weapon_damage", "", None)]
    assert rows("miss") == [("attack", "failure", False)]
    assert rows("bare_perfect") == [("attack", "perfect", True)]
    assert rows("bare_hit") == [("attack", "success", True)]
    assert rows("cast") == [("cast", "success", True), ("spell_power", "", None)]
    assert rows("eclipse") == [("attack", "success", True)]  # EW1's perfect is EW1's only


@pytest.mark.django_db(transaction=True)
def test_migration_0003_goes_back_with_success_written_from_the_grade():
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    ids = _old_rows(executor.loader.project_state(BEFORE).apps)
    MigrationExecutor(connection).migrate(leaves)

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    rolls = old.get_model("campaigns", "RollRecord").objects
    assert list(rolls.filter(action_id=ids["hit"]).order_by("id")
                .values_list("success", flat=True)) == [True, False, None]
    assert list(rolls.filter(action_id=ids["perfect"]).values_list("success", flat=True)) == [
        True, True]
    assert set(old.get_model("campaigns", "ActionRecord").objects
               .values_list("pa_spent", flat=True)) == {Decimal("2")}
    MigrationExecutor(connection).migrate(leaves)
