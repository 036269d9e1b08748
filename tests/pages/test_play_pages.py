"""The Eternal War One II play pages: the creation draft, the inventory, suicide and
reincarnation, level-up, the attack and game buttons of the board, the leaderboard;
CSRF, log-in and pinned query counts."""

import random
import re
import time
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from characters.models import Character
from ew1.creation import draft_roll
from ew1.equipment import item_equip, item_grant
from ew1.models import CharacterDraft, EternalWarSheet, ItemInstance, ItemTemplate
from gamerules.ew1.characteristics import CODES
from gamerules.ew1.skills import SKILLS
from tests import factories
from tests.pages.conftest import HTMX, state
from tests.pages.test_query_counts import BOARD_QUERIES, SHEET_QUERIES
from tests.services.conftest import FakeRandom

Kind = ItemTemplate.Kind


@pytest.fixture(autouse=True)
def fresh_limits(db, monkeypatch):
    """An empty rate-limit cache and django-ratelimit's clock stopped mid-minute."""
    from django_ratelimit import core
    cache.clear()
    t = (int(time.time()) // 60) * 60 + 30
    monkeypatch.setattr(core, "time", SimpleNamespace(time=lambda: t))
    yield
    cache.clear()


@pytest.fixture
def hero(alice, campaign):
    return factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5))


@pytest.fixture
def foe(bob, campaign):
    return factories.character(owner=bob, campaign=campaign, name="Foe", at=(6, 5))


@pytest.fixture
def draft(alice, campaign):
    return draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(3))


@pytest.fixture
def catalogue(db):
    return {
        "axe": factories.ItemTemplateFactory(name="Hache", kind=Kind.MELEE, damage_dice="1d10"),
        "bow": factories.ItemTemplateFactory(name="Arc", kind=Kind.RANGED, damage_dice="1d6",
                                            range_cells=4),
        "potion": factories.PotionTemplateFactory(name="Potion", heal_dice="1d4"),
    }


def give(character, t):
    return item_grant(character=character, template=t, rng=FakeRandom())


def html_of(response) -> str:
    return response.content.decode()


def draft_row(d) -> dict:
    return CharacterDraft.objects.filter(pk=d.pk).values("rolled", "deltas", "rerolls").get()


def url(name, *args):
    return reverse(name, args=args)


def allocation(**points) -> dict:
    """The level-up form as a browser sends it: every field, 0 where nothing is spent."""
    empty = {f"skill_{s.code}": 0 for s in SKILLS} | {f"char_{c}": 0 for c in CODES}
    return empty | points


# Creation -------------------------------------------------------------------------------------

def test_the_list_form_starts_a_draft(alice, alice_client, campaign):
    response = alice_client.post(url("characters:list"), {"campaign": campaign.pk, "name": "Nova"})
    draft = CharacterDraft.objects.get(user=alice)
    assert response.status_code == 302
    assert response["Location"] == f"/characters/drafts/{draft.pk}/"
    assert not Character.objects.filter(name="Nova").exists()


def test_the_draft_page_shows_the_values_and_the_rerolls_left(alice_client, draft):
    response = alice_client.get(url("ew1:draft", draft.pk))
    html = html_of(response)
    assert response.status_code == 200 and "<html" in html and "Creating Nova" in html
    for code in CODES:
        assert f'data-testid="final-{code}">{draft.rolled[code]}<' in html
    assert f'data-testid="total">{sum(draft.rolled.values())}<' in html
    assert "3 rerolls left this minute" in html
    assert 'data-testid="reroll"' in html and 'data-testid="confirm"' in html


def test_a_reroll_with_htmx_returns_the_draft_fragment(alice_client, draft):
    response = alice_client.post(url("ew1:draft-reroll", draft.pk), **HTMX)
    html = html_of(response)
    assert response.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<section id="draft"')
    assert "1 reroll so far." in html and "2 rerolls left this minute" in html
    assert draft_row(draft)["rerolls"] == 1

    plain = alice_client.post(url("ew1:draft-reroll", draft.pk))
    assert plain.status_code == 302 and plain["Location"] == url("ew1:draft", draft.pk)
    assert draft_row(draft)["rerolls"] == 2


def test_a_refused_reroll_shows_why_and_changes_nothing(alice_client, draft):
    for _ in range(3):
        alice_client.post(url("ew1:draft-reroll", draft.pk), **HTMX)
    before = draft_row(draft)
    response = alice_client.post(url("ew1:draft-reroll", draft.pk), **HTMX)
    html = html_of(response)
    assert response.status_code == 200 and 'data-testid="error"' in html
    assert "No reroll left this minute" in html and "0 rerolls left this minute" in html
    assert re.search(r'data-testid="reroll"\s+disabled', html)
    assert draft_row(draft) == before


