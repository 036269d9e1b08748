"""The Eclipse Phase actions on the encounter page: the partial in English and French, the
attack posted with htmx prompting the target, the odds fragment, a refusal inside the fragment;
query counts pinned."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import ActionRecord
from eclipse.models import CarriedWeapon, Sleeve
from encounters.models import PendingReaction
from tests.eclipse_play.conftest import running

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _logged(client, user, lang="en"):
    client.force_login(user)
    client.cookies["django_language"] = lang
    return client


def _attack(e, c, ep, **extra):
    return {"page": "play", "turn": e.turn_serial, "combatant": c[ep.ava.pk].pk,
            "target": c[ep.guard.pk].pk, "weapon": ep.w.ava_pistol.pk, "mode": "SS",
            "range_band": "medium", **extra}


def test_the_actions_partial_opens_in_english_and_french(client, ep):
    e, _c = running(ep)
    url = reverse("encounters:play", args=[e.pk])
    html = _logged(client, ep.alice).get(url).content.decode()
    assert 'data-testid="attack-form"' in html and "Attack (complex action)" in html
    assert "This action phase: 0 quick, 0 complex action(s) used." in html
    assert "superior position (+20)" in html  # a row of the seed's tables
    client.cookies["django_language"] = "fr"
    html = client.get(url).content.decode()
    assert "Attaque (action complexe)" in html and "Défense totale (complexe, +30)" in html
    assert "Position supérieure (+20)" in html  # the seed's own words


def test_an_attack_posted_prompts_the_target_whose_page_offers_dodge(client, ep):
    e, c = running(ep)
    response = _logged(client, ep.alice).post(reverse("eclipse_play:attack", args=[e.pk]),
                                              _attack(e, c, ep, situation=["superior_position"]),
                                              **HTMX)
    assert response.status_code == 200
    reaction = PendingReaction.objects.get()
    assert reaction.payload["situations"] == {"superior_position": 1}
    assert reaction.payload["range_band"] == "medium"
    html = _logged(client, ep.gm).get(reverse("encounters:play", args=[e.pk])).content.decode()
    assert 'data-testid="answer-dodge"' in html and ">Dodge<" in html
    assert ">No defence<" in html


def test_a_refusal_comes_back_in_the_fragment_and_changes_nothing(client, ep):
    CarriedWeapon.objects.filter(pk=ep.w.ava_pistol.pk).update(loaded=0)
    e, c = running(ep)
    html = _logged(client, ep.alice, "fr").post(
        reverse("eclipse_play:attack", args=[e.pk]), _attack(e, c, ep), **HTMX).content.decode()
    assert 'data-testid="error"' in html
    assert not PendingReaction.objects.exists() and not ActionRecord.objects.exists()


def test_the_odds_fragment_gives_the_chances_and_the_wounds(client, ep):
    e, c = running(ep)
    response = _logged(client, ep.alice).post(reverse("eclipse_play:odds", args=[e.pk]),
                                              _attack(e, c, ep), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count('data-testid="odds-line"') == 2  # no defence, dodge
    assert "Against Guard" in html and "to hit" in html and 'data-testid="odds-wounds"' in html
    # nothing spent, nothing journaled
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).loaded == 12
    assert not ActionRecord.objects.exists()


@pytest.mark.parametrize("extra", [0, 3])
def test_the_play_page_query_count_is_pinned(client, ep, extra, django_assert_num_queries):
    """10 queries whatever the number of combatants: the encounter's 5 (its prompts cost none
    while none is pending) and the session's, the sheet's sleeve, armour and weapons of the one
    in turn, the campaign's TACNets."""
    from characters.models import Character
    from encounters import services as enc
    from tests.eclipse_play.conftest import sheet

    e, _c = running(ep)
    pod = ep.sheets[ep.guard.pk].sleeve.template
    more = [Character.objects.create(campaign=ep.campaign, name=f"Drone {i}",
                                     kind=Character.Kind.CREATURE) for i in range(extra)]
    for m in more:
        sheet(m, pod)
    if more:
        enc.combatants_add(user=ep.gm, encounter_id=e.pk,
                           entries=[enc.CombatantEntry(character_id=m.pk) for m in more])
    url = reverse("encounters:play", args=[e.pk])
    _logged(client, ep.alice).get(url)
    with django_assert_num_queries(10):  # +1: the environment (gravity, ambush)
        html = client.get(url).content.decode()
    assert html.count('data-testid="combatant"') == 3 + extra


