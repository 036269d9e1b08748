"""A fourth d100 system plays in the shared encounter through its registration alone (issue 20,
item 5): the fake "Fake d100" (tests/seam/fake_system.py) brings its pages (/fake/...), its API
route, its demo, its initiative and its turn's actions template, and no shared module names it.
The campaign's rule-system choices and the demo loader find it in the registry."""

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns import rule_systems
from campaigns.forms import CampaignAdminForm
from campaigns.models import ActionRecord, Campaign
from config.demo import load_system_demos
from encounters import services as enc
from tests.seam import fake_system

pytestmark = pytest.mark.django_db

TEMPLATES = __import__("pathlib").Path(__file__).parent / "templates"


@pytest.fixture
def fake(settings):
    fake_system.register()
    engine = {**settings.TEMPLATES[0]}
    engine["DIRS"] = [*engine["DIRS"], TEMPLATES]
    settings.TEMPLATES = [engine]
    yield fake_system
    fake_system.unregister()


@pytest.fixture
def arena(db, fake, alice, bob):
    gm = get_user_model().objects.create_user("arena-gm", password="x")
    campaign = Campaign.objects.create(name="Arena", rule_system=fake.CODE, game_master=gm)
    now = timezone.now()
    fighters = [fake.create_character(user=u, campaign=campaign, name=n, rng=random.Random(n),
                                      now=now) for u, n in ((alice, "Ayo"), (bob, "Bex"))]
    return campaign, gm, fighters


def test_the_registry_offers_the_fourth_system_to_a_new_campaign(fake):
    assert (fake.CODE, "Fake d100") in rule_systems.choices()
    assert (fake.CODE, "Fake d100") in CampaignAdminForm().fields["rule_system"].choices
    assert Campaign._meta.get_field("rule_system").choices[-1] == (fake.CODE, "Fake d100")


def test_a_fourth_system_plays_one_turn_in_an_encounter(fake, arena, alice, bob):
    campaign, gm, (ayo, bex) = arena
    e = enc.encounter_create(user=gm, campaign_id=campaign.pk, name="Bout")
    enc.combatants_add(user=gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (ayo, bex)])
    enc.encounter_start(user=gm, encounter_id=e.pk, mode="rolled", rng=random.Random(7))
    e.refresh_from_db()
    first = e.current
    initiative = ActionRecord.objects.get(kind="encounter_initiative")
    assert [r.label for r in initiative.rolls.all()] == ["initiative", "initiative"]
    player = alice if first.character_id == ayo.pk else bob
    client = Client()
    client.force_login(player)

    page = client.get(reverse("encounters:play", args=[e.pk])).content.decode()
    assert 'data-testid="fake-spar-form"' in page  # the system's actions template, in turn
    assert reverse("fake:spar", args=[e.pk]) == f"/fake/encounters/{e.pk}/spar/"
    answer = client.post(reverse("fake:spar", args=[e.pk]),
                         {"combatant": first.pk, "seed": "1"})

    assert answer.status_code == 302
    spar = ActionRecord.objects.get(kind="spar")
    assert spar.summary["encounter"] == e.pk and spar.actor_id == first.character_id
    assert spar.rolls.get().grade in {"success", "failure", "critical_success",
                                      "critical_failure"}
    e.refresh_from_db()
    assert e.current_id != first.pk  # the spar ended the turn
    again = client.post(reverse("fake:spar", args=[e.pk]), {"combatant": first.pk})
    assert again.status_code == 409 and ActionRecord.objects.filter(kind="spar").count() == 1


def test_its_api_route_plays_the_next_turn_and_refuses_a_stranger(fake, arena, alice, bob):
    campaign, gm, (ayo, bex) = arena
    e = enc.encounter_create(user=gm, campaign_id=campaign.pk, name="Bout")
    enc.combatants_add(user=gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(character_id=c.pk) for c in (ayo, bex)])
    enc.encounter_start(user=gm, encounter_id=e.pk, mode="gm")
    e.refresh_from_db()
    api = APIClient()
    url = f"/api/fake/encounters/{e.pk}/spar/"
    api.force_authenticate(get_user_model().objects.create_user("stranger", password="x"))
    assert api.post(url, {"combatant": e.current_id}, format="json").status_code == 404
    player = alice if e.current.character_id == ayo.pk else bob
    api.force_authenticate(player)

    answer = api.post(url, {"combatant": e.current_id, "seed": 2}, format="json")

    assert answer.status_code == 201 and answer.json()["kind"] == "spar"


def test_the_demo_loader_makes_the_fourth_systems_demo_once(fake, alice, bob):
    gm = get_user_model().objects.create_user("demo-gm", password="x")
    players = {"alice": alice, "bob": bob}
    made = load_system_demos(gm=gm, players=players, now=timezone.now())
    assert fake.DEMO_CAMPAIGN in [c.name for c in made]
    demo = Campaign.objects.get(name=fake.DEMO_CAMPAIGN)
    assert demo.rule_system == fake.CODE
    assert sorted(demo.characters.values_list("name", flat=True)) == ["Alice Fake", "Bob Fake"]
    assert load_system_demos(gm=gm, players=players, now=timezone.now()) == []