def test_points_are_moved_with_htmx(alice_client, draft):
    deltas = {code: 0 for code in CODES} | {"FOR": 2, "LUK": -2}
    response = alice_client.post(url("ew1:draft-redistribute", draft.pk), deltas, **HTMX)
    html = html_of(response)
    assert response.status_code == 200 and html.lstrip().startswith('<section id="draft"')
    assert f'data-testid="final-FOR">{draft.rolled["FOR"] + 2}<' in html
    assert f'data-testid="final-LUK">{draft.rolled["LUK"] - 2}<' in html
    assert draft_row(draft)["deltas"] == {"FOR": 2, "LUK": -2}


@pytest.mark.parametrize("deltas", [{"FOR": 3, "LUK": -3}, {"FOR": 2}, {"FOR": "x"}],
                         ids=["3-on-one", "unbalanced", "not-a-number"])
def test_a_bad_redistribution_shows_the_error(alice_client, draft, deltas):
    before, counts = draft_row(draft), state()
    data = {code: 0 for code in CODES} | deltas
    response = alice_client.post(url("ew1:draft-redistribute", draft.pk), data, **HTMX)
    assert response.status_code == 200 and 'data-testid="error"' in html_of(response)
    assert draft_row(draft) == before and state() == counts


def test_confirm_redirects_to_the_sheet(alice_client, draft):
    response = alice_client.post(url("ew1:draft-confirm", draft.pk))
    nova = Character.objects.get(name="Nova")
    assert response.status_code == 302 and response["Location"] == url("characters:detail",
                                                                         nova.pk)
    assert not CharacterDraft.objects.filter(pk=draft.pk).exists()


def test_confirm_with_htmx_leaves_the_page_through_hx_redirect(alice_client, draft):
    response = alice_client.post(url("ew1:draft-confirm", draft.pk), **HTMX)
    nova = Character.objects.get(name="Nova")
    assert response.status_code == 200
    assert response["HX-Redirect"] == url("characters:detail", nova.pk)


def test_confirm_with_a_name_taken_meanwhile_goes_back_to_the_draft(alice_client, bob, draft,
                                                                    campaign):
    factories.character(owner=bob, campaign=campaign, name="Nova")
    before = draft_row(draft)
    response = alice_client.post(url("ew1:draft-confirm", draft.pk))
    assert response.status_code == 302 and response["Location"] == url("ew1:draft",
                                                                         draft.pk)
    assert "already exists" in html_of(alice_client.get(response["Location"]))
    assert draft_row(draft) == before and Character.objects.filter(name="Nova").count() == 1


@pytest.mark.parametrize("name, method", [
    ("ew1:draft", "get"), ("ew1:draft-reroll", "post"),
    ("ew1:draft-redistribute", "post"), ("ew1:draft-confirm", "post")])
def test_another_users_draft_is_not_found(bob_client, draft, name, method):
    before = draft_row(draft)
    data = {code: 0 for code in CODES} if name == "ew1:draft-redistribute" else {}
    response = getattr(bob_client, method)(url(name, draft.pk), data)
    assert response.status_code == 404
    assert draft_row(draft) == before and not Character.objects.exists()


# The sheet: inventory, suicide, reincarnation -------------------------------------------------

def test_the_owner_sees_the_inventory_and_its_buttons(alice_client, hero, catalogue):
    _axe, bow, _potion = (give(hero, catalogue[k]) for k in ("axe", "bow", "potion"))
    item_equip(user=hero.owner, character_id=hero.pk, item_id=bow.pk)
    html = html_of(alice_client.get(url("characters:detail", hero.pk)))
    for testid in ("item-Hache", "item-Arc", "item-Potion", "equip-Hache", "unequip-Arc",
                   "use-Potion"):
        assert f'data-testid="{testid}"' in html
    assert 'data-testid="equip-Potion"' not in html


def test_the_game_master_sees_the_sheet_without_the_buttons(hero, catalogue, campaign):
    give(hero, catalogue["axe"])
    give(hero, catalogue["potion"])
    gm = factories.user("gm")
    campaign.game_master = gm
    campaign.save()
    client = Client()
    client.force_login(gm)
    response = client.get(url("characters:detail", hero.pk))
    html = html_of(response)
    assert response.status_code == 200
    assert 'data-testid="item-Hache"' in html and 'data-testid="item-Potion"' in html
    for testid in ("equip-", "unequip-", "use-", "suicide", "reincarnate", "level-up"):
        assert f'data-testid="{testid}' not in html
    before = state()
    item = ItemInstance.objects.get(template__name="Hache")
    assert client.post(url("ew1:equip", hero.pk, item.pk)).status_code == 404
    assert not ItemInstance.objects.get(pk=item.pk).equipped and state() == before


