"""A character's name is unique in its campaign whatever its case, on every path that makes
one: "ALDRIC" is refused when "Aldric" exists, with the same ``name_taken`` error, whether the
services' check or the database's constraint (``Lower("name")`` and the campaign) refuses it."""

import random

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns.errors import InvalidInput
from characters.models import Character
from characters.services import character_create
from encounters import services as enc
from ew1.creation import draft_roll
from ew1.models import CharacterDraft, EternalWarSheet
from ew1.services import character_create_from_values, piece_create
from homebrew.models import HomebrewSheet
from homebrew.services import homebrew_character_create
from tests import factories
from tests.homebrew.conftest import SPREAD, build_world

pytestmark = pytest.mark.django_db
VALUES = {"FOR": 10, "DEF": 10, "TAI": 10, "INT": 10, "DEX": 10, "LUK": 10}


@pytest.fixture
def aldric(campaign, bob):
    return factories.character(owner=bob, campaign=campaign, name="Aldric")


def taken(exc_info, name="ALDRIC"):
    assert isinstance(exc_info.value, InvalidInput)
    assert (exc_info.value.key, exc_info.value.params) == ("name_taken", {"name": name})
    return True


def test_the_database_refuses_the_same_name_in_another_case(campaign, aldric):
    with pytest.raises(IntegrityError), transaction.atomic():
        Character.objects.create(campaign=campaign, name="ALDRIC")
    other = factories.campaign(name="Elsewhere")
    assert Character.objects.create(campaign=other, name="ALDRIC").pk  # per campaign


def test_the_service_refuses_aldric_in_capitals(campaign, alice, aldric):
    with pytest.raises(InvalidInput) as refused:
        character_create(user=alice, campaign=campaign, name="ALDRIC", rng=random.Random(1))
    assert taken(refused)
    assert list(Character.objects.values_list("name", flat=True)) == ["Aldric"]


def test_past_the_check_the_constraint_gives_the_same_error(campaign, alice, aldric):
    """The insert itself refused (as when two creations race past the check): name_taken, and
    the transaction goes on (the insert was in its own savepoint)."""
    with transaction.atomic():
        with pytest.raises(InvalidInput) as refused:
            character_create_from_values(user=alice, campaign=campaign, name="ALDRIC",
                                         values=VALUES, rng=random.Random(1),
                                         now=timezone.now(), summary={}, rolls=[])
        assert Character.objects.count() == 1  # still usable
    assert taken(refused)
    assert EternalWarSheet.objects.count() == 1


def test_a_draft_cannot_start_with_aldric_in_capitals(campaign, alice, aldric):
    with pytest.raises(InvalidInput) as refused:
        draft_roll(user=alice, campaign=campaign, name="  ALDRIC ", rng=random.Random(1))
    assert taken(refused) and not CharacterDraft.objects.exists()


@pytest.mark.parametrize("name", ["ALDRIC", "aldric"])
def test_the_gm_piece_takes_no_player_name_in_another_case(campaign, aldric, name):
    with pytest.raises(InvalidInput) as refused:
        piece_create(campaign=campaign, kind="creature", name=name, x=0, y=0, pv=10,
                     fixed_reduction=0)
    assert taken(refused, name) and Character.objects.count() == 1


def test_the_api_refuses_aldric_in_capitals(campaign, alice, aldric):
    api = APIClient()
    api.force_authenticate(alice)
    response = api.post("/api/characters/", {"campaign": campaign.pk, "name": "ALDRIC"},
                        format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_input"
    assert "'ALDRIC' already exists" in str(body)
    assert Character.objects.count() == 1


def test_the_creation_page_refuses_aldric_in_capitals(campaign, alice, aldric):
    client = Client()
    client.force_login(alice)
    response = client.post(reverse("characters:list"), {"campaign": campaign.pk,
                                                        "name": "ALDRIC"})
    assert response.status_code == 200
    assert "A character named &#x27;ALDRIC&#x27; already exists" in response.content.decode()
    assert Character.objects.count() == 1 and not CharacterDraft.objects.exists()


# --- homebrew: the same rule, from the shared Character ---------------------------------------

@pytest.fixture
def hb(alice, bob):
    return build_world(alice, bob)  # Aria, Bran and a Goblin creature


def test_homebrew_refuses_aria_in_capitals_everywhere(hb, client):
    with pytest.raises(InvalidInput) as refused:
        homebrew_character_create(user=hb.bob, campaign=hb.campaign, name="ARIA", values=SPREAD)
    assert taken(refused, "ARIA")
    api = APIClient()
    api.force_authenticate(hb.bob)
    response = api.post(f"/api/homebrew/campaigns/{hb.campaign.pk}/characters/",
                        {"name": "aRiA", "characteristics": SPREAD}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_input"
    client.force_login(hb.bob)
    page = client.post(reverse("homebrew:create", args=[hb.campaign.pk]),
                       {"name": "ARIA", "mp_label": "", **{k: str(v) for k, v in SPREAD.items()}})
    assert "already exists" in page.content.decode()
    assert Character.objects.filter(campaign=hb.campaign, name__iexact="aria").count() == 1
    assert HomebrewSheet.objects.count() == 3


def test_copies_skip_the_numbers_taken_in_another_case(hb):
    Character.objects.create(campaign=hb.campaign, name="GOBLIN 1",
                             kind=Character.Kind.CREATURE)
    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Ambush")
    made = enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(template_id=hb.goblin.pk, count=2)])
    assert [m.name for m in made] == ["Goblin 2", "Goblin 3"]


def test_copies_whose_names_were_taken_meanwhile_choose_again(hb, monkeypatch):
    """Another step took "Goblin 1" between the names chosen and the insert (a race): the
    copies choose again, within the same step."""
    from encounters import roster  # where the copies look the names up

    e = enc.encounter_create(user=hb.gm, campaign_id=hb.campaign.pk, name="Ambush")
    real = roster._free_numbers
    calls = []

    def stale(campaign_id, base, count):
        names = real(campaign_id, base, count)
        if not calls:
            Character.objects.create(campaign=hb.campaign, name="goblin 1",
                                     kind=Character.Kind.CREATURE)
        calls.append(names)
        return names

    monkeypatch.setattr(roster, "_free_numbers", stale)
    made = enc.combatants_add(user=hb.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(template_id=hb.goblin.pk, count=2)])
    assert calls == [["Goblin 1", "Goblin 2"], ["Goblin 2", "Goblin 3"]]
    assert [m.name for m in made] == ["Goblin 2", "Goblin 3"]
    assert HomebrewSheet.objects.filter(character__name__in=["Goblin 2", "Goblin 3"]).count() == 2


# --- the admin ----------------------------------------------------------------------------------

def test_the_admin_refuses_aldric_in_capitals_with_a_message(campaign, aldric):
    gm = factories.user("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(gm)
    url = reverse("admin:characters_character_add") + f"?campaign={campaign.pk}"
    page = client.get(url)
    from tests.admin.test_admin_add_forms import form_data
    response = client.post(url, form_data(page, campaign=campaign.pk, kind="creature",
                                          name="ALDRIC"))
    assert response.status_code == 200
    assert "A character with this name already exists in this campaign." in (
        response.content.decode())
    assert Character.objects.count() == 1
