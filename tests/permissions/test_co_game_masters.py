"""Co-game masters (issue 22, item 1; docs/campaigns.md): the game master adds and removes
them; a co-GM oversees the campaign everywhere the GM does (campaigns.permissions.oversees:
every system's pages, the GM's screen, the encounter and its roster) at the same query counts;
only the GM (and staff) manages them. A table of roles against the masters' pages; bad input
and refusals answer in words, nothing changed; two additions at once keep the ids cached on
the campaign equal to its rows."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.errors import CoMasterRefused, NotCampaignOwner, NotFound
from campaigns.models import Campaign, CampaignMaster
from campaigns.permissions import oversees
from campaigns.services import campaign_master_add, campaign_master_remove
from encounters import selectors as enc_selectors
from tests import factories
from tests.concurrency import run_together
from tests.homebrew.conftest import build_world as homebrew_world
from tests.homebrew.conftest import in_view

HTMX = {"HTTP_HX_REQUEST": "true"}


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def masters_of(campaign) -> tuple[list[int], list[int]]:
    """(the rows' user ids, the ids cached on the campaign): always equal."""
    rows = sorted(CampaignMaster.objects.filter(campaign=campaign).values_list("user_id",
                                                                              flat=True))
    return rows, Campaign.objects.get(pk=campaign.pk).co_master_ids


@pytest.fixture
def hb(alice, bob):
    """The homebrew world (its GM, alice's Aria, bob's Bran, a goblin) with carol its co-GM,
    dave a second co-GM, a stranger and a staff member."""
    world = homebrew_world(alice, bob)
    world.carol = factories.user("carol")
    world.dave = factories.user("dave")
    world.stranger = factories.user("stranger")
    world.staff = factories.user("staffer", is_staff=True)
    for name in ("carol", "dave"):
        campaign_master_add(user=world.gm, campaign_id=world.campaign.pk, username=name)
    return world


# --- the service -------------------------------------------------------------------------

def test_the_game_master_adds_and_removes_a_co_game_master(hb):
    campaign = Campaign.objects.get(pk=hb.campaign.pk)
    assert masters_of(campaign) == ([hb.carol.pk, hb.dave.pk], [hb.carol.pk, hb.dave.pk])
    assert oversees(hb.carol, campaign) and not oversees(hb.stranger, campaign)
    campaign_master_remove(user=hb.gm, campaign_id=campaign.pk, master_id=hb.carol.pk)
    campaign = Campaign.objects.get(pk=campaign.pk)
    assert masters_of(campaign) == ([hb.dave.pk], [hb.dave.pk])
    assert not oversees(hb.carol, campaign)


@pytest.mark.parametrize(("name", "key"), [
    ("nobody", "no_such_user"), ("", "no_such_user"), ("ca\x00rol", "no_such_user"),
    ("x" * 400, "no_such_user"), ("gm", "already_game_master"), ("carol", "already_co_master"),
    (" carol ", "already_co_master"), ("gone", "no_such_user"),
])
def test_an_addition_refused_says_why_and_changes_nothing(hb, name, key):
    factories.user("gone", is_active=False)
    before = masters_of(hb.campaign)
    with pytest.raises(CoMasterRefused) as refused:
        campaign_master_add(user=hb.gm, campaign_id=hb.campaign.pk, username=name)
    assert refused.value.key == key and refused.value.code == "co_master_refused"
    assert masters_of(hb.campaign) == before


def test_only_the_game_master_manages_co_game_masters(hb):
    before = masters_of(hb.campaign)
    with pytest.raises(NotCampaignOwner):  # a co-GM adds nobody, removes no other co-GM
        campaign_master_add(user=hb.carol, campaign_id=hb.campaign.pk, username="bob")
    with pytest.raises(NotCampaignOwner):
        campaign_master_remove(user=hb.carol, campaign_id=hb.campaign.pk, master_id=hb.dave.pk)
    for outsider in (hb.alice, hb.stranger):  # a player, a stranger: no such campaign
        with pytest.raises(NotFound):
            campaign_master_add(user=outsider, campaign_id=hb.campaign.pk, username="bob")
        with pytest.raises(NotFound):
            campaign_master_remove(user=outsider, campaign_id=hb.campaign.pk,
                                   master_id=hb.carol.pk)
    with pytest.raises(NotFound):
        campaign_master_add(user=hb.gm, campaign_id=10**9, username="bob")
    with pytest.raises(CoMasterRefused):
        campaign_master_remove(user=hb.gm, campaign_id=hb.campaign.pk, master_id=hb.bob.pk)
    assert masters_of(hb.campaign) == before


def test_a_co_game_master_steps_down(hb):
    client = client_of(hb.carol)
    response = client.post(reverse("campaigns:master_remove", args=[hb.campaign.pk, hb.carol.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("characters:list")
    assert masters_of(hb.campaign) == ([hb.dave.pk], [hb.dave.pk])
    assert client.get(reverse("campaigns:gm", args=[hb.campaign.pk])).status_code == 404


# --- the masters' pages, by role ---------------------------------------------------------

# role -> (GET the page, POST add "bob", POST remove dave): the status, then whether it changed
PAGE_MATRIX = {
    "gm": (200, (302, True), (302, True)),
    "co_gm": (200, (302, False), (302, False)),
    "staff": (200, (302, True), (302, True)),
    "player": (404, (404, False), (404, False)),
    "stranger": (404, (404, False), (404, False)),
}


@pytest.mark.parametrize("role", PAGE_MATRIX)
def test_the_masters_pages_answer_each_role(hb, role):
    user = {"gm": hb.gm, "co_gm": hb.carol, "staff": hb.staff, "player": hb.alice,
            "stranger": hb.stranger}[role]
    page, (add_status, adds), (remove_status, removes) = PAGE_MATRIX[role]
    client = client_of(user)
    pk = hb.campaign.pk
    got = client.get(reverse("campaigns:masters", args=[pk]))
    assert got.status_code == page
    if page == 200:
        html = got.content.decode()
        assert 'data-testid="master-carol"' in html
        assert ('data-testid="master-add"' in html) == adds
    added = client.post(reverse("campaigns:master_add", args=[pk]), {"username": "bob"})
    assert added.status_code == add_status
    assert (hb.bob.pk in masters_of(hb.campaign)[1]) == adds
    removed = client.post(reverse("campaigns:master_remove", args=[pk, hb.dave.pk]))
    assert removed.status_code == remove_status
    assert (hb.dave.pk not in masters_of(hb.campaign)[1]) == removes
    rows, cached = masters_of(hb.campaign)
    assert rows == cached


def test_htmx_gets_the_part_with_the_refusal_in_the_readers_language(hb):
    client = client_of(hb.gm)
    url = reverse("campaigns:master_add", args=[hb.campaign.pk])
    response = client.post(url, {"username": "nobody\x00"}, HTTP_ACCEPT_LANGUAGE="fr", **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and html.startswith("<section")
    assert 'data-testid="masters-error"' in html and "Aucun compte actif" in html
    done = client.post(url, {"username": "bob"}, **HTMX).content.decode()
    assert 'data-testid="master-bob"' in done
    assert client.get(reverse("campaigns:masters", args=[hb.campaign.pk]),
                      {"x": "\x00"}).status_code == 200


def test_the_masters_page_query_count_is_pinned(hb, django_assert_num_queries):
    client = client_of(hb.gm)
    url = reverse("campaigns:masters", args=[hb.campaign.pk])
    with django_assert_num_queries(4):  # the session, its user, the campaign, the co-GMs
        client.get(url)
    campaign_master_add(user=hb.gm, campaign_id=hb.campaign.pk, username="bob")
    with django_assert_num_queries(4):
        client.get(url)


# --- a co-GM oversees the campaign everywhere ----------------------------------------------

def test_a_co_game_master_reads_what_the_game_master_reads_in_each_system(hb, alice, bob):
    carol = client_of(hb.carol)
    assert carol.get(reverse("campaigns:home"))["Location"] == reverse(
        "campaigns:gm", args=[hb.campaign.pk])
    for url in (reverse("campaigns:gm", args=[hb.campaign.pk]),
                reverse("homebrew:sheet", args=[hb.aria.pk]),
                reverse("homebrew:sheet", args=[hb.goblin.pk]),
                reverse("encounters:list", args=[hb.campaign.pk])):
        assert carol.get(url).status_code == 200, url
        assert client_of(hb.stranger).get(url).status_code == 404, url
    firewall = factories.EclipseCampaignFactory(name="Firewall", game_master=hb.gm)
    ines = factories.SleeveFactory(owner__character__campaign=firewall,
                                   owner__character__owner=bob,
                                   owner__character__name="Ines").owner.pk
    assert carol.get(reverse("eclipse:sheet", args=[ines])).status_code == 404
    campaign_master_add(user=hb.gm, campaign_id=firewall.pk, username="carol")
    assert carol.get(reverse("eclipse:sheet", args=[ines])).status_code == 200
    assert carol.get(reverse("campaigns:gm", args=[firewall.pk])).status_code == 200
    ew1 = factories.campaign(name="EW1")
    Campaign.objects.filter(pk=ew1.pk).update(game_master=hb.gm)
    aldric = factories.character(owner=alice, campaign=ew1, name="Aldric")
    assert carol.get(reverse("characters:detail", args=[aldric.pk])).status_code == 404
    campaign_master_add(user=hb.gm, campaign_id=ew1.pk, username="carol")
    assert carol.get(reverse("characters:detail", args=[aldric.pk])).status_code == 200


def test_the_encounter_and_its_roster_know_the_co_game_masters(hb, django_assert_num_queries):
    e = in_view(hb, hidden=True)
    with django_assert_num_queries(1):
        roster = enc_selectors.roster(e.pk)
    assert roster.co_master_ids == (hb.carol.pk, hb.dave.pk)
    viewer = roster.viewer_for(hb.carol)
    assert viewer is not None and viewer.gm
    assert roster.viewer_for(hb.stranger) is None
    with django_assert_num_queries(1):
        assert enc_selectors.encounter_version(user=hb.carol, encounter_id=e.pk) is not None
    assert enc_selectors.encounter_version(user=hb.stranger, encounter_id=e.pk) is None
    carol = client_of(hb.carol)
    assert carol.get(reverse("encounters:control", args=[e.pk])).status_code == 200
    assert 'data-testid' in carol.get(reverse("encounters:play", args=[e.pk])).content.decode()


def test_the_game_masters_screen_costs_a_co_gm_what_it_costs_the_gm(hb):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("campaigns:gm", args=[hb.campaign.pk])
    counts = []
    for user in (hb.gm, hb.carol):
        client = client_of(user)
        client.get(url)  # the session warmed
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_additions_at_once_keep_the_cached_ids_equal_to_the_rows():
    gm = factories.user("gm")
    for name in ("p1", "p2", "p3"):
        factories.user(name)
    campaign = factories.HomebrewCampaignFactory(name="Race", game_master=gm)
    results = run_together(
        lambda: campaign_master_add(user=gm, campaign_id=campaign.pk, username="p1"),
        lambda: campaign_master_add(user=gm, campaign_id=campaign.pk, username="p2"),
        lambda: campaign_master_add(user=gm, campaign_id=campaign.pk, username="p1"))
    assert sum(isinstance(r, CampaignMaster) for r in results) == 2
    assert [r.key for r in results if isinstance(r, Exception)] == ["already_co_master"]
    rows, cached = masters_of(campaign)
    assert rows == cached and len(rows) == 2