def test_equipping_with_htmx_returns_the_sheet_fragment(alice_client, hero, catalogue):
    axe = give(hero, catalogue["axe"])
    response = alice_client.post(url("ew1:equip", hero.pk, axe.pk), **HTMX)
    html = html_of(response)
    assert response.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<section id="sheet"')
    assert "equipped" in html and 'data-testid="unequip-Hache"' in html
    assert ItemInstance.objects.get(pk=axe.pk).equipped


def test_equipping_a_potion_shows_the_error(alice_client, hero, catalogue):
    potion = give(hero, catalogue["potion"])
    before = state()
    response = alice_client.post(url("ew1:equip", hero.pk, potion.pk), **HTMX)
    assert 'data-testid="error"' in html_of(response)
    assert not ItemInstance.objects.get(pk=potion.pk).equipped and state() == before


def test_using_a_potion_without_htmx(alice_client, hero, catalogue):
    potion = give(hero, catalogue["potion"])
    EternalWarSheet.objects.filter(pk=hero.pk).update(pv=50, pv_anchor=int(time.time()))
    response = alice_client.post(url("ew1:use", hero.pk, potion.pk))
    assert response.status_code == 302 and response["Location"] == url("characters:detail",
                                                                         hero.pk)
    assert 50 < EternalWarSheet.objects.get(pk=hero.pk).pv <= 54
    assert not ItemInstance.objects.filter(pk=potion.pk).exists()


def test_suicide_then_the_sheet_shows_the_wait(alice_client, hero):
    response = alice_client.post(url("combat:suicide", hero.pk), **HTMX)
    html = html_of(response)
    assert response.status_code == 200 and html.lstrip().startswith('<section id="sheet"')
    assert 'data-testid="reincarnation-wait"' in html and "Reincarnation possible in" in html
    assert 'data-testid="reincarnate"' not in html and 'data-testid="suicide"' not in html
    assert Character.objects.get(pk=hero.pk).board_id is None

    before = state()
    refused = alice_client.post(url("combat:reincarnate", hero.pk), **HTMX)
    assert 'data-testid="error"' in html_of(refused) and state() == before


def test_the_reincarnate_button_once_allowed(alice_client, hero):
    Character.objects.filter(pk=hero.pk).update(
        board=None, x=None, y=None, suicided_at=timezone.now() - timedelta(1))
    html = html_of(alice_client.get(url("characters:detail", hero.pk)))
    assert 'data-testid="reincarnate"' in html and 'data-testid="reincarnation-wait"' not in html

    response = alice_client.post(url("combat:reincarnate", hero.pk))
    assert response.status_code == 302
    assert Character.objects.get(pk=hero.pk).board_id == hero.campaign.board.pk


@pytest.mark.parametrize("name", ["combat:suicide", "combat:reincarnate"])
def test_another_player_cannot_kill_or_revive(bob_client, hero, name):
    before = state()
    assert bob_client.post(url(name, hero.pk)).status_code == 404
    assert state() == before


# Level-up -------------------------------------------------------------------------------------

@pytest.fixture
def leveled(hero):
    EternalWarSheet.objects.filter(pk=hero.pk).update(level=1, xp=1, skill_points=15,
                                                      characteristic_points=1)
    return hero


def test_the_level_up_page_shows_the_points_and_the_cap(alice_client, leveled):
    sheet = html_of(alice_client.get(url("characters:detail", leveled.pk)))
    assert 'data-testid="level-up"' in sheet
    response = alice_client.get(url("ew1:level-up", leveled.pk))
    html = html_of(response)
    assert response.status_code == 200
    # Issue 8 (item 18): "1 characteristic point", no longer "1 characteristic points".
    assert ("15 skill points and 1 characteristic point to spend; at most 5 points per skill "
            "at this level.") in html
    assert 'name="skill_melee"' in html and 'name="char_FOR"' in html


