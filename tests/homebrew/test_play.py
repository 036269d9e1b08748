"""The homebrew system played on the shared encounter (homebrew.play), with scripted dice: an
attack prompts its target, the answer resolves it, prompt, answer and result are ONE journal
entry; a miss ends the turn; a target that cannot react is resolved at once; the posture changes
at the start of the turn only; the attack step's queries do not grow with the combatants."""

from __future__ import annotations

import pytest

from campaigns.models import ActionRecord
from characters.models import Character
from encounters import services as enc
from encounters.errors import EncounterConflict, EncounterForbidden
from encounters.models import PendingReaction
from homebrew import play
from homebrew.errors import GameMasterOnly, PostureAfterActing
from homebrew.models import DeclaredAttack, HomebrewSheet
from tests import factories
from tests.gamerules.fakes import FakeRandom
from tests.homebrew.conftest import make_sheet

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _local_cache(settings):
    from django.core.cache import caches

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "homebrew-play-tests"}}
    caches["default"].clear()


def running(hb, *extra):
    """Aria, Bran, the goblin (and ``extra`` characters), in the GM's order, started."""
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Fight")
    ids = [hb.aria.pk, hb.bran.pk, hb.goblin.pk, *(c.pk for c in extra)]
    enc.combatants_add(user=hb.gm, encounter_id=e.pk,
                       entries=[enc.CombatantEntry(character_id=i) for i in ids])
    enc.encounter_start(user=hb.gm, encounter_id=e.pk, mode="gm")
    e.refresh_from_db()
    by_character = {c.character_id: c for c in e.combatants.all()}
    return e, by_character


def entries(e):
    return list(ActionRecord.objects.filter(summary__encounter=e.pk)
                .prefetch_related("rolls").order_by("id"))


def test_attack_prompts_the_target_and_a_parry_reduces_the_damage_by_its_result(hb):
    make_sheet(hb.bran, posture="defensive", force=4)
    e, c = running(hb)
    # Aria hits Bran with the sword: 40 <= 60, damage 5 on the 1d6.
    step = play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                                 target_id=c[hb.bran.pk].pk,
                                 choices=play.AttackChoices(weapon_id=hb.sword.pk, description="A thrust"),
                                 rng=FakeRandom(40, 5), now=hb.now)
    assert step.reaction is not None and entries(e) == []  # nothing journaled yet
    assert set(step.reaction.options) == {"none", "parry", "dodge"}
    assert [r["label"] for r in step.reaction.rolls] == ["physique", "damage"]
    # Bran parries: a Force test, 3 <= 4, blocks 3 of the 5.
    enc.answer_reaction(user=hb.bob, reaction_id=step.reaction.pk, choice="parry",
                        rng=FakeRandom(3), now=hb.now)
    [entry] = entries(e)
    assert entry.kind == "homebrew_attack"
    assert entry.summary["prompt"]["payload"]["description"] == "A thrust"
    assert entry.summary["answer"]["choice"] == "parry"
    result = entry.summary["result"]
    assert (result["damage_before"], result["blocked"], result["damage"]) == (5, 3, 2)
    rolls = list(entry.rolls.order_by("id"))
    assert [(r.label, r.total, r.grade) for r in rolls] == [
        ("physique", 40, "success"), ("damage", 5, ""), ("force", 3, "success")]
    assert make_sheet(hb.bran).hp == 18
    assert ActionRecord.objects.filter(kind__in=["homebrew_reaction"]).count() == 0
    e.refresh_from_db()
    assert e.current_id == c[hb.aria.pk].pk and e.turn_actions == 1  # a hit: the turn goes on


def test_a_successful_dodge_cancels_the_attack(hb):
    make_sheet(hb.bran, posture="defensive", dexterite=3)
    e, c = running(hb)
    step = play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                                 target_id=c[hb.bran.pk].pk,
                                 choices=play.AttackChoices(weapon_id=hb.sword.pk),
                                 rng=FakeRandom(10, 6), now=hb.now)
    enc.answer_reaction(user=hb.bob, reaction_id=step.reaction.pk, choice="dodge",
                        rng=FakeRandom(2), now=hb.now)
    [entry] = entries(e)
    assert entry.summary["result"]["damage"] == 0 and entry.summary["result"]["success"]
    assert [r.label for r in entry.rolls.order_by("id")] == ["physique", "damage", "dexterite"]
    assert make_sheet(hb.bran).hp == 20


