"""The Eclipse Phase defence prompt (issue 21, item 4): the card says who attacks (a hidden
attacker is "someone unseen", named nowhere in the fragment nor the API), the weapon, the
firing mode, the damage dice, and each defence's chance to succeed: the pure
``defence_chance`` of the defence test's target as the resolver plans it (fray halved against
a ranged attack; a Moxie flip counted), with its bar; a countdown; the fragment flags the
prompt waiting for its viewer; queries pinned with a prompt pending."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from campaigns import charts
from eclipse.attack import encounter_attack
from eclipse.selectors import params_of
from encounters import services as enc
from gamerules.eclipse_phase.odds import defence_chance
from tests.eclipse_play.conftest import sheet
from tests import factories
from tests.gamerules.fakes import FakeRandom

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _local_cache(settings):
    from django.core.cache import caches

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "eclipse-prompt-tests"}}
    caches["default"].clear()


def _running(ep, first, *, hidden=()):
    people = [first, *(x for x in (ep.ava, ep.bo, ep.guard) if x != first)]
    e = factories.encounter_of(gm=ep.gm, campaign=ep.campaign, characters=people,
                               hidden=hidden, start=True, mode="gm")
    return e, {c.character_id: c for c in e.combatants.all()}


def _page(client, user, e, lang="en"):
    client.force_login(user)
    client.cookies["django_language"] = lang
    return client.get(reverse("encounters:play", args=[e.pk]), **HTMX).content.decode()


def test_the_prompt_shows_the_shot_and_each_defences_own_chance(ep, client):
    e, c = _running(ep, ep.ava)
    step = encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                            target_id=c[ep.bo.pk].pk, weapon_id=ep.w.ava_pistol.pk,
                            mode="BF", range_band="short", rng=FakeRandom(50),
                            now=ep.now)
    assert step.reaction is not None
    assert set(step.reaction.options) == {"none", "dodge", "dodge+moxie"}
    html = _page(client, ep.bob, e)
    assert "Ava attacks Bo: react?" in html
    assert 'data-testid="prompt-attacker">Ava<' in html
    assert 'data-testid="prompt-weapon">Pistol<' in html
    assert 'data-testid="prompt-mode">burst fire (BF)<' in html
    assert 'data-testid="prompt-dice">2d10<' in html
    # Bo's fray 40, halved against a ranged attack: the defence rolls against 20; the Moxie
    # flip turns some failures into successes.
    params = params_of(e)
    dodge, flipped = defence_chance(20, params), defence_chance(20, params, moxie=True)
    assert dodge == Fraction(20, 100)  # readings 00-19
    assert flipped == Fraction(36, 100)  # and 20, 21, 30, 31 ... 90, 91 flipped under 20
    assert (f'data-testid="chance-dodge" data-chance="{charts.percent(dodge)}">'
            f'{charts.percent(dodge)} % to succeed') in html
    assert f'data-testid="chance-dodge+moxie" data-chance="{charts.percent(flipped)}"' in html
    assert "(target 20)" in html and 'data-testid="chance-none"' not in html
    assert html.count('data-testid="chance-bar"') == 2
    assert f'data-deadline="{step.reaction.deadline.isoformat()}"' in html
    assert f'data-alert-prompts="{step.reaction.pk}"' in html
    fr = _page(client, ep.bob, e, "fr")
    assert "Ava attaque Bo : réagir ?" in fr and "Mode de tir" in fr and "de réussite" in fr


def test_a_melee_attack_offers_the_melee_skills_with_their_own_numbers(ep, client):
    e, c = _running(ep, ep.ava)
    encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                     target_id=c[ep.bo.pk].pk, weapon_id=ep.w.ava_knife.pk,
                     rng=FakeRandom(50), now=ep.now)
    html = _page(client, ep.bob, e)
    params = params_of(e)
    assert 'data-testid="prompt-dice">1d10<' in html and 'data-testid="prompt-mode"' not in html
    # fray 40 whole against melee, blades 50
    assert f'data-testid="chance-dodge" data-chance="{charts.percent(defence_chance(40, params))}"' in html
    blades = charts.percent(defence_chance(50, params))
    assert f'data-testid="chance-melee:blades" data-chance="{blades}"' in html


def test_a_hidden_attacker_is_someone_unseen_and_named_nowhere(ep, client):
    e, c = _running(ep, ep.guard, hidden=(ep.guard,))
    step = encounter_attack(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk,
                            target_id=c[ep.bo.pk].pk, weapon_id=ep.w.guard_rifle.pk,
                            mode="FA", range_band="short", rng=FakeRandom(50), now=ep.now)
    assert step.reaction is not None
    html = _page(client, ep.bob, e)
    assert "someone unseen attacks Bo: react?" in html
    assert 'data-testid="prompt-attacker">someone unseen<' in html
    assert 'data-testid="prompt-weapon">Rifle<' in html
    assert 'data-testid="prompt-mode">full automatic (FA)<' in html
    assert 'data-testid="chance-dodge"' in html
    assert "Guard" not in html
    client.force_login(ep.bob)
    api = client.get(f"/api/encounters/{e.pk}/").content.decode()
    assert "Guard" not in api and str(step.reaction.pk) in api
    gm = _page(client, ep.gm, e)
    assert 'data-testid="prompt-attacker">Guard<' in gm and 'data-alert-prompts=""' in gm


@pytest.mark.parametrize("extra", [0, 3])
def test_the_page_with_a_prompt_pending_costs_a_fixed_number_of_queries(
        ep, client, extra, django_assert_num_queries):
    """The prompt's details: one attack context of the attacker and its target (its sheets,
    weapons, armour, the flags read with them), whatever the number of combatants."""
    from characters.models import Character

    e, c = _running(ep, ep.ava)
    pod = ep.sheets[ep.guard.pk].sleeve.template
    more = [Character.objects.create(campaign=ep.campaign, name=f"Drone {i}",
                                     kind=Character.Kind.CREATURE) for i in range(extra)]
    for m in more:
        sheet(m, pod)
    if more:
        enc.combatants_add(user=ep.gm, encounter_id=e.pk,
                           entries=[enc.CombatantEntry(character_id=m.pk) for m in more])
    encounter_attack(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                     target_id=c[ep.bo.pk].pk, weapon_id=ep.w.ava_pistol.pk, mode="SS",
                     range_band="short", rng=FakeRandom(50), now=ep.now)
    client.force_login(ep.bob)
    url = reverse("encounters:play", args=[e.pk])
    client.get(url)
    with django_assert_num_queries(PROMPT_PAGE_QUERIES):
        html = client.get(url).content.decode()
    assert 'data-testid="chance-dodge"' in html


PROMPT_PAGE_QUERIES = 13  # 10 without the prompt's details (the state at a glance reads the
# carried weapons: +1, eclipse.glance): +3, the attack context's
