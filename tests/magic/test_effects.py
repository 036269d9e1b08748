"""Shields (Bouclier, Protection, Barrière): how long they hold, that the strongest applies, and
the cleanup of expired ones (magic.effects, magic.tasks).

Seed, "Sorts de base": "Bouclier : Réduit les dégâts de 1d4+1 / 24h"; "Sorts de zone":
"Barrière : Réduit les dégâts de 1d4+1 pour tous les alliés / 24h".
"""

from datetime import timedelta

import pytest
from django.conf import settings

from combat.services import action_attack
from magic.casting import spell_cast
from magic.effects import effects_expire, shield_of
from magic.models import ActiveEffect
from magic.tasks import expire_effects
from tests.gamerules.fakes import FakeRandom
from tests.magic.conftest import DEF_FAIL, NOW, ally, character, fetch, teach

HIT = 55
DAY = timedelta(hours=24)
SECOND = timedelta(seconds=1)
# Foe's brawl on the mage: hit (50 <= 90), no dodge (12 is not < 12), 1d4 = 4, three DEF rolls
# lost: 4 - 1 = 3 PV without a shield.
BRAWL = (50, 12, 4, DEF_FAIL, DEF_FAIL, DEF_FAIL)


def shield(user, caster, spell, x, y, face, *, now=NOW):
    return spell_cast(user=user, character_id=caster.pk, spell_id=spell.pk, x=x, y=y,
                      rng=FakeRandom(HIT, face), now=now)


def brawl(user, attacker, target, *, now):
    rng = FakeRandom(*BRAWL)
    result = action_attack(user=user, character_id=attacker.pk, target_id=target.pk,
                           kind="brawl", rng=rng, now=now)
    assert rng.exhausted
    return result.outcome


@pytest.fixture
def bouclier(mage, spells):
    teach(mage, spells["Bouclier"])
    return spells["Bouclier"]


def test_a_shield_reduces_an_attacks_damage(alice, bob, mage, foe, bouclier):
    without = brawl(bob, foe, mage, now=NOW)
    result = shield(alice, mage, bouclier, 5, 5, 1)  # 1d4+1 = 2
    with_shield = brawl(bob, foe, mage, now=NOW)

    assert result.targets == [{"id": mage.pk, "name": "Mage", "shield": 2,
                               "until": (NOW + DAY).isoformat()}]
    assert (without.reduction, without.pv_lost) == (1, 3)
    assert (with_shield.reduction, with_shield.pv_lost) == (3, 1)
    assert fetch(mage).ew1.pv == 100 - 3 - 1


def test_a_shield_lasts_its_duration(alice, mage, bouclier):
    shield(alice, mage, bouclier, 5, 5, 3)

    effect = ActiveEffect.objects.get()
    assert (effect.target_id, effect.caster_id, effect.amount, effect.expires_at) == (
        mage.pk, mage.pk, 4, NOW + DAY)
    assert shield_of(mage.pk, NOW + DAY - SECOND) == 4
    assert shield_of(mage.pk, NOW + DAY) == 0


def test_a_shield_holds_until_the_last_second_and_not_at_24_hours(alice, bob, mage, foe,
                                                                  bouclier):
    shield(alice, mage, bouclier, 5, 5, 1)

    last_second = brawl(bob, foe, mage, now=NOW + DAY - SECOND)
    at_24_hours = brawl(bob, foe, mage, now=NOW + DAY)

    assert last_second.pv_lost == 1
    assert at_24_hours.pv_lost == 3  # expires_at == now: gone, though the cleanup never ran
    assert ActiveEffect.objects.count() == 1


def test_a_shield_reduces_spell_damage_too(alice, bob, mage, foe, bouclier, spells):
    shield(alice, mage, bouclier, 6, 5, 1)  # on the adjacent foe
    teach(mage, spells["Boule de feu"])
    result = spell_cast(user=alice, character_id=mage.pk, spell_id=spells["Boule de feu"].pk,
                        x=6, y=5, rng=FakeRandom(HIT, 5, DEF_FAIL, DEF_FAIL, DEF_FAIL), now=NOW)

    assert result.targets[0]["reduction"] == 1 + 2
    assert result.targets[0]["pv_lost"] == 6 - 3


def test_recasting_the_same_shield_replaces_it(alice, mage, bouclier):
    later = NOW + timedelta(hours=5)
    shield(alice, mage, bouclier, 5, 5, 4)
    shield(alice, mage, bouclier, 5, 5, 1, now=later)

    effect = ActiveEffect.objects.get()
    assert (effect.amount, effect.expires_at) == (2, later + DAY)
    assert shield_of(mage.pk, later) == 2


def test_shields_do_not_add_up_the_strongest_applies(alice, bob, mage, foe, spells):
    teach(mage, spells["Bouclier"], spells["Protection"])
    shield(alice, mage, spells["Bouclier"], 5, 5, 1)  # 2
    spell_cast(user=alice, character_id=mage.pk, spell_id=spells["Protection"].pk, x=5, y=5,
               rng=FakeRandom(HIT, 1, 1), now=NOW)  # 2d4+2 = 4

    assert ActiveEffect.objects.count() == 2
    assert shield_of(mage.pk, NOW) == 4
    assert brawl(bob, foe, mage, now=NOW).reduction == 1 + 4


