"""Co-game masters as a hostile co-GM, a careless GM and a stranger would use them
(campaigns.services.campaign_master_add and campaign_master_remove, campaigns.pages): odd names,
ids out of range, another campaign's co-GM, the game master removed, a removed co-GM's pages;
two additions and removals at once. Each: a clear refusal (never a 500), nothing changed."""

from __future__ import annotations

import pytest

from campaigns.errors import CoMasterRefused, NotCampaignOwner, NotFound
from campaigns.models import Campaign
from campaigns.services import campaign_create, campaign_master_add, campaign_master_remove
from chat.models import To
from chat.services import message_post
from encounters import services as enc
from encounters.errors import EncounterForbidden, EncounterNotFound
from encounters.models import Combatant, Encounter
from homebrew.services import homebrew_character_create
from tests import factories
from tests.concurrency import run_together
from tests.homebrew.conftest import SPREAD, in_view
from tests.homebrew.conftest import build_world as homebrew_world
from tests.permissions.test_co_game_masters import client_of, masters_of

HTMX = {"HTTP_HX_REQUEST": "true"}
HUGE = 99999999999999999999


@pytest.fixture
def hb(alice, bob):
    """The homebrew world with carol its co-GM, a second campaign (``other``) whose co-GM is
    dave, and a stranger."""
    world = homebrew_world(alice, bob)
    world.carol = factories.user("carol")
    world.dave = factories.user("dave")
    world.stranger = factories.user("stranger")
    campaign_master_add(user=world.gm, campaign_id=world.campaign.pk, username="carol")
    world.other = factories.HomebrewCampaignFactory(name="Other", game_master=world.stranger)
    campaign_master_add(user=world.stranger, campaign_id=world.other.pk, username="dave")
    return world


@pytest.mark.parametrize("name", ["carol\x00", "\x00", "car\u202eol", "CAROL", " ", "x" * 5000,
                                  "\uff43\uff41\uff52\uff4f\uff4c", "carol\u200b", "%", "_arol"])
def test_odd_names_are_refused_in_words(hb, name):
    page = client_of(hb.gm).post(f"/campaigns/{hb.campaign.pk}/masters/add/",
                                 {"username": name}, **HTMX)
    assert page.status_code == 200 and 'data-testid="masters-error"' in page.content.decode()
    assert masters_of(hb.campaign) == ([hb.carol.pk], [hb.carol.pk])


def test_ids_out_of_range_are_not_found(hb):
    client = client_of(hb.gm)
    cid = hb.campaign.pk
    assert client.get(f"/campaigns/{HUGE}/masters/").status_code == 404
    assert client.post(f"/campaigns/{HUGE}/masters/add/", {"username": "dave"}).status_code == 404
    removed = client.post(f"/campaigns/{cid}/masters/{HUGE}/remove/", **HTMX)
    assert removed.status_code == 200 and 'data-testid="masters-error"' in removed.content.decode()
    assert masters_of(hb.campaign) == ([hb.carol.pk], [hb.carol.pk])


def test_a_co_game_master_manages_no_one_and_removes_not_the_game_master(hb):
    cid = hb.campaign.pk
    with pytest.raises(NotCampaignOwner):
        campaign_master_add(user=hb.carol, campaign_id=cid, username="dave")
    with pytest.raises(NotCampaignOwner):
        campaign_master_remove(user=hb.carol, campaign_id=cid, master_id=hb.gm.pk)
    with pytest.raises(CoMasterRefused):  # the GM is no co-GM to remove
        campaign_master_remove(user=hb.gm, campaign_id=cid, master_id=hb.gm.pk)
    with pytest.raises(CoMasterRefused) as error:
        campaign_master_add(user=hb.gm, campaign_id=cid, username="gm")
    assert error.value.key == "already_game_master"
    assert masters_of(hb.campaign) == ([hb.carol.pk], [hb.carol.pk])


def test_the_co_game_master_of_another_campaign_does_nothing_here(hb):
    cid = hb.campaign.pk
    with pytest.raises(NotFound):
        campaign_master_add(user=hb.dave, campaign_id=cid, username="dave")
    with pytest.raises(NotFound):
        campaign_master_remove(user=hb.dave, campaign_id=cid, master_id=hb.carol.pk)
    client = client_of(hb.dave)
    e = in_view(hb, hidden=True)
    for url in (f"/campaigns/{cid}/masters/", f"/campaigns/{cid}/gm/", f"/encounters/{e.pk}/",
                f"/encounters/{e.pk}/control/", f"/chat/campaigns/{cid}/"):
        assert client.get(url).status_code == 404, url
    assert client.post(f"/campaigns/{cid}/masters/{hb.carol.pk}/remove/").status_code == 404
    assert masters_of(hb.campaign) == ([hb.carol.pk], [hb.carol.pk])