def test_a_miss_ends_the_turn_in_one_entry_without_a_prompt(hb):
    e, c = running(hb)
    step = play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                                 target_id=c[hb.goblin.pk].pk,
                                 choices=play.AttackChoices(weapon_id=hb.sword.pk),
                                 rng=FakeRandom(61), now=hb.now)
    assert step.reaction is None and not PendingReaction.objects.exists()
    [entry] = entries(e)
    assert entry.summary["answer"]["immediate"] and entry.summary["prompt"]["payload"]["grade"] \
        == "failure"
    assert [(r.label, r.total, r.grade) for r in entry.rolls.all()] == [
        ("physique", 61, "failure")]
    e.refresh_from_db()
    assert e.current_id == c[hb.bran.pk].pk  # the turn ended


def test_a_target_with_no_possible_reaction_takes_the_hit_at_once(hb):
    e, c = running(hb)  # the goblin is in offensive posture: no parry, no dodge
    step = play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                                 target_id=c[hb.goblin.pk].pk,
                                 choices=play.AttackChoices(weapon_id=hb.sword.pk),
                                 rng=FakeRandom(20, 3), now=hb.now)
    assert step.reaction is None and step.action_id is not None
    assert make_sheet(hb.goblin).hp == 5
    assert DeclaredAttack.objects.get().resolved_at is not None
    e.refresh_from_db()
    assert e.current_id == c[hb.aria.pk].pk and e.turn_actions == 1


def test_the_posture_changes_at_the_start_of_the_turn_only(hb):
    e, c = running(hb)
    me = c[hb.aria.pk].pk
    play.encounter_posture(user=hb.alice, encounter_id=e.pk, combatant_id=me,
                           posture="defensive", now=hb.now)
    assert make_sheet(hb.aria).posture == "defensive"
    assert [a.kind for a in entries(e)] == ["homebrew_posture"]  # in the encounter's log
    play.encounter_other(user=hb.alice, encounter_id=e.pk, combatant_id=me, name="Bandage Bran",
                         now=hb.now)
    with pytest.raises(PostureAfterActing) as exc:
        play.encounter_posture(user=hb.alice, encounter_id=e.pk, combatant_id=me,
                               posture="offensive", now=hb.now)
    assert exc.value.code == "posture_after_acting"
    assert make_sheet(hb.aria).posture == "defensive"
    with pytest.raises(EncounterConflict) as exc2:  # the other action took the turn's action
        play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=me,
                              target_id=c[hb.goblin.pk].pk, choices=play.AttackChoices(weapon_id=hb.sword.pk),
                              rng=FakeRandom(1, 1), now=hb.now)
    assert exc2.value.code == "action_already_taken"


def test_the_sheet_api_cannot_change_a_fighting_characters_posture(hb):
    from rest_framework.test import APIClient

    from homebrew.errors import PostureInEncounter
    from homebrew.services import posture_set
    api = APIClient()
    api.force_authenticate(hb.alice)
    url = f"/api/homebrew/characters/{hb.aria.pk}/posture/"
    assert api.post(url, {"posture": "defensive"}, format="json").status_code == 200  # no fight
    e, _c = running(hb)
    refused = api.post(url, {"posture": "offensive"}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "posture_in_encounter"
    assert make_sheet(hb.aria).posture == "defensive"
    with pytest.raises(PostureInEncounter):
        posture_set(user=hb.alice, character=hb.aria, posture="offensive", now=hb.now)
    enc.encounter_end(user=hb.gm, encounter_id=e.pk)
    assert api.post(url, {"posture": "offensive"}, format="json").status_code == 200


def test_a_move_is_free_unless_the_gm_marks_it_as_costing_the_action(hb):
    e, c = running(hb)
    me = c[hb.aria.pk].pk
    play.encounter_other(user=hb.alice, encounter_id=e.pk, combatant_id=me, name="", move=True,
                         now=hb.now)
    e.refresh_from_db()
    assert e.turn_actions == 0
    with pytest.raises(GameMasterOnly):
        play.encounter_other(user=hb.alice, encounter_id=e.pk, combatant_id=me, name="far",
                             move=True, costs_action=True, now=hb.now)
    enc.encounter_next_turn(user=hb.gm, encounter_id=e.pk, turn=None)
    enc.encounter_next_turn(user=hb.gm, encounter_id=e.pk, turn=None)  # the goblin's turn
    play.encounter_other(user=hb.gm, encounter_id=e.pk, combatant_id=c[hb.goblin.pk].pk,
                         name="across the ford", move=True, costs_action=True, now=hb.now)
    e.refresh_from_db()
    assert e.turn_actions == 1
    assert [a.kind for a in entries(e)] == ["homebrew_move", "homebrew_move"]


def test_the_gm_marks_a_players_move_as_costing_the_action(hb):
    e, c = running(hb)
    me = c[hb.aria.pk].pk
    play.encounter_other(user=hb.alice, encounter_id=e.pk, combatant_id=me, name="over the wall",
                         move=True, now=hb.now)
    with pytest.raises(EncounterForbidden) as not_gm:
        enc.encounter_spend_action(user=hb.alice, encounter_id=e.pk, turn=None)
    assert not_gm.value.code == "not_game_master"
    enc.encounter_spend_action(user=hb.gm, encounter_id=e.pk, turn=e.turn_serial, now=hb.now)
    with pytest.raises(EncounterConflict) as taken:
        play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=me,
                              target_id=c[hb.goblin.pk].pk, choices=play.AttackChoices(weapon_id=hb.sword.pk),
                              rng=FakeRandom(1, 1), now=hb.now)
    assert taken.value.code == "action_already_taken"
    assert [a.kind for a in entries(e)] == ["homebrew_move", "encounter_action_spent"]


