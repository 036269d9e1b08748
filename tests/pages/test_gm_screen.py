"""The game master's screen (characters.gm, /campaigns/<id>/gm/): where a GM lands after login,
every player character's gauges and conditions, the quick actions of each system (each calling
its service, journaled), the encounters with their state; 404 for a player or a stranger on the
screen and on every quick action; its query count pinned at 2 and 10 characters."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import ActionRecord
from characters.models import Character
from eclipse.models import EclipseSheet, Sleeve
from homebrew.models import HomebrewSheet
from magic.models import KnownSpell, Spell
from tests import factories
from tests.factories import (EclipseCampaignFactory, HomebrewCampaignFactory,
                             HomebrewSheetFactory, ItemTemplateFactory, SleeveFactory,
                             UserFactory, encounter_of)

HTMX = {"HTTP_HX_REQUEST": "true"}


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def eclipse(db):
    """An Eclipse Phase campaign of ``gm`` with bob's sleeved character, hurt and stressed."""
    campaign = EclipseCampaignFactory(name="Firewall")
    bob = UserFactory(username="bob")
    sleeve = SleeveFactory(owner__character__campaign=campaign, owner__character__owner=bob,
                           owner__character__name="Ines")
    Sleeve.objects.filter(pk=sleeve.pk).update(damage=12, wounds=1)
    EclipseSheet.objects.filter(pk=sleeve.owner.pk).update(stress=4, moxie=1)
    return campaign, Character.objects.get(pk=sleeve.owner.pk)


def _eclipse_characters(campaign, n: int) -> None:
    for i in range(n):
        SleeveFactory(owner__character__campaign=campaign,
                      owner__character__owner=UserFactory(username=f"p{i}"),
                      owner__character__name=f"Ego {i}")


def _action(campaign, character, key: str) -> str:
    return reverse("campaigns:gm_action", args=[campaign.pk, character.pk, key])


# --- landing --------------------------------------------------------------------------------

def test_a_gm_of_one_campaign_lands_on_its_screen_a_player_on_the_characters(eclipse):
    campaign, ines = eclipse
    gm_landing = client_of(campaign.game_master).get(reverse("campaigns:home"))
    assert gm_landing.status_code == 302
    assert gm_landing["Location"] == reverse("campaigns:gm", args=[campaign.pk])
    player = client_of(ines.owner).get(reverse("campaigns:home"))
    assert player["Location"] == reverse("characters:list")


