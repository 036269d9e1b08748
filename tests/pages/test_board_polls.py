"""Board polls that cost nothing when nothing changed (issue 9, item 11): a poll carrying the
token of what it shows answers an empty 204 after the session, the user and one cache read; any
change in view (an action on a piece in view, a regeneration tick, a spell or an effect, an
equipped item, an admin edit, the clock) makes the next poll answer the new fragment."""

import os
import random
import re
from datetime import timedelta

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.core.cache import caches
from django.urls import reverse
from django.utils import timezone

from combat import polls
from combat.services import action_brawl, action_move
from ew1.equipment import item_equip, item_grant
from ew1.models import EternalWarSheet, ItemTemplate
from ew1.tasks import regenerate_resources
from magic.casting import spell_cast
from magic.models import ActiveEffect, Spell
from magic.spellbook import spell_grant
from magic.tasks import expire_effects
from tests import factories
from tests.pages.conftest import HTMX


@pytest.fixture(autouse=True)
def local_cache(settings):
    """The versions in process memory (the test database has no cache table); the Redis test
    below uses the real thing."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "board-polls"}}
    caches["default"].clear()


@pytest.fixture
def scene(alice, bob):
    """On a 30x30 board, Alice's hero with Bob's foe next to it and Bob's far character out of
    view (version tiles are 8x8: the hero's view is in tile (0, 0), Far's cell in (2, 2));
    regeneration slow enough that the clock changes nothing during a test."""
    campaign = factories.campaign(width=30, height=30, view_radius=2, pa_regen_hours=168,
                                  pv_regen_hours=168, suicide_cooldown_hours=0)
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(2, 2), pa=20)
    foe = factories.character(owner=bob, campaign=campaign, name="Foe", at=(3, 2), pa=20)
    far = factories.character(owner=bob, campaign=campaign, name="Far", at=(20, 20), pa=20)
    return hero, foe, far


def _url(hero, token=None):
    url = reverse("combat:board", args=[hero.pk])
    return f"{url}?v={token}" if token is not None else url


def _token(response) -> str:
    match = re.search(r'hx-get="[^"?]*\?v=([^"]*)"', response.content.decode())
    assert match, "the fragment's poll carries no token"
    return match[1]


def _settled(client, hero) -> str:
    """The token after a first poll: the page's own token has no MAC (its versions were not
    read before its data), the first poll renders and hands out a full one."""
    page = client.get(_url(hero))
    poll = client.get(_url(hero, _token(page)), **HTMX)
    assert poll.status_code == 200
    token = _token(poll)
    assert token.split("-")[-1], token
    return token


def _expect_new_fragment(client, hero, token, check=None):
    response = client.get(_url(hero, token), **HTMX)
    assert response.status_code == 200, "a change in view was hidden by a 204"
    if check:
        assert check in response.content.decode()
    return _token(response)


def test_nothing_changed_answers_204_after_session_user_and_one_cache_read(
        alice_client, scene, django_assert_num_queries):
    hero, _, _ = scene
    token = _settled(alice_client, hero)
    for _ in range(3):
        with django_assert_num_queries(2):  # session, user; the versions come from the cache
            response = alice_client.get(_url(hero, token), **HTMX)
        assert response.status_code == 204
        assert response.content == b""


@pytest.mark.redis
def test_with_redis_the_204_costs_two_queries(alice_client, scene, settings,
                                              django_assert_num_queries,
                                              django_capture_on_commit_callbacks):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": os.environ["REDIS_URL"],
                                   "KEY_PREFIX": "board-polls-test"}}
    hero, foe, _ = scene
    token = _settled(alice_client, hero)
    with django_assert_num_queries(2):  # session, user (and one Redis GET)
        assert alice_client.get(_url(hero, token), **HTMX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        action_move(user=foe.owner, character_id=foe.pk, dx=0, dy=1)
    assert alice_client.get(_url(hero, token), **HTMX).status_code == 200


def test_a_page_load_or_a_request_without_htmx_always_renders(alice_client, scene):
    hero, _, _ = scene
    token = _settled(alice_client, hero)
    assert alice_client.get(_url(hero, token)).status_code == 200  # not htmx: the whole page
    assert alice_client.get(_url(hero), **HTMX).status_code == 200  # no token
    assert alice_client.get(_url(hero, "garbage"), **HTMX).status_code == 200
    forged = token[:-1] + ("1" if token[-1] == "0" else "0")
    assert alice_client.get(_url(hero, forged), **HTMX).status_code == 200


def test_a_move_of_a_piece_in_view_shows_on_the_next_poll(
        alice_client, scene, django_capture_on_commit_callbacks):
    hero, foe, _ = scene
    token = _settled(alice_client, hero)
    with django_capture_on_commit_callbacks(execute=True):
        action_move(user=foe.owner, character_id=foe.pk, dx=0, dy=1)
    token = _expect_new_fragment(alice_client, hero, token, check="(3, 3)")
    assert alice_client.get(_url(hero, token), **HTMX).status_code == 204


def test_an_attack_on_the_player_shows_on_the_next_poll(
        alice_client, scene, django_capture_on_commit_callbacks):
    hero, foe, _ = scene
    token = _settled(alice_client, hero)
    with django_capture_on_commit_callbacks(execute=True):
        action_brawl(user=foe.owner, character_id=foe.pk, target_id=hero.pk,
                     rng=random.Random(1))
    _expect_new_fragment(alice_client, hero, token, check="attacks Hero")


def test_the_players_own_action_from_another_tab_shows_on_the_next_poll(
        alice_client, scene, django_capture_on_commit_callbacks):
    hero, _, _ = scene
    token = _settled(alice_client, hero)
    with django_capture_on_commit_callbacks(execute=True):
        alice_client.post(reverse("combat:move", args=[hero.pk]), {"dx": 0, "dy": 1})
    _expect_new_fragment(alice_client, hero, token, check="(2, 3)")


def test_a_regeneration_tick_shows_on_the_next_poll(alice_client, scene,
                                                    django_capture_on_commit_callbacks):
    hero, _, _ = scene
    token = _settled(alice_client, hero)
    # PA spent long ago: the tick writes them back (and the page reads them either way).
    EternalWarSheet.objects.filter(pk=hero.pk).update(
        pa=1, pa_anchor=int((timezone.now() - timedelta(days=30)).timestamp()))
    with django_capture_on_commit_callbacks(execute=True):
        regenerate_resources()
    _expect_new_fragment(alice_client, hero, token)


def test_a_spell_cast_and_an_expired_effect_show_on_the_next_poll(
        alice_client, scene, django_capture_on_commit_callbacks):
    hero, foe, _ = scene
    shield = Spell.objects.create(name="Bouclier", effect="shield", dice="1d4+1", range_cells=3,
                                  duration_hours=24)
    with django_capture_on_commit_callbacks(execute=True):
        spell_grant(character=foe, spell=shield, source="level_up")
    token = _settled(alice_client, hero)
    with django_capture_on_commit_callbacks(execute=True):
        spell_grant(character=hero, spell=shield, source="level_up")
    token = _expect_new_fragment(alice_client, hero, token, check="Bouclier")
    with django_capture_on_commit_callbacks(execute=True):
        spell_cast(user=foe.owner, character_id=foe.pk, spell_id=shield.pk, x=foe.x, y=foe.y,
                   rng=random.Random(2))
    token = _expect_new_fragment(alice_client, hero, token)
    ActiveEffect.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        expire_effects()
    _expect_new_fragment(alice_client, hero, token)


def test_equipping_a_weapon_shows_on_the_next_poll(alice, alice_client, scene,
                                                   django_capture_on_commit_callbacks):
    hero, _, _ = scene
    bow = factories.ItemTemplateFactory(name="Arc", kind=ItemTemplate.Kind.RANGED,
                                        damage_dice="1d6", range_cells=5)
    item = item_grant(character=hero, template=bow, user=alice)
    token = _settled(alice_client, hero)
    with django_capture_on_commit_callbacks(execute=True):
        item_equip(user=alice, character_id=hero.pk, item_id=item.pk)
    _expect_new_fragment(alice_client, hero, token, check="attack-ranged-Foe")


def test_an_admin_edit_shows_on_the_next_poll(alice, alice_client, scene,
                                              django_capture_on_commit_callbacks):
    hero, _, _ = scene
    token = _settled(alice_client, hero)
    with django_capture_on_commit_callbacks(execute=True):
        LogEntry.objects.create(user=alice, object_id=str(hero.campaign_id),
                                object_repr="campaign", action_flag=CHANGE)
    _expect_new_fragment(alice_client, hero, token)


def test_actions_on_the_same_board_out_of_view_keep_the_204(
        alice_client, scene, django_capture_on_commit_callbacks):
    hero, _foe, far = scene
    token = _settled(alice_client, hero)
    with django_capture_on_commit_callbacks(execute=True):
        action_move(user=far.owner, character_id=far.pk, dx=-1, dy=0)
        action_move(user=far.owner, character_id=far.pk, dx=-1, dy=0)
    assert alice_client.get(_url(hero, token), **HTMX).status_code == 204
    # Far walks up to the hero's view: the step into the tiles it covers shows.
    from characters.models import Character
    Character.objects.filter(pk=far.pk).update(x=8, y=4)
    with django_capture_on_commit_callbacks(execute=True):
        action_move(user=far.owner, character_id=far.pk, dx=-1, dy=0)  # to (7, 4)
    assert alice_client.get(_url(hero, token), **HTMX).status_code == 200


def test_a_viewer_walking_into_other_tiles_renders_twice_then_204(
        alice_client, scene, django_capture_on_commit_callbacks):
    hero, _, _ = scene
    from characters.models import Character
    Character.objects.filter(pk=hero.pk).update(x=13, y=2)  # view x 11..15: tile column 1
    token = _settled(alice_client, hero)
    with django_capture_on_commit_callbacks(execute=True):
        action_move(user=hero.owner, character_id=hero.pk, dx=1, dy=0)  # view 12..16: 1..2
    token = _expect_new_fragment(alice_client, hero, token, check="(14, 2)")
    assert token.split("-")[-1] == ""  # drawn with the old tiles' versions: no MAC
    token = _expect_new_fragment(alice_client, hero, token)
    assert alice_client.get(_url(hero, token), **HTMX).status_code == 204


def test_a_suicide_and_a_reincarnation_show_on_the_next_poll(
        alice, alice_client, scene, django_capture_on_commit_callbacks):
    from combat.services import character_reincarnate, character_suicide

    hero, _, _ = scene
    token = _settled(alice_client, hero)
    with django_capture_on_commit_callbacks(execute=True):
        character_suicide(user=alice, character_id=hero.pk)
    token = _expect_new_fragment(alice_client, hero, token, check="Disincarnated")
    token = _expect_new_fragment(alice_client, hero, token)  # the first poll off the board
    assert alice_client.get(_url(hero, token), **HTMX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        character_reincarnate(user=alice, character_id=hero.pk, rng=random.Random(4))
    response = alice_client.get(_url(hero, token), **HTMX)
    assert response.status_code == 200 and "Disincarnated" not in response.content.decode()


def test_a_change_out_of_the_campaign_keeps_the_204(alice_client, scene, bob,
                                                    django_capture_on_commit_callbacks):
    hero, _, _ = scene
    elsewhere = factories.campaign(name="Elsewhere")
    other = factories.character(owner=bob, campaign=elsewhere, name="Other", at=(1, 1))
    token = _settled(alice_client, hero)
    with django_capture_on_commit_callbacks(execute=True):
        action_move(user=bob, character_id=other.pk, dx=1, dy=0)
    assert alice_client.get(_url(hero, token), **HTMX).status_code == 204


def test_another_language_renders(alice_client, scene):
    hero, _, _ = scene
    token = _settled(alice_client, hero)
    french = alice_client.get(_url(hero, token), HTTP_ACCEPT_LANGUAGE="fr", **HTMX)
    assert french.status_code == 200 and french["Content-Language"] == "fr"
    token_fr = _token(french)
    assert alice_client.get(_url(hero, token_fr), HTTP_ACCEPT_LANGUAGE="fr",
                            **HTMX).status_code == 204
    assert alice_client.get(_url(hero, token_fr), **HTMX).status_code == 200


def test_another_users_token_is_worth_nothing(alice_client, bob_client, scene):
    """A token stands for the permission check of the render that issued it, for its user
    only: Bob polling Alice's board with her token gets the 404 of a stranger, not a 204."""
    hero, _, _ = scene
    token = _settled(alice_client, hero)
    assert bob_client.get(_url(hero, token), **HTMX).status_code == 404


