"""The homebrew reaction prompt (issue 21, item 4): the card says who attacks (a hidden attacker
is "someone unseen", named nowhere in the fragment nor the API), the weapon, the damage dice
and the damage rolled, the attack's grade, each answer's chance to succeed (the pure
``reaction_chance``, as ``attack_odds`` counts it) with its bar, and a countdown to the
deadline; the fragment flags the prompt waiting for its viewer; in English and French; the
page's queries pinned with the prompt pending."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from encounters import services as enc
from gamerules.homebrew.attack import AttackKind, Weapon
from gamerules.homebrew.odds import attack_odds, reaction_chance
from gamerules.homebrew.reactions import Reaction, Reactor
from gamerules.homebrew.turn import Posture
from homebrew import play
from tests import factories
from tests.gamerules.fakes import FakeRandom
from tests.homebrew.conftest import make_sheet

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _local_cache(settings):
    from django.core.cache import caches

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "homebrew-prompt-tests"}}
    caches["default"].clear()


def _running(hb, first, *, hidden=()):
    """``first`` then the others of Aria, Bran and the goblin (``hidden`` ones hidden), in
    the GM's order, started."""
    people = [first, *(x for x in (hb.aria, hb.bran, hb.goblin) if x != first)]
    e = factories.encounter_of(gm=hb.gm, campaign=hb.campaign, characters=people,
                               hidden=hidden, start=True, mode="gm")
    return e, {c.character_id: c for c in e.combatants.all()}


def _page(client, user, e, lang="en"):
    client.force_login(user)
    client.cookies["django_language"] = lang
    return client.get(reverse("encounters:play", args=[e.pk]), **HTMX).content.decode()


def test_the_prompt_shows_the_attack_and_each_answers_own_chance(hb, client):
    make_sheet(hb.bran, posture="defensive", force=4, dexterite=2)
    e, c = _running(hb, hb.aria)
    step = play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                                 target_id=c[hb.bran.pk].pk,
                                 choices=play.AttackChoices(weapon_id=hb.sword.pk),
                                 rng=FakeRandom(40, 5), now=hb.now)
    html = _page(client, hb.bob, e)
    assert "Aria attacks Bran: react?" in html
    assert 'data-testid="prompt-attacker">Aria<' in html
    assert 'data-testid="prompt-weapon">Sword<' in html
    assert 'data-testid="prompt-dice">1d6 · rolled 5<' in html
    assert 'data-testid="prompt-grade">Success<' in html
    # The pure odds' numbers: Force 4 and Dextérité 2 on the d6, as attack_odds counts them.
    params = e.campaign.parameters
    reactor = Reactor(4, 2)
    parry = reaction_chance(Reaction.PARRY, reactor, params)
    dodge = reaction_chance(Reaction.DODGE, reactor, params)
    assert (parry, dodge) == (Fraction(2, 3), Fraction(1, 3))
    sword = Weapon("Sword", "1d6", AttackKind.PHYSICAL)
    assert parry == attack_odds(target=60, weapon=sword, params=params, reaction=Reaction.PARRY,
                                reactor=Reactor(4, 2, posture=Posture.DEFENSIVE)
                                ).reaction_success
    assert 'data-testid="chance-parry" data-chance="66.7">66.7 % to succeed' in html
    assert 'data-testid="chance-dodge" data-chance="33.3">33.3 % to succeed' in html
    assert 'data-testid="chance-none"' not in html  # nothing is rolled
    assert html.count('data-testid="chance-bar"') == 2 and 'width="66.667"' in html
    deadline = step.reaction.deadline.isoformat()
    assert f'data-deadline="{deadline}"' in html and 'data-testid="countdown"' in html
    assert f'data-alert-prompts="{step.reaction.pk}"' in html
    # The attacker waits for no prompt: none flagged on her page, nor is it her turn to act.
    alice = _page(client, hb.alice, e)
    assert 'data-alert-prompts=""' in alice and 'data-testid="prompt-attack"' not in alice


def test_the_prompt_in_french(hb, client):
    make_sheet(hb.bran, posture="defensive", force=3)
    e, c = _running(hb, hb.aria)
    play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                          target_id=c[hb.bran.pk].pk, choices=play.AttackChoices(weapon_id=hb.sword.pk),
                          rng=FakeRandom(40, 5), now=hb.now)
    html = _page(client, hb.bob, e, "fr")
    assert "Aria attaque Bran : réagir ?" in html
    assert "Arme" in html and "Dés de dégâts" in html and "obtenu 5" in html
    assert "50.0 % de réussite" in html and "Attaquant" in html


