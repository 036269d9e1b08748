"""The homebrew pages in the campaign's own numbers and in words (issue 19, item 5): the
sheet's test hint and the creation page's budget read the campaign's parameters; an attack no
reaction can answer says why in the journal, and a prompt says why a parry or a dodge is not
offered, in English and in French."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from encounters import services as enc
from homebrew import play
from tests.gamerules.fakes import FakeRandom
from tests.homebrew.conftest import make_sheet
from tests.homebrew.test_play import running

pytestmark = pytest.mark.django_db


def _get(client, user, url, lang="en") -> str:
    client.force_login(user)
    client.cookies["django_language"] = lang
    response = client.get(url)
    assert response.status_code == 200
    return unescape(response.content.decode())


def _parameters(hb, **overrides):
    hb.campaign.rule_parameters = overrides
    hb.campaign.save(update_fields=["rule_parameters"])


def _hint(html: str) -> str:
    return html.split('data-testid="test-hint">')[1].split("</p>")[0]


def test_the_sheet_hint_gives_the_campaigns_critical_bands_and_sub_die(client, hb):
    _parameters(hb, critical_success_max=3, critical_failure_min=91, sub_test_sides=8)
    for url in (reverse("characters:detail", args=[hb.aria.pk]),
                reverse("homebrew:sheet", args=[hb.aria.pk])):
        hint = _hint(_get(client, hb.alice, url))
        assert hint == ("A characteristic succeeds with 1d100 at or under its value (1-3: "
                        "critical success, 91-100: critical failure); a sub succeeds with 1d8 at "
                        "or under its value."), url
        french = _hint(_get(client, hb.alice, url, "fr"))
        assert "(1-3 : réussite critique, 91-100 : échec critique)" in french
        assert "1d8" in french


def test_a_campaign_without_criticals_says_so(client, hb):
    _parameters(hb, critical_success_max=0, critical_failure_min=101)
    hint = _hint(_get(client, hb.alice, reverse("homebrew:sheet", args=[hb.aria.pk])))
    assert "(no critical success or failure)" in hint and "96" not in hint
    _parameters(hb, critical_success_max=1, critical_failure_min=100)
    hint = _hint(_get(client, hb.alice, reverse("homebrew:sheet", args=[hb.aria.pk])))
    assert "(1: critical success, 100: critical failure)" in hint


def test_the_creation_page_gives_the_campaigns_budget_and_bounds(client, hb):
    _parameters(hb, characteristic_points=150, spend_all_points=False, characteristic_min=10,
                characteristic_max=80, sub_max=5)
    html = _get(client, hb.alice, reverse("homebrew:create", args=[hb.campaign.pk]))
    assert ("Share at most 150 points between Physique, Perception and Mental, each from 10 to "
            "80. Each one's two subs share as many points as its tens (60 gives 6), at most 5 "
            "each.") in html
    assert 'min="10" max="80" data-testid="field-physique"' in html
    assert 'max="5" data-testid="field-force"' in html


def _log(html: str) -> str:
    start = html.index('data-testid="log"')
    return " ".join(html[start:html.index("</ol>", start)].split())


@pytest.mark.parametrize("lang, why", [
    ("en", "reaction: none possible (Goblin is in offensive posture)"),
    ("fr", "réaction: aucune possible (Goblin est en posture offensive)")])
def test_an_attack_no_reaction_can_answer_says_why(client, hb, lang, why):
    e, c = running(hb)  # the goblin is in offensive posture
    play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                          target_id=c[hb.goblin.pk].pk, choices=play.AttackChoices(weapon_id=hb.sword.pk),
                          rng=FakeRandom(20, 3), now=hb.now)
    assert why in _log(_get(client, hb.gm, reverse("encounters:play", args=[e.pk]), lang))


def test_each_reason_a_reaction_is_impossible(client, hb):
    """A miss; a target surprised in round 1; a magical attack on a defensive target who lost
    its dodge this round (each reaction its own reason)."""
    make_sheet(hb.bran, posture="defensive")
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Ford")
    enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=hb.aria.pk),
        enc.CombatantEntry(character_id=hb.bran.pk, surprised=True),
        enc.CombatantEntry(character_id=hb.goblin.pk)])
    enc.encounter_start(user=hb.gm, encounter_id=e.pk, mode="gm")
    c = {x.character_id: x for x in e.combatants.all()}
    _until(hb, e, c[hb.aria.pk])
    play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                          target_id=c[hb.bran.pk].pk, choices=play.AttackChoices(weapon_id=hb.sword.pk),
                          rng=FakeRandom(30, 2), now=hb.now)
    _until(hb, e, c[hb.goblin.pk])
    play.encounter_attack(user=hb.gm, encounter_id=e.pk, combatant_id=c[hb.goblin.pk].pk,
                          target_id=c[hb.aria.pk].pk, choices=play.AttackChoices(weapon_id=hb.claws.pk),
                          rng=FakeRandom(90), now=hb.now)
    log = _log(_get(client, hb.gm, reverse("encounters:play", args=[e.pk])))
    assert "reaction: none possible (Bran is surprised in its first turn)" in log
    assert "reaction: none possible (the attack missed)" in log
    # round 2: Bran lost his dodge this round, then a fireball (no parry against magic)
    _until(hb, e, c[hb.aria.pk])
    e.refresh_from_db()
    assert e.round == 2
    sheet = make_sheet(hb.bran)
    sheet.dodge_lost_round = play.round_key(e)
    sheet.save(update_fields=["dodge_lost_round"])
    play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                          target_id=c[hb.bran.pk].pk, choices=play.AttackChoices(weapon_id=hb.fireball.pk),
                          rng=FakeRandom(20, 4), now=hb.now)
    log = _log(_get(client, hb.gm, reverse("encounters:play", args=[e.pk])))
    assert ("reaction: none possible (parry: a magical attack cannot be parried; dodge: Bran "
            "failed a dodge this round)") in log


def _until(hb, e, combatant):
    """The GM moves the turns on until ``combatant``'s (a dozen turns at most)."""
    for _ in range(12):
        e.refresh_from_db()
        if e.current_id == combatant.pk:
            return
        enc.encounter_next_turn(user=hb.gm, encounter_id=e.pk, turn=e.turn_serial)
    raise AssertionError(f"{combatant.name}'s turn never came")


@pytest.mark.parametrize("lang, why", [
    ("en", "Parry not possible: a magical attack cannot be parried"),
    ("fr", "Parade impossible : une attaque magique ne se pare pas")])
def test_a_prompt_says_why_a_reaction_is_not_offered(client, hb, lang, why):
    make_sheet(hb.bran, posture="defensive")
    e, c = running(hb)
    step = play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                                 target_id=c[hb.bran.pk].pk,
                                 choices=play.AttackChoices(weapon_id=hb.fireball.pk),
                                 rng=FakeRandom(20, 4), now=hb.now)
    assert set(step.reaction.options) == {"none", "dodge"}
    html = _get(client, hb.bob, reverse("encounters:play", args=[e.pk]), lang)
    card = html[html.index('data-testid="reaction"'):]
    assert why in card[:card.index('id="enc-turn"')]  # in the prompt's card