def test_the_homebrew_initiative_rolls_a_d100_with_perception_to_break_ties(hb):
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Rolled")
    enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=i) for i in (hb.aria.pk, hb.goblin.pk)])
    enc.encounter_start(user=hb.gm, encounter_id=e.pk, mode="rolled", rng=FakeRandom(30, 30))
    e.refresh_from_db()
    order = list(e.combatants.order_by("rank").values_list("name", "initiative", "tiebreak"))
    assert order == [("Aria", 30, 50), ("Goblin", 30, 40)]  # Perception 50 before 40
    [initiative] = entries(e)
    assert [r.label for r in initiative.rolls.all()] == ["initiative", "initiative"]


@pytest.mark.parametrize("extra", [0, 27])
def test_the_attack_step_queries_do_not_grow_with_the_combatants(hb, extra,
                                                                  django_assert_num_queries):
    goblins = []
    for i in range(extra):
        g = factories.HomebrewCreatureSheetFactory(
            character__campaign=hb.campaign, character__name=f"Gob {i}", physique=40,
            dexterite=2, hp=5, hp_max=5, mp=10, mp_max=10, posture="defensive").character
        goblins.append(g)
    make_sheet(hb.goblin, posture="defensive")
    e, c = running(hb, *goblins)
    with django_assert_num_queries(ATTACK_QUERIES):
        play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                              target_id=c[hb.goblin.pk].pk, choices=play.AttackChoices(weapon_id=hb.sword.pk),
                              rng=FakeRandom(40, 5), now=hb.now)


# the same with 3 and 30 combatants (11 before issue 20: a nested savepoint; then 9: the
# encounter now locks with its combatants in one statement)
ATTACK_QUERIES = 8


