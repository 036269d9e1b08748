"""Initiative rolled again at the start of every round (issue 12, item 3: Eclipse Phase's
"each action turn"), system-neutral: the clock's ``reorder`` (pure) and the encounter's step
that begins a round (encounters.turn_order.next_turn), with the test system registering it."""

from __future__ import annotations

import pytest

from campaigns.models import ActionRecord
from encounters import hooks, services
from encounters.models import Combatant
from gamerules.encounter import clock as C
from gamerules.encounter.errors import OrderError
from tests.encounters.conftest import NOW, SYSTEM, Table
from tests.gamerules.fakes import FakeRandom


def members(*ids, defeated=()):
    return {i: C.Member(i, defeated=i in defeated) for i in ids}


# --- pure: the clock's reorder ---------------------------------------------------------------

def test_reorder_is_called_only_when_a_round_begins():
    ms = members(1, 2, 3)
    calls = []

    def reorder(order):
        calls.append(order)
        return (3, 1, 2)

    step = C.start(C.Clock(order=(1, 2, 3)), ms)
    step = C.next_turn(step.clock, ms, reorder=reorder)
    step = C.next_turn(step.clock, ms, reorder=reorder)
    assert calls == [] and step.clock.order == (1, 2, 3)
    step = C.next_turn(step.clock, ms, reorder=reorder)  # 3 ends round 1
    assert calls == [(1, 2, 3)]
    assert (step.clock.round, step.clock.order, step.started) == (2, (3, 1, 2), C.Turn(3))
    assert step.new_round


def test_reorder_skips_a_defeated_first_of_the_new_order():
    ms = members(1, 2, 3, defeated=(3,))
    step = C.start(C.Clock(order=(1, 2, 3)), ms)
    step = C.next_turn(C.next_turn(step.clock, ms).clock, ms, reorder=lambda o: (3, 2, 1))
    assert step.started == C.Turn(2) and step.skipped == (3, 3)  # end of round 1, then 2's head


def test_reorder_returning_other_ids_is_refused():
    ms = members(1, 2)
    step = C.next_turn(C.start(C.Clock(order=(1, 2)), ms).clock, ms)
    with pytest.raises(OrderError) as refused:
        C.next_turn(step.clock, ms, reorder=lambda o: (1, 3))
    assert refused.value.code == "reorder_mismatch"


def test_removing_the_last_current_combatant_rolls_the_new_round():
    ms = members(1, 2, 3)
    step = C.start(C.Clock(order=(1, 2, 3)), ms)
    step = C.next_turn(C.next_turn(step.clock, ms).clock, ms)
    step = C.remove(step.clock, ms, 3, reorder=lambda o: (2, 1))
    assert (step.clock.round, step.clock.order, step.started) == (2, (2, 1), C.Turn(2))


# --- the encounter ---------------------------------------------------------------------------

@pytest.fixture
def each_round():
    hooks.register_initiative_each_round(SYSTEM)
    yield
    hooks.unregister_initiative_each_round(SYSTEM)


def next_turn(t, rng=None):
    e = t.reload()
    services.encounter_next_turn(user=t.gm, encounter_id=e.pk, turn=e.turn_serial, now=NOW,
                                 rng=rng or FakeRandom())
    return t.reload()


def order(e):
    return [c.name for c in e.combatants.filter(rank__isnull=False).order_by("rank")]


def rolled(extra=0):
    """Hero, Brenna, Orc rolled 9, 5, 1 (entry order): that order."""
    t = Table(extra=extra)
    t.start(mode="rolled", rng=FakeRandom(9, 5, 1, *[1] * extra))
    return t


@pytest.mark.django_db
def test_the_order_is_rolled_again_when_the_round_begins(each_round):
    t = rolled()
    assert order(t.reload()) == ["Hero", "Brenna", "Orc"]
    next_turn(t)
    e = next_turn(t)  # nothing rolled within the round (FakeRandom has no face)
    assert e.current.name == "Orc" and e.round == 1
    version = e.version
    e = next_turn(t, FakeRandom(1, 5, 9))  # Hero 1, Brenna 5, Orc 9
    assert (e.round, e.current.name, e.version) == (2, "Orc", version + 1)
    assert order(e) == ["Orc", "Brenna", "Hero"]
    assert {c.name: c.initiative for c in e.combatants.all()} == {"Hero": 1, "Brenna": 5,
                                                                "Orc": 9}
    entry = ActionRecord.objects.filter(kind="encounter_initiative").order_by("-id").first()
    assert entry.summary["round"] == 2 and entry.summary["each_round"] is True
    assert entry.summary["order"] == [t.c[n].pk for n in ("Orc", "Brenna", "Hero")]
    assert [r.total for r in entry.rolls.order_by("id")] == [1, 5, 9]  # in entry order
    assert ActionRecord.objects.filter(kind="encounter_initiative").count() == 2


