"""A player joins an encounter with their own character when its GM lets players join
(``Encounter.players_may_join``): once, only their own, only when allowed, while it is set up
or running (a late joiner; a rolled order rolls and journals its initiative). The service, the
pages (the offer to join shows nothing else of the encounter), the API."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.errors import NotFound
from campaigns.models import ActionRecord
from encounters import services
from encounters.errors import EncounterConflict, EncounterForbidden, EncounterInvalid, \
    EncounterNotFound
from encounters.models import Combatant, Encounter
from tests import factories
from tests.encounters.conftest import NOW, Table

pytestmark = pytest.mark.django_db


class JoinTable(Table):
    """The table, with Carol's Cyra and Cassian (players of the campaign in no encounter), Dana's
    Dorn, Carol's Far in another campaign, and a stranger."""

    def __init__(self):
        super().__init__()
        self.carol, self.dana = factories.user("carol"), factories.user("dana")
        self.stranger = factories.user("stranger")
        make = factories.CharacterFactory
        self.cyra = make(campaign=self.campaign, owner=self.carol, name="Cyra")
        self.cassian = make(campaign=self.campaign, owner=self.carol, name="Cassian")
        self.dorn = make(campaign=self.campaign, owner=self.dana, name="Dorn")
        self.far = make(campaign=factories.campaign(rule_system=self.campaign.rule_system,
                                                    name="Far away"),
                        owner=self.carol, name="Far")

    def allow(self, allowed=True):
        services.encounter_joining_set(user=self.gm, encounter_id=self.encounter.pk,
                                       allowed=allowed)
        return self.reload()

    def join(self, user=None, character=None, **kw):
        return services.encounter_join(user=user or self.carol, encounter_id=self.encounter.pk,
                                       character_id=(character or self.cyra).pk, now=NOW, **kw)


@pytest.fixture
def t(db):
    return JoinTable()


def _state(t):
    e = t.reload()
    return (e.version, Combatant.objects.filter(encounter=e).count(),
            ActionRecord.objects.count())


def test_the_gm_lets_players_join_and_stops_it_each_a_version(t):
    v = t.reload().version
    assert t.allow().players_may_join and t.encounter.version == v + 1
    assert t.allow().version == v + 1  # the same again: nothing
    assert not t.allow(False).players_may_join and t.encounter.version == v + 2


def test_only_the_gm_sets_it(t):
    with pytest.raises(EncounterForbidden) as caught:
        services.encounter_joining_set(user=t.alice, encounter_id=t.encounter.pk, allowed=True)
    assert caught.value.code == "not_game_master"
    with pytest.raises(EncounterNotFound):
        services.encounter_joining_set(user=t.carol, encounter_id=t.encounter.pk, allowed=True)


def test_a_player_joins_with_their_own_character_while_it_is_set_up(t):
    t.allow()
    before = _state(t)
    me = t.join()
    assert me.character_id == t.cyra.pk and me.name == "Cyra" and me.rank is None
    assert _state(t) == (before[0] + 1, before[1] + 1, before[2])
    e = t.start()
    assert Combatant.objects.get(pk=me.pk).rank is not None and e.state == "running"


def test_joining_is_refused_unless_the_gm_allows_it(t, unchanged):
    with unchanged(), pytest.raises(EncounterForbidden) as caught:
        t.join()
    assert caught.value.code == "joining_closed" and caught.value.status == 403


def test_a_player_joins_once(t):
    t.allow()
    t.join()
    before = _state(t)
    for character in (t.cyra, t.cassian):  # the same again, or another of theirs
        with pytest.raises(EncounterConflict) as caught:
            t.join(character=character)
        assert caught.value.code == "already_joined" and caught.value.params == {"name": "Cyra"}
    assert _state(t) == before


def test_a_player_the_gm_took_out_does_not_come_back_alone(t):
    t.allow()
    me = t.join()
    services.combatant_remove(user=t.gm, encounter_id=t.encounter.pk, combatant_id=me.pk)
    with pytest.raises(EncounterConflict) as caught:
        t.join()
    assert caught.value.code == "left_encounter"


def test_a_player_already_fighting_does_not_join_again(t):
    t.allow()
    hero_player = t.alice
    second = factories.CharacterFactory(campaign=t.campaign, owner=hero_player, name="Hera")
    with pytest.raises(EncounterConflict) as caught:
        t.join(user=hero_player, character=second)
    assert caught.value.code == "already_joined"


@pytest.mark.parametrize("whose, error, code", [
    ("dorn", NotFound, "no_such_character"),        # another player's character
    ("far", EncounterInvalid, "not_in_campaign"),   # their own, of another campaign
    ("orc", NotFound, "no_such_character"),         # the GM's creature
    ("missing", NotFound, "no_such_character"),
])  # the key: NotFound's code is "not_found"
def test_only_the_players_own_character_of_the_campaign_joins(t, whose, error, code, unchanged):
    t.allow()
    character = getattr(t, whose, None) or type("Missing", (), {"pk": 10**8})()
    with unchanged(), pytest.raises(error) as caught:
        t.join(character=character)
    assert caught.value.key == code