def test_a_login_goes_through_the_landing(eclipse):
    campaign, _ = eclipse
    response = Client().post(reverse("login"), {"username": "gm",
                                                "password": factories.PASSWORD}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("campaigns:gm", args=[campaign.pk])
    assert 'data-testid="nav-gm"' in response.content.decode()


def test_a_gm_of_several_campaigns_gets_the_list_of_their_screens(eclipse):
    campaign, _ = eclipse
    other = HomebrewCampaignFactory(name="Caves", game_master=campaign.game_master)
    HomebrewCampaignFactory(name="Not mine", game_master=UserFactory(username="gm2"))
    response = client_of(campaign.game_master).get(reverse("campaigns:home"))
    html = response.content.decode()
    assert response.status_code == 200
    assert reverse("campaigns:gm", args=[campaign.pk]) in html
    assert reverse("campaigns:gm", args=[other.pk]) in html
    assert "Not mine" not in html


# --- the screen -----------------------------------------------------------------------------

def test_the_screen_shows_gauges_conditions_actions_and_encounters(eclipse):
    campaign, ines = eclipse
    Sleeve.objects.filter(owner=ines.eclipse).update(damage=40)  # past DUR 30: unconscious
    running = encounter_of(gm=campaign.game_master, campaign=campaign, characters=[ines],
                           name="Ambush", start=True)
    later = encounter_of(gm=campaign.game_master, campaign=campaign, name="Later")
    html = client_of(campaign.game_master).get(reverse("campaigns:gm", args=[campaign.pk])
                                               ).content.decode()
    assert 'data-name="Ines"' in html
    assert '<span data-testid="damage">40</span>/30' in html
    assert '<span data-testid="stress">4</span>' in html
    assert "Moxie: 1/3" in html
    assert '<span class="state">unconscious</span>' in html
    for key in ("heal", "stress", "recover", "moxie"):
        assert _action(campaign, ines, key) in html
    assert "round 1" in html and "not started" in html
    for e in (running, later):
        assert reverse("encounters:control", args=[e.pk]) in html


@pytest.mark.parametrize("who", ["player", "stranger"])
def test_a_player_or_a_stranger_gets_404_on_the_screen_and_every_action(eclipse, who):
    campaign, ines = eclipse
    user = ines.owner if who == "player" else UserFactory(username="eve")
    client = client_of(user)
    before = ActionRecord.objects.count()
    assert client.get(reverse("campaigns:gm", args=[campaign.pk])).status_code == 404
    for key in ("heal", "stress", "recover", "moxie"):
        assert client.post(_action(campaign, ines, key), {"damage": "5", "sv": "3"},
                           **HTMX).status_code == 404
    assert ActionRecord.objects.count() == before


def test_an_unknown_action_or_another_campaigns_character_is_404(eclipse):
    campaign, ines = eclipse
    client = client_of(campaign.game_master)
    assert client.post(_action(campaign, ines, "fireball"), **HTMX).status_code == 404
    other = HomebrewSheetFactory(character__campaign=HomebrewCampaignFactory(
        game_master=campaign.game_master)).character
    assert client.post(_action(campaign, other, "heal"), **HTMX).status_code == 404


@pytest.mark.parametrize("n", [2, 10])
def test_the_screen_queries_do_not_grow_with_the_characters(eclipse, n,
                                                            django_assert_num_queries):
    campaign, _ = eclipse
    _eclipse_characters(campaign, n - 1)
    encounter_of(gm=campaign.game_master, campaign=campaign, name="Fight")
    client = client_of(campaign.game_master)
    # session, user, campaign, characters with their sheets, sleeves, armour, weapons,
    # encounters
    with django_assert_num_queries(8):
        response = client.get(reverse("campaigns:gm", args=[campaign.pk]))
    assert response.content.decode().count('data-testid="gm-row"') == n


# --- the quick actions, each once -----------------------------------------------------------

def test_heal_calls_the_service_and_answers_the_row(eclipse):
    campaign, ines = eclipse
    response = client_of(campaign.game_master).post(
        _action(campaign, ines, "heal"), {"damage": "5", "wounds": "1"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<tr id="gm-row-{ines.pk}"')
    assert '<span data-testid="damage">7</span>' in html and "Ines healed." in html
    assert ActionRecord.objects.filter(kind="eclipse_heal", actor=ines).count() == 1


def test_stress_and_rest_off_stress(eclipse):
    campaign, ines = eclipse
    client = client_of(campaign.game_master)
    client.post(_action(campaign, ines, "recover"), {"stress": "3"}, **HTMX)
    assert EclipseSheet.objects.get(pk=ines.pk).stress == 1
    response = client.post(_action(campaign, ines, "stress"), {"sv": "2"}, **HTMX)
    assert "stress." in response.content.decode()
    assert ActionRecord.objects.filter(kind="eclipse_stress", actor=ines).count() == 1
    assert ActionRecord.objects.filter(kind="eclipse_recover", actor=ines).count() == 1


@pytest.mark.parametrize(("key", "field"), [("heal", "damage"), ("heal", "wounds"),
                                            ("stress", "sv"), ("recover", "stress")])
@pytest.mark.parametrize("value", ["²", "٣", "-1", "99999999999999999999", "1" * 5000, "1e9",
                                   "abc", "1\x00", "1.5"])
def test_a_bad_number_is_refused_in_words_and_changes_nothing(eclipse, key, field, value):
    """"²".isdigit() is true and int("²") fails; 5,000 digits are past int()'s limit: each
    quick action refuses them in words (the row again, 200), never a 500."""
    campaign, ines = eclipse
    before = (Sleeve.objects.get(owner=ines.eclipse).damage,
              EclipseSheet.objects.get(pk=ines.pk).stress)
    response = client_of(campaign.game_master).post(_action(campaign, ines, key),
                                                    {field: value}, **HTMX)
    assert response.status_code == 200
    if (key, value) == ("stress", "-1"):  # dice notation, a constant: 0 stress taken
        assert "Ines takes 0 stress." in response.content.decode()
        assert EclipseSheet.objects.get(pk=ines.pk).stress == before[1]
        return
    assert 'data-testid="error"' in response.content.decode()
    assert (Sleeve.objects.get(owner=ines.eclipse).damage,
            EclipseSheet.objects.get(pk=ines.pk).stress) == before
    assert not ActionRecord.objects.exists()


def test_moxie_refresh_and_its_refusal_in_words(eclipse):
    campaign, ines = eclipse
    client = client_of(campaign.game_master)
    done = client.post(_action(campaign, ines, "moxie"), **HTMX).content.decode()
    assert "Moxie: 3/3" in done
    refused = client.post(_action(campaign, ines, "moxie"), **HTMX)
    assert refused.status_code == 200  # htmx swaps it
    assert 'data-testid="error">Moxie is full (3).' in refused.content.decode()
    assert ActionRecord.objects.filter(kind="eclipse_moxie", actor=ines).count() == 1


def test_without_htmx_an_action_goes_back_to_the_screen_with_a_message(eclipse):
    campaign, ines = eclipse
    response = client_of(campaign.game_master).post(
        _action(campaign, ines, "heal"), {"damage": "x"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("campaigns:gm", args=[campaign.pk])
    assert 'class="error"' in response.content.decode()


def test_the_homebrew_rest_of_one_character(db):
    campaign = HomebrewCampaignFactory(name="Caves")
    sheet = HomebrewSheetFactory(character__campaign=campaign, character__name="Ari",
                                 character__owner=UserFactory(username="bob"), hp=1, mp=0)
    HomebrewSheetFactory(character__campaign=campaign, character__name="Bo", hp=1)
    client = client_of(campaign.game_master)
    page = client.get(reverse("campaigns:gm", args=[campaign.pk])).content.decode()
    assert reverse("homebrew:rest", args=[campaign.pk]) in page  # the rest for everyone
    response = client.post(_action(campaign, sheet.character, "rest"), {"kind": "long"}, **HTMX)
    sheet.refresh_from_db()
    assert sheet.hp == sheet.hp_max and "Ari rests" in response.content.decode()
    assert HomebrewSheet.objects.get(character__name="Bo").hp == 1
    assert ActionRecord.objects.filter(kind="homebrew_rest").count() == 1


def test_eternal_war_grants_an_item_and_a_spell(db):
    campaign = factories.campaign(name="War")
    gm = UserFactory(username="gm")
    campaign.game_master = gm
    campaign.save(update_fields=["game_master"])
    hero = factories.character(owner=UserFactory(username="bob"), campaign=campaign, name="Hero")
    sword = ItemTemplateFactory(name="Sword")
    spell = Spell.objects.create(name="Spark", effect="damage", dice="1d4")
    client = client_of(gm)
    page = client.get(reverse("campaigns:gm", args=[campaign.pk])).content.decode()
    assert 'data-testid="pv"' in page and "Sword" in page and "Spark" in page
    client.post(_action(campaign, hero, "item"), {"item": str(sword.pk)}, **HTMX)
    assert hero.items.filter(template=sword).count() == 1
    response = client.post(_action(campaign, hero, "spell"), {"spell": str(spell.pk)}, **HTMX)
    assert "Hero learns Spark." in response.content.decode()
    assert KnownSpell.objects.filter(character=hero, spell=spell).exists()
    assert ActionRecord.objects.filter(kind__in=["item_grant", "learn"]).count() == 2
    again = client.post(_action(campaign, hero, "spell"), {"spell": str(spell.pk)}, **HTMX)
    assert 'data-testid="error"' in again.content.decode()


def test_the_control_page_links_the_screen_and_the_homebrew_rest(db):
    campaign = HomebrewCampaignFactory(name="Caves")
    encounter = encounter_of(gm=campaign.game_master, campaign=campaign, name="Fight")
    html = client_of(campaign.game_master).get(
        reverse("encounters:control", args=[encounter.pk])).content.decode()
    assert reverse("campaigns:gm", args=[campaign.pk]) in html
    assert reverse("homebrew:rest", args=[campaign.pk]) in html