def test_the_player_page_offers_the_attack_with_its_odds_and_posts_it(hb, client, monkeypatch):
    make_sheet(hb.bran, posture="defensive")
    monkeypatch.setattr(play.random, "SystemRandom", lambda: FakeRandom(40, 5))  # a hit
    e, c = running(hb)
    client.force_login(hb.alice)
    page = client.get(f"/encounters/{e.pk}/").content.decode()
    assert 'data-testid="attack-form"' in page and 'data-testid="set-posture"' in page
    assert page.count('data-testid="odds-line"') >= 4  # Bran: none/parry/dodge; the goblin
    response = client.post(f"/homebrew/encounters/{e.pk}/attack/", {
        "combatant": c[hb.aria.pk].pk, "target": c[hb.bran.pk].pk, "weapon": hb.sword.pk,
        "description": "Feint", "turn": e.turn_serial, "page": "play"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert PendingReaction.objects.filter(target=c[hb.bran.pk], status="pending").exists()
    client.force_login(hb.bob)
    bob_page = client.get(f"/encounters/{e.pk}/").content.decode()
    assert 'data-testid="answer-parry"' in bob_page and "Parry" in bob_page
    assert 'data-testid="answer-dodge"' in bob_page


def test_a_posture_change_after_acting_shows_its_keyed_error_on_the_page(hb, client):
    e, c = running(hb)
    me = c[hb.aria.pk].pk
    play.encounter_other(user=hb.alice, encounter_id=e.pk, combatant_id=me, name="Shout",
                         now=hb.now)
    client.force_login(hb.alice)
    response = client.post(f"/homebrew/encounters/{e.pk}/posture/", {
        "combatant": me, "posture": "defensive", "page": "play"}, HTTP_HX_REQUEST="true")
    assert 'data-testid="error"' in response.content.decode()
    assert "start of the turn only" in response.content.decode()


@pytest.mark.parametrize("extra", [0, 27])
def test_a_rolled_start_reads_the_sheets_in_one_query(hb, extra, django_assert_num_queries):
    for i in range(extra):
        factories.HomebrewCreatureSheetFactory(
            character__campaign=hb.campaign, character__name=f"Gob {i}", physique=40,
            dexterite=2, hp=5, hp_max=5, mp=10, mp_max=10)
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Rolled")
    enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=pk) for pk in
        Character.objects.filter(campaign=hb.campaign).values_list("pk", flat=True)])
    with django_assert_num_queries(START_ROLLED_QUERIES):
        enc.encounter_start(user=hb.gm, encounter_id=e.pk, mode="rolled",
                            rng=FakeRandom(*range(1, 4 + extra)))


START_ROLLED_QUERIES = 9  # the same with 3 and 30 combatants (sheets prefetched; 10 before the
# encounter locked with its combatants in one statement)


def test_the_api_plays_the_same_steps_with_keyed_errors(hb, monkeypatch):
    from rest_framework.test import APIClient

    make_sheet(hb.bran, posture="defensive")
    monkeypatch.setattr(play.random, "SystemRandom", lambda: FakeRandom(40, 5))
    e, c = running(hb)
    alice, bob, gm = APIClient(), APIClient(), APIClient()
    alice.force_authenticate(hb.alice)
    bob.force_authenticate(hb.bob)
    gm.force_authenticate(hb.gm)
    base = f"/api/homebrew/encounters/{e.pk}"
    out_of_turn = bob.post(f"{base}/actions/", {"combatant": c[hb.bran.pk].pk, "name": "Wave"},
                           format="json")
    assert out_of_turn.status_code == 409 and out_of_turn.json()["code"] == "not_your_turn"
    hit = alice.post(f"{base}/attack/", {"combatant": c[hb.aria.pk].pk,
                                         "target": c[hb.bran.pk].pk, "weapon": hb.sword.pk,
                                         "turn": e.turn_serial}, format="json")
    assert hit.status_code == 200, hit.json()
    [prompt] = bob.get(f"/api/encounters/{e.pk}/").json()["reactions"]
    monkeypatch.setattr(play.random, "SystemRandom", lambda: FakeRandom(1))
    answered = bob.post(f"/api/reactions/{prompt['id']}/answer/", {"choice": "dodge"},
                        format="json")
    assert answered.status_code == 200, answered.json()
    late = alice.post(f"{base}/posture/", {"combatant": c[hb.aria.pk].pk,
                                           "posture": "defensive"}, format="json")
    assert late.status_code == 409
    assert late.json()["code"] == "posture_after_acting"
    spent = gm.post(f"/api/encounters/{e.pk}/spend-action/", {"turn": e.turn_serial},
                    format="json")
    assert spent.json()["code"] == "action_already_taken"
    assert [a.kind for a in entries(e)] == ["homebrew_attack"]


def test_the_demo_has_an_encounter_ready_to_run_and_playable():
    from config.demo import load_demo
    from campaigns.models import Campaign
    from encounters.models import Encounter
    from homebrew.demo import DEMO_ENCOUNTER

    load_demo(seed=1)
    campaign = Campaign.objects.get(rule_system="homebrew")
    encounter = Encounter.objects.get(campaign=campaign)
    assert (encounter.name, encounter.state) == (DEMO_ENCOUNTER, "setup")
    names = list(encounter.combatants.order_by("position", "pk").values_list("name", flat=True))
    assert names == ["Lysandre", "Tobin", "Gobelin éclaireur", "Gobelin chef", "Loup gris"]
    enc.encounter_start(user=campaign.game_master, encounter_id=encounter.pk, mode="gm")
    encounter.refresh_from_db()
    assert encounter.current.name == "Lysandre"


