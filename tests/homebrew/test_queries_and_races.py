"""Query counts of the encounter's two homebrew calls (the same with 1 and 4 protectors), the
odds with a parrying ally, and two answers to one attack at once (PostgreSQL)."""

from __future__ import annotations

import random

import pytest

from homebrew.errors import AttackResolved
from homebrew.models import DeclaredAttack, HomebrewSheet
from homebrew.selectors import attack_odds_lines
from homebrew.services import AttackTerms, attack, resolve
from tests.concurrency import run_together
from tests import factories
from tests.gamerules.fakes import FakeRandom
from tests.homebrew.conftest import build_world, make_sheet


def _allies(hb, n):
    allies = []
    for i in range(n):
        allies.append(factories.HomebrewSheetFactory(
            character__campaign=hb.campaign, character__name=f"Guard {i}",
            character__kind="creature", posture="defensive").character)
    return allies


@pytest.mark.django_db
@pytest.mark.parametrize("n", [1, 4])
def test_attack_and_resolve_queries_do_not_grow_with_the_protectors(hb, n,
                                                                   django_assert_num_queries):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(posture="defensive")
    allies = _allies(hb, n)
    # savepoint, sheets (one locked query), weapon, journal (action, rolls, release), attack,
    # release
    with django_assert_num_queries(7):
        a = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 3), protectors=allies,
                   terms=AttackTerms(round_key="1:1"))
    assert len(a.protectors) == n
    # savepoint, the attack (locked), sheets (locked), the changed sheets in one UPDATE, journal
    # (action, rolls), attack update, release (9 before issue 20: one UPDATE per sheet)
    with django_assert_num_queries(8):
        resolve(a, "parry", by=allies[0], rng=FakeRandom(2))
    assert make_sheet(hb.aria).hp == 19


@pytest.mark.django_db
def test_the_odds_list_the_targets_reactions_and_each_ally_who_may_parry(hb):
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(posture="defensive", dexterite=3)
    guard, = _allies(hb, 1)
    lines = attack_odds_lines(actor=make_sheet(hb.goblin), target=make_sheet(hb.aria),
                              weapon=hb.claws, params=hb.campaign.parameters,
                              protectors=[make_sheet(guard)])
    assert [(line.reaction, line.by) for line in lines] == [
        ("none", None), ("parry", None), ("dodge", None), ("parry", "Guard 0")]
    none, _, dodge, _ = lines
    assert none.hit_percent == 50.0 and none.crit_percent == 5.0
    # 1d4, a critical 4 x 3 = 12: no reaction 0-12; a dodge cancels or takes 4 (12 on a crit).
    assert (none.damage_low, none.damage_high) == (0, 12)
    assert sorted(dodge.odds.damage) == [0, 4, 12]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_answers_to_one_attack_at_once_resolve_it_once(alice, bob):
    hb = build_world(alice, bob)
    HomebrewSheet.objects.filter(pk=hb.aria.pk).update(posture="defensive", dexterite=6)
    a = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 4),
               terms=AttackTerms(round_key="1:1"))

    def answer(choice):
        return lambda: resolve(a.pk, choice, rng=random.Random(3), user=hb.alice)

    results = run_together(answer("dodge"), answer("none"))
    done = [r for r in results if isinstance(r, DeclaredAttack)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(done) == 1 and len(refused) == 1 and isinstance(refused[0], AttackResolved), \
        results
    hp = make_sheet(hb.aria).hp
    assert hp in (20, 16)  # the dodge (a Dextérité of 6 always succeeds) or the full 4
