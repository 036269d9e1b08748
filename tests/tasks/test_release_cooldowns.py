"""The reincarnation-cooldown beat (issue 8, item 21): when a suicide's block ends, the player
gets a notice, or, if they chose "reincarnate as soon as possible" on the suicide form, the
character comes back on a free cell. Run twice or late, each suicide is handled once; the beat
runs a fixed number of statements whatever the number of characters."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import ActionRecord
from characters.models import Character
from combat.cooldowns import CooldownRelease, cooldowns_release
from combat.services import character_reincarnate, character_suicide
from combat.tasks import release_cooldowns
from config.celery import app
from tests import factories
from tests.services.conftest import NOW, FakeRandom

pytestmark = pytest.mark.django_db

SIX_HOURS = timedelta(hours=6)
TASK = "combat.tasks.release_cooldowns"


def fetch(c) -> Character:
    return Character.objects.select_related("ew1").get(pk=c.pk)


def suicided(user, campaign, name, *, asap=False, at=(5, 5), **sheet):
    c = factories.character(owner=user, campaign=campaign, name=name, at=at, now=NOW, **sheet)
    character_suicide(user=user, character_id=c.pk, reincarnate_asap=asap, now=NOW)
    return c


def test_nothing_happens_before_the_block_ends(alice, campaign, unchanged):
    suicided(alice, campaign, "Hero")
    with unchanged():
        assert cooldowns_release(now=NOW + SIX_HOURS - timedelta(seconds=1)) == CooldownRelease()


def test_when_the_block_ends_the_player_gets_a_notice_once(alice, campaign):
    hero = suicided(alice, campaign, "Hero")
    assert cooldowns_release(now=NOW + SIX_HOURS) == CooldownRelease(noticed=1)
    hero = fetch(hero)
    assert (hero.cooldown_notice, hero.cooldown_notice_at) == ("cooldown_over", NOW + SIX_HOURS)
    assert hero.ew1.reincarnation_blocked_until is None and not hero.on_board
    # Twice, or much later: handled once.
    assert cooldowns_release(now=NOW + SIX_HOURS) == CooldownRelease()
    assert cooldowns_release(now=NOW + timedelta(days=3)) == CooldownRelease()
    assert fetch(hero).cooldown_notice_at == NOW + SIX_HOURS


def test_a_late_beat_handles_the_suicide_once_with_its_own_time(alice, campaign):
    hero = suicided(alice, campaign, "Hero")
    late = NOW + timedelta(days=2)
    assert cooldowns_release(now=late) == CooldownRelease(noticed=1)
    assert fetch(hero).cooldown_notice_at == late


def test_asap_brings_the_character_back_on_a_free_cell(alice, campaign):
    hero = suicided(alice, campaign, "Hero", asap=True, pv=40)
    assert fetch(hero).reincarnate_asap
    done = cooldowns_release(now=NOW + SIX_HOURS, rng=FakeRandom(3, 4))
    assert done == CooldownRelease(reincarnated=1)
    hero = fetch(hero)
    assert (hero.board_id, hero.x, hero.y) == (campaign.board.pk, 3, 4)
    assert (hero.ew1.pv, hero.cooldown_notice, hero.reincarnate_asap) == (100, "reincarnated",
                                                                          False)
    assert hero.ew1.reincarnation_blocked_until is None
    action = ActionRecord.objects.get(kind="reincarnate", actor=hero)
    assert (action.user, action.summary) == (None, {"at": [3, 4], "pv": 100, "automatic": True})
    assert cooldowns_release(now=NOW + SIX_HOURS, rng=FakeRandom()) == CooldownRelease()
    assert ActionRecord.objects.filter(kind="reincarnate").count() == 1


def test_asap_skips_an_occupied_cell(alice, bob, campaign):
    factories.character(owner=bob, campaign=campaign, name="Squatter", at=(3, 4), now=NOW)
    hero = suicided(alice, campaign, "Hero", asap=True)
    cooldowns_release(now=NOW + SIX_HOURS, rng=FakeRandom(3, 4, 1, 1))
    assert (fetch(hero).x, fetch(hero).y) == (1, 1)


def test_a_full_board_leaves_a_notice_instead(alice, bob):
    tiny = factories.campaign(name="Tiny", width=1, height=1)
    hero = suicided(alice, tiny, "Hero", asap=True, at=(0, 0))
    factories.character(owner=bob, campaign=tiny, name="Squatter", at=(0, 0), now=NOW)
    assert cooldowns_release(now=NOW + SIX_HOURS, rng=FakeRandom(*[0] * 200)) == (
        CooldownRelease(noticed=1))
    hero = fetch(hero)
    assert (hero.on_board, hero.cooldown_notice) == (False, "cooldown_over")


def test_two_asap_characters_never_get_the_same_cell(alice, campaign):
    one = suicided(alice, campaign, "One", asap=True, at=(1, 1))
    two = suicided(alice, campaign, "Two", asap=True, at=(2, 2))
    cooldowns_release(now=NOW + SIX_HOURS, rng=FakeRandom(7, 7, 7, 7, 8, 8))
    assert {(fetch(c).x, fetch(c).y) for c in (one, two)} == {(7, 7), (8, 8)}


def test_a_character_who_came_back_by_hand_is_not_noticed(alice, campaign):
    hero = suicided(alice, campaign, "Hero", asap=True)
    character_reincarnate(user=alice, character_id=hero.pk, rng=FakeRandom(2, 2),
                          now=NOW + SIX_HOURS)
    assert cooldowns_release(now=NOW + SIX_HOURS + timedelta(minutes=5)) == CooldownRelease()
    assert (fetch(hero).x, fetch(hero).cooldown_notice) == (2, "")


def test_a_character_killed_in_combat_has_no_block_and_no_notice(alice, campaign, unchanged):
    factories.character(owner=alice, campaign=campaign, name="Dead", pv=-3)
    Character.objects.filter(name="Dead").update(board=None, x=None, y=None)
    with unchanged():
        assert cooldowns_release(now=NOW + SIX_HOURS) == CooldownRelease()


def test_each_campaign_uses_its_own_cooldown(alice, campaign):
    quick = factories.campaign(name="Quick", suicide_cooldown_hours=1)
    fast = suicided(alice, quick, "Fast")
    slow = suicided(alice, campaign, "Slow")
    assert cooldowns_release(now=NOW + timedelta(hours=1)) == CooldownRelease(noticed=1)
    assert (fetch(fast).cooldown_notice, fetch(slow).cooldown_notice) == ("cooldown_over", "")


def test_a_new_suicide_clears_the_old_notice_and_is_handled_again(alice, campaign):
    hero = suicided(alice, campaign, "Hero")
    cooldowns_release(now=NOW + SIX_HOURS)
    character_reincarnate(user=alice, character_id=hero.pk, rng=FakeRandom(2, 2),
                          now=NOW + SIX_HOURS)
    later = NOW + timedelta(days=1)
    character_suicide(user=alice, character_id=hero.pk, now=later)
    assert fetch(hero).cooldown_notice == ""
    assert cooldowns_release(now=later + SIX_HOURS) == CooldownRelease(noticed=1)


@pytest.mark.parametrize("size", [2, 12])
def test_the_beat_runs_a_fixed_number_of_statements(alice, size):
    a = factories.campaign(name="A", width=30, height=30)
    b = factories.campaign(name="B", width=30, height=30)
    for i in range(size):
        suicided(alice, a, f"A{i}", at=(i, 0))
        suicided(alice, a, f"Asap{i}", asap=True, at=(i, 1))
        suicided(alice, b, f"B{i}", at=(i, 0))
    factories.campaign(name="Nobody")
    rng = FakeRandom(*[v for i in range(size) for v in (i, 10)])
    with CaptureQueriesContext(connection) as ctx:
        done = cooldowns_release(now=NOW + SIX_HOURS, rng=rng)
    # The campaigns; A: lock the due, occupied cells, characters, sheets, journal; B: lock the
    # due, characters; Nobody: lock. (Each campaign's savepoint is left out: inside the test's
    # transaction it is a SAVEPOINT, in the beat a BEGIN.)
    statements = [q["sql"] for q in ctx.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == 1 + 5 + 2 + 1, statements
    assert done == CooldownRelease(noticed=2 * size, reincarnated=size)


def test_the_task_is_scheduled_with_time_limits_and_runs_the_service(alice, campaign):
    entries = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == TASK]
    assert len(entries) == 1 and entries[0]["schedule"] <= timedelta(minutes=10)
    assert entries[0]["options"]["expires"] <= entries[0]["schedule"].total_seconds()
    app.loader.import_default_modules()
    assert 0 < app.tasks[TASK].soft_time_limit < app.tasks[TASK].time_limit
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(1, 1))
    character_suicide(user=alice, character_id=hero.pk)
    Character.objects.filter(pk=hero.pk).update(
        suicided_at=fetch(hero).suicided_at - SIX_HOURS)
    assert release_cooldowns.run() == {"noticed": 1, "reincarnated": 0}
    assert release_cooldowns.run() == {"noticed": 0, "reincarnated": 0}


# --- the suicide form, the notice on the sheet and the list ---------------------------------

def test_the_suicide_form_offers_reincarnate_asap_and_stores_it(client, alice, campaign):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(1, 1))
    client.force_login(alice)
    html = client.get(reverse("characters:detail", args=[hero.pk])).content.decode()
    assert 'name="reincarnate_asap"' in html
    response = client.post(reverse("combat:suicide", args=[hero.pk]),
                           {"reincarnate_asap": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert fetch(hero).reincarnate_asap
    assert "Your character will come back by itself." in response.content.decode()


def test_a_plain_suicide_does_not_reincarnate_by_itself(client, alice, campaign):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(1, 1))
    client.force_login(alice)
    client.post(reverse("combat:suicide", args=[hero.pk]))
    assert not fetch(hero).reincarnate_asap


def test_the_api_suicide_takes_reincarnate_asap(alice, campaign):
    from rest_framework.test import APIClient

    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(1, 1))
    api = APIClient()
    api.force_authenticate(alice)
    response = api.post(f"/api/characters/{hero.pk}/suicide/", {"reincarnate_asap": True},
                        format="json")
    assert response.status_code == 200
    assert response.json()["reincarnate_asap"] is True and fetch(hero).reincarnate_asap


def test_the_notice_shows_on_sheet_and_list_until_dismissed(client, alice, bob, campaign):
    hero = suicided(alice, campaign, "Hero")
    cooldowns_release(now=NOW + SIX_HOURS)
    client.force_login(alice)
    sheet = client.get(reverse("characters:detail", args=[hero.pk])).content.decode()
    assert "The suicide cooldown is over: Hero may reincarnate." in sheet
    listing = client.get(reverse("characters:list")).content.decode()
    assert f'data-testid="cooldown-notice-{hero.pk}">may reincarnate' in listing

    client.force_login(bob)  # not bob's to dismiss
    assert client.post(reverse("characters:dismiss-notice", args=[hero.pk])).status_code == 404
    assert fetch(hero).cooldown_notice == "cooldown_over"

    client.force_login(alice)
    response = client.post(reverse("characters:dismiss-notice", args=[hero.pk]),
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'data-testid="cooldown-notice"' not in response.content.decode()
    assert fetch(hero).cooldown_notice == ""
    assert "cooldown-notice-" not in client.get(reverse("characters:list")).content.decode()


def test_the_reincarnated_notice_in_french(client, alice, campaign):
    hero = suicided(alice, campaign, "Hero", asap=True)
    cooldowns_release(now=NOW + SIX_HOURS, rng=FakeRandom(2, 2))
    client.force_login(alice)
    html = client.get(reverse("characters:detail", args=[hero.pk]),
                      HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Le délai du suicide est passé : Hero est revenu sur le damier, comme demandé." in html


def test_dismissing_without_htmx_redirects_to_the_sheet(client, alice, campaign):
    hero = suicided(alice, campaign, "Hero")
    cooldowns_release(now=NOW + SIX_HOURS)
    client.force_login(alice)
    response = client.post(reverse("characters:dismiss-notice", args=[hero.pk]))
    assert response.status_code == 302 and response["Location"] == f"/characters/{hero.pk}/"
    assert client.get(reverse("characters:dismiss-notice", args=[hero.pk])).status_code == 405