def test_spending_on_the_level_up_page(alice_client, leveled):
    response = alice_client.post(url("ew1:level-up", leveled.pk),
                                 allocation(skill_melee=5, skill_dodge=2, char_FOR=1))
    assert response.status_code == 302 and response["Location"] == url("characters:detail",
                                                                         leveled.pk)
    before = EternalWarSheet.objects.get(pk=leveled.pk)
    assert (before.skill_points, before.characteristic_points, before.skills_raised) == (
        8, 0, {"melee": 5, "dodge": 2})


@pytest.mark.parametrize("data, words", [
    (allocation(skill_melee=6), "At most 5 points per skill"),
    (allocation(char_FOR=2), "2 characteristic points spent, 1 available"),
    (allocation(skill_melee=-1), "Points are positive whole numbers."),
    (allocation(), "Choose at least one point to spend."),
], ids=["over-the-cap", "too-many-points", "negative", "nothing"])
def test_a_bad_allocation_shows_the_error_and_changes_nothing(alice_client, leveled, data,
                                                              words):
    fields = ("skills", "skill_points", "characteristic_points", "FOR")
    before = (EternalWarSheet.objects.filter(pk=leveled.pk).values(*fields).get(), state())
    response = alice_client.post(url("ew1:level-up", leveled.pk), data)
    html = html_of(response)
    assert response.status_code == 200 and 'data-testid="error"' in html
    assert words in html
    assert (EternalWarSheet.objects.filter(pk=leveled.pk).values(*fields).get(), state()) == before


def test_fields_left_out_count_as_0(alice_client, leveled):
    response = alice_client.post(url("ew1:level-up", leveled.pk), {"skill_throw": 2})
    assert response.status_code == 302
    assert EternalWarSheet.objects.get(pk=leveled.pk).skills_raised == {"throw": 2}


def test_another_players_level_up_page_is_not_found(bob_client, leveled):
    before = state()
    assert bob_client.get(url("ew1:level-up", leveled.pk)).status_code == 404
    assert bob_client.post(url("ew1:level-up", leveled.pk),
                           allocation(skill_melee=1)).status_code == 404
    assert state() == before


# The board ------------------------------------------------------------------------------------

def test_the_board_shows_an_attack_button_per_kind_and_the_game(alice_client, bob, hero, foe,
                                                                catalogue, campaign):
    factories.character(owner=bob, campaign=campaign, name="Far", at=(8, 5))
    for key in ("axe", "bow"):
        item_equip(user=hero.owner, character_id=hero.pk, item_id=give(hero, catalogue[key]).pk)
    html = html_of(alice_client.get(url("combat:board", hero.pk)))
    for testid in ("attack-Foe", "attack-melee-Foe", "attack-ranged-Foe", "attack-throw-Foe",
                   "attack-ranged-Far", "attack-throw-Far", "game"):
        assert f'data-testid="{testid}"' in html
    assert 'data-testid="attack-Far"' not in html and 'data-testid="attack-melee-Far"' not in html


def test_no_weapon_no_weapon_buttons(alice_client, hero, foe):
    html = html_of(alice_client.get(url("combat:board", hero.pk)))
    assert 'data-testid="attack-Foe"' in html and 'data-testid="attack-throw-Foe"' in html
    assert 'data-testid="attack-melee-Foe"' not in html
    assert 'data-testid="attack-ranged-Foe"' not in html


def test_a_melee_attack_from_the_board(alice_client, hero, foe, catalogue):
    item_equip(user=hero.owner, character_id=hero.pk,
               item_id=give(hero, catalogue["axe"]).pk)
    response = alice_client.post(url("combat:attack", hero.pk),
                                 {"target": foe.pk, "kind": "melee"}, **HTMX)
    assert response.status_code == 200
    assert html_of(response).lstrip().startswith('<section id="board"')
    action = hero.actions.get(kind="melee")
    assert (action.target_id, action.summary["weapon"]) == (foe.pk, "Hache")


def test_playing_a_game_from_the_board(alice_client, hero):
    response = alice_client.post(url("combat:game", hero.pk))
    assert response.status_code == 302 and response["Location"] == url("combat:board", hero.pk)
    assert hero.actions.filter(kind="game").count() == 1


# The leaderboard ------------------------------------------------------------------------------

def test_the_leaderboard_page_and_its_fragment(alice_client, hero, foe, campaign):
    Character.objects.filter(pk=foe.pk).update(kills=2)
    response = alice_client.get(url("campaigns:leaderboard", campaign.pk))
    html = html_of(response)
    assert response.status_code == 200 and "<html" in html
    assert html.index("Foe") < html.index("Hero")
    assert re.search(r'data-testid="rank-1"><td>1</td><td>Foe</td><td>bob</td>', html)

    Character.objects.filter(pk=hero.pk).update(attacks=9)
    fragment = alice_client.get(url("campaigns:leaderboard", campaign.pk), {"order": "attacks"},
                                **HTMX)
    html = html_of(fragment)
    assert "<html" not in html and html.lstrip().startswith('<section id="leaderboard"')
    assert re.search(r'data-testid="rank-1"><td>1</td><td>Hero</td>', html)