def test_a_creature_a_player_owns_does_not_join(t):
    t.allow()
    pet = factories.CreatureFactory(campaign=t.campaign, name="Pet", owner=t.carol)
    with pytest.raises(EncounterInvalid) as caught:
        t.join(character=pet)
    assert caught.value.code == "join_player_character"


def test_a_stranger_hears_nothing_of_it(t, unchanged):
    t.allow()
    with unchanged(), pytest.raises(EncounterNotFound):
        services.encounter_join(user=t.stranger, encounter_id=t.encounter.pk,
                                character_id=t.cyra.pk)
    with pytest.raises(EncounterNotFound):
        services.encounter_join(user=t.carol, encounter_id=10**8, character_id=t.cyra.pk)


def test_an_ended_encounter_takes_nobody(t):
    t.allow()
    t.start()
    services.encounter_end(user=t.gm, encounter_id=t.encounter.pk)
    with pytest.raises(EncounterConflict) as caught:
        t.join()
    assert caught.value.code == "encounter_ended"


def test_a_joiner_in_a_rolled_running_encounter_rolls_its_initiative_journaled(t):
    t.allow()
    t.start(mode="rolled", rng=random.Random(3))
    ranks = sorted(Combatant.objects.filter(encounter=t.encounter).values_list("rank", flat=True))
    me = t.join(rng=random.Random(5))
    me.refresh_from_db()
    assert me.rank == len(ranks) and me.joined_round == 1  # at the end of the order
    assert me.initiative is not None and 1 <= me.initiative <= 10
    entry = ActionRecord.objects.filter(kind="encounter_initiative").latest("id")
    assert entry.summary["joined"] is True and entry.summary["round"] == 1
    assert entry.summary["scores"] == [{"combatant_id": me.pk, "name": "Cyra",
                                        "initiative": me.initiative}]
    assert [r.total for r in entry.rolls.all()] == [me.initiative]
    names = []
    for _ in range(4):  # the round plays to its end: Cyra's turn comes, last
        names.append(t.current_name())
        t.next()
    assert names[-1] == "Cyra" and names.count("Cyra") == 1


def test_a_joiner_in_the_gms_order_comes_last_and_rolls_nothing(t):
    t.allow()
    t.start()
    journaled = ActionRecord.objects.count()
    me = t.join()
    me.refresh_from_db()
    assert me.rank == 3 and me.initiative is None
    assert ActionRecord.objects.count() == journaled


# --- pages ----------------------------------------------------------------------------------

def _logged(client, user, lang="en"):
    client.force_login(user)
    client.cookies["django_language"] = lang
    return client


def test_the_page_offers_to_join_and_shows_nothing_else(client, t):
    url = reverse("encounters:play", args=[t.encounter.pk])
    assert _logged(client, t.carol).get(url).status_code == 404  # not allowed: as before
    t.allow()
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Join with Cyra" in html and "Join with Cassian" in html
    assert "Dorn" not in html and "Far" not in html.replace("Far away", "")
    for secret in ("Hero", "Brenna", "Orc"):  # the roster is not shown before joining
        assert secret not in html
    html = _logged(client, t.carol, "fr").get(url).content.decode()
    assert "Rejoindre avec Cyra" in html
    assert _logged(client, t.stranger).get(url).status_code == 404
    assert _logged(client, t.carol).get(url, HTTP_HX_REQUEST="true").status_code == 404


def test_joining_from_the_page_opens_the_encounter(client, t):
    t.allow()
    url = reverse("encounters:join", args=[t.encounter.pk])
    response = _logged(client, t.carol).post(url, {"character": t.cyra.pk})
    assert response.status_code == 302
    assert response["Location"] == reverse("encounters:play", args=[t.encounter.pk])
    html = client.get(response["Location"]).content.decode()
    assert "You joined the encounter." in html and "Join with" not in html
    assert Combatant.objects.filter(encounter=t.encounter, character=t.cyra).exists()


@pytest.mark.parametrize("body, words", [({"character": "x"}, "Invalid input."),
                                         ({}, "Invalid input."),
                                         ({"character": "-3"}, "No such character."),
                                         ({"character": "9" * 30}, "Invalid input.")])
def test_the_join_page_refuses_bad_input_in_words(client, t, body, words):
    t.allow()
    before = _state(t)
    response = _logged(client, t.carol).post(reverse("encounters:join", args=[t.encounter.pk]),
                                             body, follow=True)
    assert response.status_code == 200 and words in response.content.decode()
    assert _state(t) == before


def test_joining_another_players_character_from_the_page_is_refused(client, t):
    t.allow()
    response = _logged(client, t.carol).post(reverse("encounters:join", args=[t.encounter.pk]),
                                             {"character": t.dorn.pk}, follow=True)
    assert "No such character." in response.content.decode()
    assert not Combatant.objects.filter(character=t.dorn).exists()