def test_suppressive_fire_posted_from_the_gms_page(client, ep):
    from tests.eclipse_play.test_play import next_turn

    e, c = running(ep)
    next_turn(ep.alice, e)
    next_turn(ep.bob, e)
    e.refresh_from_db()
    html = _logged(client, ep.gm).get(reverse("encounters:play", args=[e.pk])).content.decode()
    assert 'data-testid="suppressive-form"' in html
    client.post(reverse("eclipse_play:suppressive", args=[e.pk]),
                {"page": "play", "turn": e.turn_serial, "combatant": c[ep.guard.pk].pk,
                 "weapon": ep.w.guard_rifle.pk, "zone": [c[ep.ava.pk].pk, c[ep.bo.pk].pk],
                 "cover": [c[ep.ava.pk].pk, c[ep.bo.pk].pk]}, **HTMX)
    entry = ActionRecord.objects.get(kind="eclipse_suppressive")
    assert [t["spared"] for t in entry.summary["targets"]] == ["cover", "cover"]
    assert CarriedWeapon.objects.get(pk=ep.w.guard_rifle.pk).loaded == 0


def test_an_explosive_posted_with_distances(client, ep):
    e, c = running(ep)
    html = _logged(client, ep.alice).get(reverse("encounters:play", args=[e.pk])).content.decode()
    assert 'data-testid="explode-form"' in html
    client.post(reverse("eclipse_play:explode", args=[e.pk]),
                {"page": "play", "turn": e.turn_serial, "combatant": c[ep.ava.pk].pk,
                 "weapon": ep.w.ava_grenade.pk, f"dist-{c[ep.guard.pk].pk}": "50",
                 f"dist-{c[ep.bo.pk].pk}": ""}, **HTMX)
    entry = ActionRecord.objects.get(kind="eclipse_explosion")
    [guard] = entry.summary["targets"]
    assert guard["target"] == "Guard" and guard["dv"] == 0  # 50 m: nothing left of 3d10


@pytest.mark.parametrize("extra", [0, 3])
def test_the_odds_query_count_is_pinned(client, ep, extra, django_assert_num_queries):
    from characters.models import Character
    from encounters import services as enc
    from tests.eclipse_play.conftest import sheet

    e, c = running(ep)
    pod = ep.sheets[ep.guard.pk].sleeve.template
    more = [Character.objects.create(campaign=ep.campaign, name=f"Drone {i}",
                                     kind=Character.Kind.CREATURE) for i in range(extra)]
    for m in more:
        sheet(m, pod)
    if more:
        enc.combatants_add(user=ep.gm, encounter_id=e.pk,
                           entries=[enc.CombatantEntry(character_id=m.pk) for m in more])
    _logged(client, ep.alice).get(reverse("encounters:play", args=[e.pk]))
    with django_assert_num_queries(ODDS_QUERIES):
        html = client.post(reverse("eclipse_play:odds", args=[e.pk]), _attack(e, c, ep),
                           **HTMX).content.decode()
    assert html.count('data-testid="odds-line"') == 2


# the session, user, encounter, combatants, then the attack's context loaded once
# (eclipse.context.attack_context, unlocked): the attacker's and the target's sheets with the
# encounter's gravity, their weapons, their armour, their effects
ODDS_QUERIES = 7


def test_the_form_offers_the_options_and_the_gm_picks_a_mishap_on_the_page(
        client, ep, django_assert_num_queries):
    from eclipse.models import CarriedWeapon
    from encounters import services as enc
    from tests.gamerules.fakes import FakeRandom

    e, c = running(ep)
    html = _logged(client, ep.alice).get(reverse("encounters:play", args=[e.pk])).content.decode()
    for testid in ("other-targets", "attack-subdue", "brace"):
        assert f'data-testid="{testid}"' in html
    response = client.post(reverse("eclipse_play:attack", args=[e.pk]),
                           _attack(e, c, ep, mode="SA", other_target=[c[ep.bo.pk].pk]), **HTMX)
    assert response.status_code == 200
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).loaded == 10
    reaction = e.reactions.get(status="pending", lead__isnull=True)
    assert reaction.payload["others"] == [c[ep.bo.pk].pk]
    prompts = _logged(client, ep.gm).get(reverse("encounters:play", args=[e.pk])).content.decode()
    assert prompts.count('data-testid="reaction"') == 2  # the Guard's and Bo's, at once
    assert prompts.count('data-testid="range-correct"') == 1  # on the first prompt only
    enc.answer_reaction(user=ep.bob, reaction_id=e.reactions.get(lead=reaction).pk,
                        choice="dodge", now=ep.now)  # Bo is prompted too
    enc.answer_reaction(user=ep.gm, reaction_id=reaction.pk, choice="dodge",
                        rng=FakeRandom(15, 11), now=ep.now)  # the Guard's critical
    for user in (ep.alice, ep.bob):  # the Guard's turn: the GM's partial shows
        e.refresh_from_db()
        enc.encounter_next_turn(user=user, encounter_id=e.pk, turn=e.turn_serial)
    gm = _logged(client, ep.gm, "fr")
    url = reverse("encounters:play", args=[e.pk])
    gm.get(url)
    page = gm.get(url).content.decode()
    assert 'data-testid="mishap-form"' in page and "ce qu’a fait le critique" in page
    action = e.campaign.actions.get(kind="eclipse_attack")
    gm.post(reverse("eclipse_play:mishap", args=[e.pk]),
            {"page": "play", "action": action.pk, "state": "destroyed"}, **HTMX)
    assert CarriedWeapon.objects.get(pk=ep.w.ava_pistol.pk).state == "destroyed"
    assert 'data-testid="mishap-form"' not in gm.get(url).content.decode()