def test_a_removed_co_game_master_keeps_no_page(hb):
    cid = hb.campaign.pk
    e = in_view(hb, hidden=True)
    client = client_of(hb.carol)
    urls = (f"/campaigns/{cid}/masters/", f"/campaigns/{cid}/gm/", f"/encounters/{e.pk}/",
            f"/encounters/{e.pk}/control/", f"/chat/campaigns/{cid}/",
            f"/api/encounters/{e.pk}/")
    before = [client.get(u).status_code for u in urls]
    assert before == [200] * 6
    for index in ("/encounters/", "/chat/"):
        assert "Homebrew test" in client.get(index).content.decode(), index
    campaign_master_remove(user=hb.gm, campaign_id=cid, master_id=hb.carol.pk)
    after = {u: client.get(u, **HTMX).status_code for u in urls}
    assert set(after.values()) <= {403, 404}, after
    assert "Goblin" not in client.get(f"/encounters/{e.pk}/version/").content.decode()
    for page in ("play", "control"):
        stream = client.get(f"/encounters/{e.pk}/events/", {"page": page})
        assert stream.status_code == 404, page
    for index in ("/encounters/", "/chat/"):  # (/characters/ lists the open campaigns to join)
        listed = client.get(index)
        assert listed.status_code == 200 and "Homebrew test" not in listed.content.decode()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_addition_racing_a_removal_keeps_the_cached_ids_equal_to_the_rows():
    gm = factories.user("gm")
    for name in ("p1", "p2"):
        factories.user(name)
    campaign = factories.HomebrewCampaignFactory(name="Race", game_master=gm)
    p1 = campaign_master_add(user=gm, campaign_id=campaign.pk, username="p1").user
    results = run_together(
        lambda: campaign_master_add(user=gm, campaign_id=campaign.pk, username="p2"),
        lambda: campaign_master_remove(user=gm, campaign_id=campaign.pk, master_id=p1.pk),
        lambda: campaign_master_remove(user=p1, campaign_id=campaign.pk, master_id=p1.pk))
    assert not [r for r in results if isinstance(r, Exception)
                and not isinstance(r, (CoMasterRefused, NotFound))], results
    rows, cached = masters_of(campaign)
    assert rows == cached and len(rows) == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_campaigns_of_one_name_at_once_make_one():
    dana, erin = factories.user("dana"), factories.user("erin")
    results = run_together(
        lambda: campaign_create(user=dana, name="Twins", rule_system="homebrew"),
        lambda: campaign_create(user=erin, name="Twins", rule_system="homebrew"))
    made = [r for r in results if isinstance(r, Campaign)]
    assert len(made) == 1
    assert [r.code for r in results if not isinstance(r, Campaign)] == ["campaign_name_taken"]
    assert Campaign.objects.filter(name="Twins").count() == 1


def test_a_co_game_master_who_plays_too_keeps_only_a_players_view_once_removed(hb):
    cid = hb.campaign.pk
    carla = homebrew_character_create(user=hb.carol, campaign=hb.campaign, name="Carla",
                                      values=SPREAD, now=hb.now)
    e = in_view(hb, hidden=True)
    enc.combatants_add(user=hb.gm, encounter_id=e.pk,
                       entries=[enc.CombatantEntry(character_id=carla.pk)])
    message_post(user=hb.alice, text="The secret door is behind the altar", campaign_id=cid,
                 to=To.GM)
    client = client_of(hb.carol)
    assert "secret door" in client.get(f"/chat/campaigns/{cid}/").content.decode()
    assert "Goblin" in client.get(f"/encounters/{e.pk}/", **HTMX).content.decode()
    campaign_master_remove(user=hb.gm, campaign_id=cid, master_id=hb.carol.pk)
    chat = client.get(f"/chat/campaigns/{cid}/")
    assert chat.status_code == 200 and "secret door" not in chat.content.decode()
    page = client.get(f"/encounters/{e.pk}/", **HTMX)
    assert page.status_code == 200 and "Carla" in page.content.decode()
    assert "Goblin" not in page.content.decode()
    assert client.get(f"/encounters/{e.pk}/control/", **HTMX).status_code == 404
    api = client.get(f"/api/encounters/{e.pk}/").content.decode()
    assert "Carla" in api and "Goblin" not in api


def test_the_co_game_master_of_another_campaign_runs_no_step_here(hb):
    e = in_view(hb, hidden=True)
    goblin = e.combatants.get(character=hb.goblin)
    version = Encounter.objects.get(pk=e.pk).version
    steps = [
        lambda: enc.encounter_start(user=hb.dave, encounter_id=e.pk, now=hb.now),
        lambda: enc.combatant_update(user=hb.dave, encounter_id=e.pk, combatant_id=goblin.pk,
                                     hidden=False),
        lambda: enc.combatants_add(user=hb.dave, encounter_id=e.pk,
                                   entries=[enc.CombatantEntry(name="Spy")]),
        lambda: enc.encounter_create(user=hb.dave, campaign_id=hb.campaign.pk, name="Mine"),
    ]
    for step in steps:
        with pytest.raises((EncounterNotFound, EncounterForbidden)):
            step()
    assert Encounter.objects.get(pk=e.pk).version == version
    assert Combatant.objects.get(pk=goblin.pk).hidden
    assert Encounter.objects.filter(campaign=hb.campaign).count() == 1