def test_a_missing_campaigns_leaderboard_is_not_found(alice_client, db):
    assert alice_client.get(url("campaigns:leaderboard", 987654)).status_code == 404


# CSRF, log-in ---------------------------------------------------------------------------------

POSTS = [
    ("ew1:draft-reroll", "draft"), ("ew1:draft-redistribute", "draft"),
    ("ew1:draft-confirm", "draft"), ("ew1:equip", "item"),
    ("ew1:unequip", "item"), ("ew1:use", "potion"),
    ("combat:suicide", "hero"), ("combat:reincarnate", "hero"),
    ("ew1:level-up", "hero"), ("combat:attack", "hero"), ("combat:game", "hero"),
]


@pytest.fixture
def targets(hero, draft, catalogue):
    return {"draft": [draft.pk], "hero": [hero.pk],
            "item": [hero.pk, give(hero, catalogue["axe"]).pk],
            "potion": [hero.pk, give(hero, catalogue["potion"]).pk]}


@pytest.mark.parametrize("name, needs", POSTS, ids=[p[0] for p in POSTS])
def test_a_post_without_the_csrf_token_is_refused(alice, targets, name, needs):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    before = (state(), list(CharacterDraft.objects.values()), list(ItemInstance.objects.values()))
    response = client.post(reverse(name, args=targets[needs]), {"target": 1, "kind": "brawl"})
    assert response.status_code == 403
    after = (state(), list(CharacterDraft.objects.values()), list(ItemInstance.objects.values()))
    assert after == before


@pytest.mark.parametrize("name, needs", [*POSTS, ("ew1:draft", "draft"),
                                         ("campaigns:leaderboard", "campaign")],
                         ids=[p[0] for p in POSTS] + ["draft-page", "leaderboard"])
def test_anonymous_visitors_are_sent_to_log_in(client, targets, campaign, name, needs):
    path = reverse(name, args=targets.get(needs, [campaign.pk]))
    before = state()
    response = client.post(path) if name in dict(POSTS) else client.get(path)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={path}"
    assert state() == before


# Query counts ---------------------------------------------------------------------------------

@pytest.fixture(params=[1, 20], ids=["1-item", "20-items"])
def equipped_hero(request, hero, foe, catalogue):
    """Alice's hero next to Bob's foe with ``param`` items, a melee and a ranged weapon
    equipped among them (so the board shows every attack button)."""
    kinds = ["axe", "bow", "potion"]
    for i in range(request.param):
        item = give(hero, catalogue[kinds[i % 3]])
        if i < 2:
            item_equip(user=hero.owner, character_id=hero.pk, item_id=item.pk)
    assert hero.items.count() == request.param
    return hero


@pytest.mark.parametrize("extra", [{}, HTMX], ids=["page", "htmx"])
def test_sheet_queries_do_not_grow_with_the_inventory(alice_client, equipped_hero,
                                                      django_assert_num_queries, extra):
    with django_assert_num_queries(SHEET_QUERIES):
        response = alice_client.get(url("characters:detail", equipped_hero.pk), **extra)
    assert response.status_code == 200
    assert html_of(response).count('data-testid="item-') == equipped_hero.items.count()


@pytest.mark.parametrize("extra", [{}, HTMX], ids=["page", "htmx"])
def test_board_queries_do_not_grow_with_the_inventory(alice_client, equipped_hero,
                                                      django_assert_num_queries, extra):
    with django_assert_num_queries(BOARD_QUERIES):
        response = alice_client.get(url("combat:board", equipped_hero.pk), **extra)
    assert response.status_code == 200
    assert 'data-testid="attack-melee-Foe"' in html_of(response)


def test_a_change_that_is_no_number_is_told_the_campaigns_limit(alice_client, draft, campaign):
    campaign.rule_parameters = {"redistribute_per_characteristic": 3}
    campaign.save()
    data = {code: 0 for code in CODES} | {"FOR": "x"}
    html = html_of(alice_client.post(url("ew1:draft-redistribute", draft.pk), data, **HTMX))
    assert "Each change is a whole number, at most 3 either way." in html
    assert 'min="-3" max="3"' in html  # the boxes too