@pytest.mark.parametrize("extra", [0, 27])
def test_the_players_page_in_turn_has_the_same_queries_with_3_and_30(hb, extra, client,
                                                                      django_assert_num_queries):
    for i in range(extra):
        factories.HomebrewCreatureSheetFactory(
            character__campaign=hb.campaign, character__name=f"Gob {i}", physique=40,
            force=2 + i % 3, dexterite=2, hp=5, hp_max=5, mp=10, mp_max=10,
            posture="defensive")
    e, _c = running(hb, *Character.objects.filter(name__startswith="Gob "))
    client.force_login(hb.alice)
    client.get(f"/encounters/{e.pk}/")  # warm the URL and template caches
    with django_assert_num_queries(PLAY_PAGE_QUERIES):
        page = client.get(f"/encounters/{e.pk}/").content.decode()
    assert page.count('data-testid="odds-line"') >= 2 * (2 + extra)


# The same with 3 and 30 combatants (the odds are computed in memory); no reaction pending, so
# no query for the prompts.
PLAY_PAGE_QUERIES = 7


def test_the_gm_answers_for_an_npc_and_an_ally_may_parry_for_it(hb):

    make_sheet(hb.goblin, posture="defensive")
    wolf = factories.HomebrewCreatureSheetFactory(
        character__campaign=hb.campaign, character__name="Wolf", perception=50, mental=10,
        force=4, dexterite=2, hp=10, hp_max=10, mp=10, mp_max=10, posture="defensive").character
    e, c = running(hb, wolf)
    step = play.encounter_attack(user=hb.alice, encounter_id=e.pk, combatant_id=c[hb.aria.pk].pk,
                                 target_id=c[hb.goblin.pk].pk,
                                 choices=play.AttackChoices(weapon_id=hb.sword.pk),
                                 rng=FakeRandom(30, 6), now=hb.now)
    assert f"parry:{wolf.pk}" in step.reaction.options
    with pytest.raises(EncounterForbidden):
        enc.answer_reaction(user=hb.bob, reaction_id=step.reaction.pk, choice="none",
                            now=hb.now)
    enc.answer_reaction(user=hb.gm, reaction_id=step.reaction.pk, choice=f"parry:{wolf.pk}",
                        rng=FakeRandom(4), now=hb.now)  # the wolf's Force 4: blocks 4 of 6
    [entry] = entries(e)
    assert entry.summary["result"]["for_ally"] and entry.summary["result"]["damage"] == 2
    assert [r.label for r in entry.rolls.order_by("id")] == ["physique", "damage", "force"]
    assert make_sheet(hb.goblin).hp == 6


def test_the_sheet_links_to_the_encounters_a_player_of_the_campaign_may_list(hb, client):
    client.force_login(hb.alice)
    sheet_page = client.get(f"/homebrew/characters/{hb.aria.pk}/").content.decode()
    assert f'href="/encounters/campaign/{hb.campaign.pk}/"' in sheet_page
    assert client.get(f"/encounters/campaign/{hb.campaign.pk}/").status_code == 200  # none yet
    running(hb)
    assert "Fight" in client.get(f"/encounters/campaign/{hb.campaign.pk}/").content.decode()
    client.force_login(factories.user("carol"))  # not in the campaign
    assert client.get(f"/encounters/campaign/{hb.campaign.pk}/").status_code == 404


def test_a_new_encounter_waits_the_campaigns_reaction_timeout(hb):
    assert enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk,
                                name="Default").reaction_timeout_seconds == 30
    hb.campaign.rule_parameters = {"reaction_timeout_seconds": 90}
    hb.campaign.save()
    assert enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk,
                                name="Slow table").reaction_timeout_seconds == 90