def test_the_gm_switches_it_from_the_control_page(client, t):
    control = reverse("encounters:control", args=[t.encounter.pk])
    html = _logged(client, t.gm).get(control).content.decode()
    assert "Let players join" in html and "Only you add combatants." in html
    response = client.post(reverse("encounters:joining", args=[t.encounter.pk]),
                           {"allowed": "1", "page": "control"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Stop players joining" in response.content.decode()
    assert t.reload().players_may_join
    bad = client.post(reverse("encounters:joining", args=[t.encounter.pk]),
                      {"allowed": "yes", "page": "control"}, HTTP_HX_REQUEST="true")
    assert "Invalid input." in bad.content.decode() and t.reload().players_may_join
    refused = _logged(client, t.alice).post(reverse("encounters:joining", args=[t.encounter.pk]),
                                            {"allowed": "0"})
    assert refused.status_code == 302 and t.reload().players_may_join


def test_the_list_names_the_encounters_open_to_joining(client, t):
    other = services.encounter_create(user=t.gm, campaign_id=t.campaign.pk, name="Closed one")
    t.allow()
    html = _logged(client, t.carol).get(
        reverse("encounters:list", args=[t.campaign.pk])).content.decode()
    assert "Ambush" in html and f'data-testid="open-to-join-{t.encounter.pk}"' in html
    assert "Closed one" not in html and other.pk
    html = _logged(client, t.carol, "fr").get(
        reverse("encounters:list", args=[t.campaign.pk])).content.decode()
    assert "les joueurs peuvent rejoindre" in html


# --- API ------------------------------------------------------------------------------------

def test_the_api_joins_and_refuses_with_codes(t):
    api = APIClient()
    api.force_authenticate(t.carol)
    url = reverse("api-encounters-join", args=[t.encounter.pk])
    closed = api.post(url, {"character": t.cyra.pk}, format="json")
    assert closed.status_code == 403 and closed.json()["code"] == "joining_closed"
    gm = APIClient()
    gm.force_authenticate(t.gm)
    allowed = gm.post(reverse("api-encounters-joining", args=[t.encounter.pk]),
                      {"players_may_join": True}, format="json")
    assert allowed.status_code == 200 and allowed.json()["players_may_join"] is True
    listed = api.get(reverse("api-encounters", args=[t.campaign.pk])).json()
    assert [(e["name"], e["players_may_join"]) for e in listed["encounters"]] == [
        ("Ambush", True)]
    assert api.post(url, {"character": "x"}, format="json").status_code == 400
    other = api.post(url, {"character": t.dorn.pk}, format="json")
    assert other.status_code == 404 and other.json()["code"] == "not_found"
    assert other.json()["detail"] == "No such character."
    joined = api.post(url, {"character": t.cyra.pk}, format="json")
    body = joined.json()
    assert joined.status_code == 200 and len(body["mine"]) == 1
    assert any(c["name"] == "Cyra" for c in body["combatants"])
    twice = api.post(url, {"character": t.cyra.pk}, format="json")
    assert twice.status_code == 409 and twice.json()["code"] == "already_joined"
    assert Encounter.objects.get(pk=t.encounter.pk).combatants.filter(
        character=t.cyra).count() == 1


def test_a_joiner_rolls_with_everyone_at_the_next_round_of_a_system_rolling_each_round(t):
    from encounters import hooks
    from tests.encounters.conftest import SYSTEM

    hooks.register_initiative_each_round(SYSTEM)
    try:
        t.allow()
        t.start(mode="rolled", rng=random.Random(3))
        me = t.join(rng=random.Random(5))
        for _ in range(4):  # round 1 to its end, the joiner last: round 2 rolls everyone
            t.next()
        assert t.reload().round == 2
        entry = ActionRecord.objects.filter(kind="encounter_initiative").latest("id")
        assert entry.summary["each_round"] is True and entry.summary["round"] == 2
        assert me.pk in entry.summary["order"] and len(entry.summary["order"]) == 4
    finally:
        hooks.unregister_initiative_each_round(SYSTEM)


@pytest.mark.parametrize("extra", [0, 10])
def test_the_join_page_and_the_join_step_cost_as_many_queries_whatever_the_roster(
        client, extra, django_assert_num_queries):
    t = JoinTable()
    if extra:
        services.combatants_add(user=t.gm, encounter_id=t.encounter.pk,
                                entries=[services.CombatantEntry(name="Goblin", count=extra)])
    t.allow()
    url = reverse("encounters:play", args=[t.encounter.pk])
    _logged(client, t.carol).get(url)
    # session, user; the player's page refused (the encounter, its combatants); the offer: the
    # encounter open to joining, none of hers in it, her characters
    with django_assert_num_queries(7):
        assert client.get(url).status_code == 200
    # session, user; the step: savepoint, the lock with the combatants, her characters in the
    # campaign, the character, the insert, the version, release
    with django_assert_num_queries(9):
        response = client.post(reverse("encounters:join", args=[t.encounter.pk]),
                               {"character": t.cyra.pk})
    assert response.status_code == 302