def test_the_encounters_effects_are_named_in_the_readers_language(client, ep):
    """The shared encounter lists the effects by their names, stored in English: the system's
    labels name them (full defence, running) in French too."""
    from eclipse.actions import encounter_full_defence

    e, c = running(ep)
    me = c[ep.ava.pk].pk
    encounter_full_defence(user=ep.alice, encounter_id=e.pk, combatant_id=me)
    url = reverse("encounters:play", args=[e.pk])
    html = _logged(client, ep.alice).get(url).content.decode()
    assert "Full defence (+30)" in html
    html = _logged(client, ep.alice, "fr").get(url).content.decode()
    effects = html[html.index('data-testid="effect"'):]
    assert "Full defence (+30)" not in effects[:200]
    assert "Défense totale (+30)" in effects[:200]


def test_the_turn_reads_the_campaigns_numbers(client, ep):
    """Issue 19, item 5: the labels of the actions partial and of the effects give the
    campaign's own parameters, not the seed's (in English and French); the situations rows too."""
    from html import unescape

    from eclipse.actions import encounter_aim

    ep.campaign.rule_parameters = {
        "walk_m": 6, "run_m": 25, "running_malus": 15, "full_defence_bonus": 25,
        "aim_quick_bonus": 5, "aim_complex_bonus": 35, "called_shot_malus": 15,
        "charge_malus": 5, "charge_dv": 15, "two_handed_one_hand_malus": 25,
        "receive_charge_bonus": 25, "subdue_escape_malus": 40,
        "subdue_escape_som_multiplier": 2, "suppressive_rounds": 30, "suppressive_width_m": 15,
        "indirect_fire_malus": 40, "beam_sweep_bonus": 15, "beam_concentration_multiplier": 3,
        "semi_auto_second_target_malus": 25, "spread_m": 2, "blast_dv_per_m": 3,
        "off_hand_malus": 30}
    ep.campaign.save(update_fields=["rule_parameters"])
    e, c = running(ep)
    me = c[ep.ava.pk].pk
    encounter_aim(user=ep.alice, encounter_id=e.pk, combatant_id=me, kind="quick",
                  now=ep.now)
    url = reverse("encounters:play", args=[e.pk])
    html = unescape(_logged(client, ep.alice).get(url).content.decode())
    for seen in ("walk 6 m", "run 25 m (-15)", "Full defence (complex, +25)", "quick (+5)",
                 "complex (+35)", "Called shot (-15)", "Charge (-5, DV +15)",
                 "Two-handed weapon in one hand (-25)", "Wait for a charge (complex, +25",
                 "Frag grenade (3d10, Blast (-3 DV per metre), 1/1)", "Aimed (+5)",
                 "off hand (-30)", "Other targets of the volley (SA -25; BF, FA within 2 m)",
                 "sweep (+15 after a miss)", "concentrate (DV x3", "Indirect fire (-40;"):
        assert seen in html, seen
    for seed in ("walk 4 m", "run 20 m", "quick (+10)", "complex (+30)", "Called shot (-10)",
                 "Charge (-10", "one hand (-20)", "off hand (-20)", "Blast (-2", "SA -20",
                 "Aimed (+10)"):
        assert seed not in html, seed
    french = unescape(_logged(client, ep.alice, "fr").get(url).content.decode())
    for seen in ("marcher 6 m", "courir 25 m (-15)", "Défense totale (complexe, +25)",
                 "Visée (+5)", "Explosion (-3 VD par mètre)"):
        assert seen in french, seen


def test_the_odds_keep_their_context_for_the_encounter_version(client, ep,
                                                               django_assert_num_queries):
    """The second ask of the same version reads no sheet again (eclipse.play_selectors.
    odds_context); a change of the target's sleeve bumps the version and is seen at once."""
    from encounters import services as enc

    Sleeve.objects.filter(owner_id=ep.ava.pk).update(wounds=0)
    e, c = running(ep)
    url = reverse("eclipse_play:odds", args=[e.pk])
    logged = _logged(client, ep.alice)
    first = logged.post(url, _attack(e, c, ep), **HTMX).content.decode()
    with django_assert_num_queries(ODDS_QUERIES - 4):  # session, user, the combatants
        again = client.post(url, _attack(e, c, ep), **HTMX).content.decode()
    assert again == first
    Sleeve.objects.filter(owner_id=ep.guard.pk).update(wounds=3, damage=30)
    enc.characters_changed([ep.guard.pk])
    after = client.post(url, _attack(e, c, ep), **HTMX).content.decode()
    assert after != first and after.count('data-testid="odds-line"') >= 1