def test_a_barrier_shields_every_ally_in_the_zone(alice, bob, carol, mage, campaign, spells):
    teach(mage, spells["Barrière"])
    friend = character(bob, campaign, "Friend", (7, 5))
    enemy = character(carol, campaign, "Enemy", (6, 6))
    ally(mage, friend)

    shield(alice, mage, spells["Barrière"], 6, 5, 3)

    assert sorted(ActiveEffect.objects.values_list("target_id", "amount")) == [
        (mage.pk, 4), (friend.pk, 4)]
    assert shield_of(enemy.pk, NOW) == 0


def test_a_failed_shield_creates_nothing(alice, mage, bouclier):
    spell_cast(user=alice, character_id=mage.pk, spell_id=bouclier.pk, x=5, y=5,
               rng=FakeRandom(HIT + 1), now=NOW)

    assert not ActiveEffect.objects.exists()


# --- cleanup -------------------------------------------------------------------------------------

@pytest.fixture
def effects(mage, foe, spells):
    """Four shields: expired an hour ago, expiring right now, a second from now, tomorrow."""
    rows = {"old": NOW - timedelta(hours=1), "now": NOW, "soon": NOW + SECOND, "late": NOW + DAY}
    return {name: ActiveEffect.objects.create(target=mage, caster=mage,
                                              spell=spells["Bouclier"], amount=2, expires_at=at)
            for name, at in rows.items()}


def test_effects_expire_deletes_only_expired_ones_in_one_statement(effects,
                                                                   django_assert_num_queries):
    with django_assert_num_queries(1):
        deleted = effects_expire(now=NOW)

    assert deleted == 2
    assert set(ActiveEffect.objects.values_list("pk", flat=True)) == {
        effects["soon"].pk, effects["late"].pk}


def test_effects_expire_twice_changes_nothing_more(effects):
    effects_expire(now=NOW)
    assert effects_expire(now=NOW) == 0
    assert ActiveEffect.objects.count() == 2


def test_the_task_deletes_what_has_expired_by_now(effects, mage):
    ActiveEffect.objects.filter(pk=effects["late"].pk).update(expires_at=NOW + 1000 * DAY)

    assert expire_effects.apply().get() == 3  # the fixed NOW is in the past

    assert list(ActiveEffect.objects.values_list("pk", flat=True)) == [effects["late"].pk]


def test_the_beat_schedule_runs_the_cleanup_every_15_minutes():
    from config.celery import app

    app.loader.import_default_modules()
    [entry] = [e for e in settings.CELERY_BEAT_SCHEDULE.values()
               if e["task"] == "magic.tasks.expire_effects"]
    assert entry["schedule"] == timedelta(minutes=15)
    assert entry["options"]["expires"] <= entry["schedule"].total_seconds()
    task = app.tasks["magic.tasks.expire_effects"]
    assert 0 < task.soft_time_limit < task.time_limit



# Issue 8, item 8: the seed gives "/ 24h" to Bouclier and Barrière only; "Protection : Réduit
# les dégâts de 2d4+2" has no duration of its own and lasts the campaign's
# shield_duration_hours.
@pytest.fixture
def protection(mage, spells):
    spells["Protection"].duration_hours = 0
    spells["Protection"].save(update_fields=["duration_hours"])
    teach(mage, spells["Protection"])
    return spells["Protection"]


@pytest.mark.parametrize("overrides, hours", [({}, 24), ({"shield_duration_hours": 6}, 6),
                                              ({"shield_duration_hours": 1}, 1)])
def test_a_shield_without_its_own_duration_lasts_the_campaign_parameter(
        alice, mage, protection, overrides, hours):
    from tests.magic.conftest import set_parameters

    set_parameters(mage, **overrides)
    result = spell_cast(user=alice, character_id=mage.pk, spell_id=protection.pk, x=5, y=5,
                        rng=FakeRandom(HIT, 1, 2), now=NOW)  # 2d4+2 = 1 + 2 + 2
    assert result.targets[0]["shield"] == 5
    until = NOW + timedelta(hours=hours)
    assert result.targets[0]["until"] == until.isoformat()
    assert ActiveEffect.objects.get(target=mage).expires_at == until
    assert shield_of(mage.pk, until - SECOND) > 0
    assert shield_of(mage.pk, until) == 0


def test_a_shield_with_its_own_duration_ignores_the_parameter(alice, mage, bouclier):
    from tests.magic.conftest import set_parameters

    set_parameters(mage, shield_duration_hours=6)
    result = shield(alice, mage, bouclier, 5, 5, 1)
    assert result.targets[0]["until"] == (NOW + DAY).isoformat()


@pytest.mark.django_db
def test_the_demo_protection_has_no_duration_of_its_own_unlike_bouclier_and_barriere():
    from config.demo import load_demo
    from magic.models import Spell

    load_demo(seed=1)
    hours = dict(Spell.objects.filter(effect="shield").values_list("name", "duration_hours"))
    assert hours == {"Bouclier": 24, "Barrière": 24, "Protection": 0}
