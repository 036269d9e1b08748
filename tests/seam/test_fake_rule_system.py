"""A rule system plugs in through the registry alone: the fake "Fake d100" of
tests/seam/fake_system.py (an in-memory sheet, one action, five templates) is registered, and a
character is created and plays through the shared pages and API; nothing shared is changed.
Unregistered after each test."""

import random
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns import journal, rule_systems
from campaigns.errors import RuleSystemNotPlayable
from campaigns.models import Campaign
from characters.models import Character
from characters.services import character_create
from tests import factories
from tests.seam import fake_system

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).parent / "templates"


@pytest.fixture
def fake(settings):
    rule_systems.register(fake_system.SPEC)
    journal.register_kinds("spar", system=fake_system.CODE)
    engine = {**settings.TEMPLATES[0]}
    engine["DIRS"] = [*engine["DIRS"], TEMPLATES]
    settings.TEMPLATES = [engine]
    yield fake_system
    rule_systems.unregister(fake_system.CODE)
    journal.unregister_kinds("spar")
    fake_system.SHEETS.clear()


@pytest.fixture
def arena(db):
    return Campaign.objects.create(name="Arena", rule_system=fake_system.CODE)


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api_client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_a_character_is_created_from_the_shared_list_page_and_shown_by_the_fake_partials(
        fake, arena, alice):
    client = page_client(alice)

    response = client.post("/characters/", {"campaign": arena.pk, "name": "Nia"})

    nia = Character.objects.get(name="Nia")
    assert response.status_code == 302 and response.url == f"/characters/{nia.pk}/"
    grit = fake.SHEETS[nia.pk].grit
    page = client.get(response.url).content.decode()
    assert f'data-testid="fake-grit">grit {grit}<' in page  # the fake gauges
    assert 'data-testid="fake-sheet"' in page and 'data-testid="fake-marks">0<' in page
    assert f'data-testid="fake-born">Nia arrives with grit {grit}<' in page  # the fake log entry
    assert 'data-testid="stat-FOR"' not in page and 'data-testid="pv"' not in page  # no EW1


def test_one_action_is_journaled_and_shown_in_the_shared_log_and_api(fake, arena, alice):
    api = api_client(alice)
    created = api.post("/api/characters/", {"campaign": arena.pk, "name": "Oto"}, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    oto = Character.objects.get(pk=body["id"])
    assert body["grit"] == fake.SHEETS[oto.pk].grit and body["marks"] == 0
    assert [a["kind"] for a in body["log"]] == ["create"]
    assert "level" not in body and "pv" not in body and "characteristics" not in body

    action = fake.action_spar(user=alice, character_id=oto.pk, rng=random.Random(3))

    detail = api.get(f"/api/characters/{oto.pk}/").json()
    assert [a["kind"] for a in detail["log"]] == ["spar", "create"]
    spar = detail["log"][0]
    assert spar["summary"] == action.summary and spar["rolls"][0]["label"] == "spar"
    assert detail["marks"] == fake.SHEETS[oto.pk].marks == int(action.summary["success"])
    assert detail["attacks"] == 1
    page = page_client(alice).get(f"/characters/{oto.pk}/").content.decode()
    roll = action.summary["roll"]
    assert (f'data-testid="fake-spar">Oto spars: d100 = {roll} / {action.summary["grit"]} '
            f'(sparring)<') in page  # the fake log partial, the fake roll label


def test_the_character_page_of_the_fake_system_runs_a_fixed_number_of_queries(
        fake, arena, alice, django_assert_num_queries):
    client = page_client(alice)
    character = fake.create_character(user=alice, campaign=arena, name="Pim",
                                      rng=random.Random(1), now=timezone.now())
    client.get(f"/characters/{character.pk}/")  # the session's first queries
    # session, user, the character (campaign, sheets, owner, faction), the log and its rolls
    with django_assert_num_queries(5):
        assert client.get(f"/characters/{character.pk}/").status_code == 200


def test_the_shared_list_and_api_list_show_each_system_with_its_own_columns(
        fake, arena, campaign, alice):
    ew1 = factories.character(owner=alice, campaign=campaign, name="Eld")
    fake_one = fake.create_character(user=alice, campaign=arena, name="Fay",
                                     rng=random.Random(2), now=timezone.now())

    page = page_client(alice).get("/characters/").content.decode()

    assert "<th>Grit</th>" in page
    assert f'data-testid="fake-grit-{fake_one.pk}">{fake.SHEETS[fake_one.pk].grit}<' in page
    assert f"<td>{ew1.ew1.pv}/{ew1.ew1.pv_max}</td>" in page  # EW1's cells, in its own table
    rows = {r["name"]: r for r in api_client(alice).get("/api/characters/").json()}
    assert rows["Fay"]["grit"] == fake.SHEETS[fake_one.pk].grit and "pv" not in rows["Fay"]
    assert rows["Eld"]["pv"] == ew1.ew1.pv and "grit" not in rows["Eld"]


def test_the_leaderboard_sorts_on_the_fake_system_column(fake, arena, alice, bob):
    quiet = fake.create_character(user=alice, campaign=arena, name="Quiet",
                                  rng=random.Random(4), now=timezone.now())
    busy = fake.create_character(user=bob, campaign=arena, name="Busy",
                                 rng=random.Random(5), now=timezone.now())
    fake.SHEETS[busy.pk].grit = 100  # every spar succeeds
    for seed in range(2):
        fake.action_spar(user=bob, character_id=busy.pk, rng=random.Random(seed))

    page = page_client(alice).get(f"/campaigns/{arena.pk}/leaderboard/?order=marks")

    html = page.content.decode()
    assert 'data-testid="order-marks"' in html and 'data-testid="order-level"' not in html
    assert 'data-testid="sorted">Marks ▼</th>' in html
    assert html.index("Busy") < html.index("Quiet")
    assert '<td class="sorted">2</td>' in html
    body = api_client(alice).get(f"/api/campaigns/{arena.pk}/leaderboard/?order=marks").json()
    assert [(r["name"], r["marks"]) for r in body["rows"]] == [("Busy", 2), ("Quiet", 0)]
    assert "level" not in body["rows"][0]
    assert quiet.pk != busy.pk


def test_once_unregistered_the_system_is_refused_in_one_place(fake, arena, alice):
    rule_systems.unregister(fake_system.CODE)

    with pytest.raises(RuleSystemNotPlayable) as exc:
        character_create(user=alice, campaign=arena, name="Late", rng=random.Random(1))

    assert exc.value.code == "rule_system_not_playable"
    assert exc.value.key == "rule_system_not_built"
    assert exc.value.message == ("Fake d100 is not built yet: its characters cannot be made nor "
                                 "played here.")
    assert not Character.objects.filter(name="Late").exists()