def test_a_hidden_attacker_is_someone_unseen_and_named_nowhere(hb, client):
    make_sheet(hb.bran, posture="defensive", force=4, dexterite=2)
    e, c = _running(hb, hb.goblin, hidden=(hb.goblin,))
    step = play.encounter_attack(user=hb.gm, encounter_id=e.pk, combatant_id=c[hb.goblin.pk].pk,
                                 target_id=c[hb.bran.pk].pk,
                                 choices=play.AttackChoices(weapon_id=hb.claws.pk),
                                 rng=FakeRandom(10, 3), now=hb.now)
    assert step.reaction is not None
    html = _page(client, hb.bob, e)
    assert "someone unseen attacks Bran: react?" in html
    assert 'data-testid="prompt-attacker">someone unseen<' in html
    assert 'data-testid="prompt-weapon">Claws<' in html
    assert 'data-testid="chance-parry" data-chance="66.7"' in html
    assert "Goblin" not in html
    client.force_login(hb.bob)
    api = client.get(f"/api/encounters/{e.pk}/").content.decode()
    assert "Goblin" not in api and str(step.reaction.pk) in api
    # The GM sees who it is; the prompt is a player's to answer: not flagged for the GM.
    gm = _page(client, hb.gm, e)
    assert 'data-testid="prompt-attacker">Goblin<' in gm and 'data-alert-prompts=""' in gm


def test_the_gm_is_flagged_for_a_creatures_prompt_and_an_allys_parry_has_its_force(hb, client):
    from tests import factories

    make_sheet(hb.goblin, posture="defensive", dexterite=1)
    wolf = factories.HomebrewCreatureSheetFactory(
        character__campaign=hb.campaign, character__name="Wolf", force=5, dexterite=2,
        posture="defensive").character
    e, c = _running(hb, hb.aria)
    enc.combatants_add(user=hb.gm, encounter_id=e.pk,
                       entries=[enc.CombatantEntry(character_id=wolf.pk)])
    step = play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                                 target_id=c[hb.goblin.pk].pk,
                                 choices=play.AttackChoices(weapon_id=hb.sword.pk),
                                 rng=FakeRandom(30, 6), now=hb.now)
    html = _page(client, hb.gm, e)
    assert f'data-alert-prompts="{step.reaction.pk}"' in html
    assert f'data-testid="chance-parry:{wolf.pk}" data-chance="83.3"' in html  # Force 5 / 6
    assert 'data-testid="chance-dodge" data-chance="16.7"' in html  # the goblin's own 1 / 6


@pytest.mark.parametrize("extra", [0, 3])
def test_the_page_with_a_prompt_pending_costs_no_more_queries(hb, client, extra,
                                                               django_assert_num_queries):
    """The prompt's details read what the page loaded: the same count at 3 and 6 combatants."""
    from tests import factories

    make_sheet(hb.bran, posture="defensive")
    e, c = _running(hb, hb.aria)
    more = [factories.HomebrewCreatureSheetFactory(character__campaign=hb.campaign,
                                                   character__name=f"Rat {i}").character
            for i in range(extra)]
    if more:
        enc.combatants_add(user=hb.gm, encounter_id=e.pk,
                           entries=[enc.CombatantEntry(character_id=m.pk) for m in more])
    play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                          target_id=c[hb.bran.pk].pk, choices=play.AttackChoices(weapon_id=hb.sword.pk),
                          rng=FakeRandom(40, 5), now=hb.now)
    client.force_login(hb.bob)
    url = reverse("encounters:play", args=[e.pk])
    client.get(url)
    with django_assert_num_queries(PROMPT_PAGE_QUERIES):
        html = client.get(url).content.decode()
    assert 'data-testid="chance-parry"' in html


PROMPT_PAGE_QUERIES = 7  # as without a prompt (tests/homebrew/test_play.py: PLAY_PAGE_QUERIES)


def test_the_turn_is_flagged_for_its_player_and_a_creatures_for_the_gm(hb, client):
    e, _c = _running(hb, hb.aria)
    key = f'data-alert-turn="{e.pk}-{e.turn_serial}"'
    assert key in _page(client, hb.alice, e)
    assert 'data-alert-turn=""' in _page(client, hb.bob, e)
    assert 'data-alert-turn=""' in _page(client, hb.gm, e)  # a player's turn: not the GM's
    e, _c = _running(hb, hb.goblin)
    assert f'data-alert-turn="{e.pk}-{e.turn_serial}"' in _page(client, hb.gm, e)
    assert 'data-alert-turn=""' in _page(client, hb.alice, e)