@pytest.mark.django_db
def test_ties_of_the_new_round_break_as_at_the_start(each_round):
    t = rolled()
    next_turn(t)
    next_turn(t)
    e = next_turn(t, FakeRandom(5, 5, 5))  # tie-breaker: the name's length
    assert order(e) == ["Brenna", "Hero", "Orc"]
    assert {c.name: c.tie for c in e.combatants.all()} == {"Brenna": "", "Hero": "tiebreak",
                                                         "Orc": "tiebreak"}


@pytest.mark.django_db
def test_a_late_joiner_and_a_delayer_roll_with_everyone_next_round(each_round):
    t = rolled()
    e = t.reload()
    services.encounter_delay(user=t.alice, encounter_id=e.pk, combatant_id=t.c["Hero"].pk,
                             after_id=t.c["Orc"].pk, turn=e.turn_serial, now=NOW)
    (_late,) = services.combatants_add(user=t.gm, encounter_id=e.pk,
                                       entries=[services.CombatantEntry(name="Wolf")])
    assert order(t.reload()) == ["Brenna", "Orc", "Hero", "Wolf"]
    for _ in range(3):  # Brenna, Orc, Hero (delayed) end; then Wolf plays round 1
        next_turn(t)
    assert t.current_name() == "Wolf"
    e = next_turn(t, FakeRandom(2, 3, 4, 8))  # Hero, Brenna, Orc, Wolf (entry order)
    assert order(e) == ["Wolf", "Orc", "Brenna", "Hero"]  # the delay's place is lost
    assert e.current.name == "Wolf"


@pytest.mark.django_db
def test_the_gms_order_is_kept(each_round):
    t = Table()
    t.start(mode="gm")
    for _ in range(3):
        e = next_turn(t)  # FakeRandom() without faces: nothing may be rolled
    assert e.round == 2 and order(e) == ["Hero", "Brenna", "Orc"]


@pytest.mark.django_db
def test_a_system_rolling_once_keeps_its_rolled_order():
    t = rolled()
    for _ in range(3):
        e = next_turn(t)
    assert e.round == 2 and order(e) == ["Hero", "Brenna", "Orc"]
    assert not ActionRecord.objects.filter(kind="encounter_initiative",
                                           summary__round=2).exists()


@pytest.mark.django_db
def test_removing_the_last_of_the_round_rolls_the_next(each_round):
    t = rolled()
    next_turn(t)
    next_turn(t)
    services.combatant_remove(user=t.gm, encounter_id=t.encounter.pk,
                              combatant_id=t.c["Orc"].pk, now=NOW, rng=FakeRandom(3, 7))
    e = t.reload()
    assert (e.round, order(e), e.current.name) == (2, ["Brenna", "Hero"], "Brenna")
    assert Combatant.objects.get(pk=t.c["Orc"].pk).rank is None


@pytest.mark.parametrize("extra", [0, 27])
def test_next_turn_that_rolls_the_round(db, extra, each_round, django_assert_num_queries):
    t = rolled(extra)
    for _ in range(2 + extra):
        next_turn(t)
    e = t.reload()
    rng = FakeRandom(*[(i % 10) + 1 for i in range(3 + extra)])
    # savepoint, the lock with the combatants (one statement: issue 20), active effects, the
    # ranks' and the scores' one bulk UPDATE, the encounter's UPDATE, the journal's action and
    # rolls, release (10 before issue 20)
    with django_assert_num_queries(8):
        services.encounter_next_turn(user=t.gm, encounter_id=e.pk, turn=e.turn_serial, now=NOW,
                                     rng=rng)
    assert t.reload().round == 2 and rng.exhausted