def test_the_gm_adds_copies_of_a_creature_each_with_its_own_sheet(hb, client):
    from rest_framework.test import APIClient

    from encounters.errors import EncounterInvalid
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Ambush")
    make_sheet(hb.goblin, hp=3)  # the template is hurt: its copies come fresh
    made = enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(template_id=hb.goblin.pk, count=3, hidden=True)])
    assert [m.name for m in made] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    copies = [m.character for m in made]
    assert len({c.pk for c in copies}) == 3 and hb.goblin.pk not in {c.pk for c in copies}
    for copy in copies:
        sheet = HomebrewSheet.objects.get(character=copy)
        assert copy.kind == Character.Kind.CREATURE and copy.name == made[copies.index(copy)].name
        assert (sheet.physique, sheet.force, sheet.hp, sheet.hp_max) == (50, 2, 8, 8)
        assert list(sheet.weapons.all()) == [hb.claws]
    HomebrewSheet.objects.filter(character=copies[0]).update(hp=1)  # one is hit, not the others
    assert [HomebrewSheet.objects.get(character=c).hp for c in copies] == [1, 8, 8]
    # The next copies take the first free numbers; a player's character is never copied.
    api = APIClient()
    api.force_authenticate(hb.gm)
    body = api.post(f"/api/encounters/{e.pk}/combatants/", {"combatants": [
        {"template": hb.goblin.pk, "count": 2}]}, format="json").json()
    assert [c["name"] for c in body["combatants"]][-2:] == ["Goblin 4", "Goblin 5"]
    before = Character.objects.count()
    with pytest.raises(EncounterInvalid) as refused:
        enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
            enc.CombatantEntry(template_id=hb.aria.pk, count=2)])
    assert refused.value.code == "copies_of_player" and Character.objects.count() == before
    # The control page offers the copies and adds them.
    client.force_login(hb.gm)
    page = client.get(f"/encounters/{e.pk}/control/")
    assert b'data-testid="template"' in page.content
    client.post(f"/encounters/{e.pk}/add/", {"page": "control", "template": hb.goblin.pk,
                                             "count": 1, "name": "Wolf"})
    assert Character.objects.filter(campaign=hb.campaign, name="Wolf 1").exists()


def test_the_encounters_index_lists_the_turn_based_campaigns_one_runs_or_plays(
        hb, client, django_assert_num_queries):
    from campaigns.models import Campaign, RuleSystem
    from encounters.selectors import campaigns_with_encounters
    other = Campaign.objects.create(name="Elsewhere", rule_system=RuleSystem.HOMEBREW)
    Campaign.objects.create(name="A board", rule_system=RuleSystem.ETERNAL_WAR, game_master=hb.gm)
    with django_assert_num_queries(1):
        assert campaigns_with_encounters(user=hb.gm) == [hb.campaign]  # not the board game
    assert campaigns_with_encounters(user=hb.alice) == [hb.campaign]  # she plays Aria there
    stranger = factories.user("stranger")
    assert campaigns_with_encounters(user=stranger) == []
    assert other not in campaigns_with_encounters(user=hb.bob)
    client.force_login(hb.gm)
    page = client.get("/encounters/").content.decode()
    assert f'href="/encounters/campaign/{hb.campaign.pk}/"' in page
    assert 'data-testid="nav-encounters"' in page


@pytest.mark.parametrize("count", [2, 6])
def test_adding_copies_takes_the_same_queries_whatever_their_number(hb, count):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Ambush")
    with CaptureQueriesContext(connection) as ctx:
        enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
            enc.CombatantEntry(template_id=hb.goblin.pk, count=count)])
    statements = [q["sql"] for q in ctx.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == ADD_COPIES_QUERIES, statements
    assert HomebrewSheet.objects.filter(character__name__startswith="Goblin ").count() == count


# Lock, characters, combatants, names taken, characters made, template sheet, sheets made, its
# weapons, weapon rows made, combatants made, encounter saved.
ADD_COPIES_QUERIES = 11


def test_a_new_round_keeps_the_homebrew_order_and_rolls_nothing(hb):
    """The re-roll each round (encounters.hooks.register_initiative_each_round) is not the
    homebrew's: its GM order is kept, and no die is thrown at the round boundary."""
    from encounters import hooks

    assert not hooks.initiative_each_round("homebrew")
    e, c = running(hb)
    before = list(e.combatants.order_by("rank").values_list("pk", flat=True))
    for _ in range(3):
        e.refresh_from_db()
        enc.encounter_next_turn(user=hb.gm, encounter_id=e.pk, turn=e.turn_serial,
                                rng=FakeRandom())
    e.refresh_from_db()
    assert e.round == 2 and e.current_id == c[hb.aria.pk].pk
    assert list(e.combatants.order_by("rank").values_list("pk", flat=True)) == before
    assert not [a for a in entries(e) if a.kind == "encounter_initiative"]