def test_the_clock_expires_a_token(alice_client, scene, monkeypatch):
    hero, _, _ = scene
    token = _settled(alice_client, hero)
    until = int(token.split("-")[6])
    monkeypatch.setattr(polls.time, "time", lambda: until - 1)
    assert alice_client.get(_url(hero, token), **HTMX).status_code == 204
    monkeypatch.setattr(polls.time, "time", lambda: until)
    assert alice_client.get(_url(hero, token), **HTMX).status_code == 200


def test_valid_until_follows_regeneration_and_the_countdown(alice, campaign):
    """The next PA step, the next minute of "next PA in N minutes", a piece's next PV step,
    and MAX_AGE_S at most."""
    from ew1.selectors import board_view

    now = timezone.now().replace(microsecond=0)
    ts = int(now.timestamp())
    campaign.rule_parameters = {"view_radius": 3, "pa_regen_hours": 2, "pv_regen_hours": 6}
    campaign.save()
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(2, 2), pa=1,
                               pa_anchor=ts - 7200 + 90, pv_anchor=ts)  # next PA in 90 s
    view = board_view(user=alice, character_id=hero.pk, now=now)
    assert polls.valid_until(view) == ts + 30  # "1 minute" becomes "0 minutes" at 60 s left
    EternalWarSheet.objects.filter(pk=hero.pk).update(pa_anchor=ts - 7200 + 45)
    assert polls.valid_until(board_view(user=alice, character_id=hero.pk, now=now)) == ts + 45
    EternalWarSheet.objects.filter(pk=hero.pk).update(pa=hero.ew1.pa_max)  # PA full
    assert polls.valid_until(board_view(user=alice, character_id=hero.pk,
                                        now=now)) == ts + polls.MAX_AGE_S
    foe = factories.character(owner=alice, campaign=campaign, name="Foe", at=(3, 2), pv=1,
                              pv_anchor=ts - 6 * 3600 + 20)  # its next PV in 20 s
    assert foe.ew1.pv < foe.ew1.pv_max
    assert polls.valid_until(board_view(user=alice, character_id=hero.pk, now=now)) == ts + 20
