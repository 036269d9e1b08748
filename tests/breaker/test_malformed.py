"""Malformed input on every action, through the pages (forms) and the API (JSON): numbers past
the database's range, negative and float ids, strings, arrays instead of objects, missing and
unknown fields. Never a 500, and a refused request changes nothing."""

from __future__ import annotations

import pytest

from tests.breaker.conftest import HTMX, api_logged_in, logged_in

HUGE = 10 ** 20
# Values no integer field of the API takes ("1" does; " 1 ", "1.0", 1.0 and "٣", whole numbers
# to DRF, are refused since issue 9).
BAD_NUMBERS = [HUGE, -HUGE, 1.5, "1.5", "abc", "", None, [1], {"a": 1}, True, "1e3", "1 2",
               " 1 ", "1.0", 1.0, "٣"]
# Fields where null or a string is a valid value, and what to try there instead.
BAD_FOR = {"name": [None, [1], {"a": 1}, "", "   ", "x" * 1000],
           "spell": [HUGE, -HUGE, 1.5, "abc", [1], {"a": 1}, True, " 1 ", "٣"],
           "replace": [HUGE, -HUGE, 1.5, "abc", [1], {"a": 1}, True, " 1 ", "٣"],
           "kind": [HUGE, None, "", "fireball", [1], {"a": 1}],
           "skills": [HUGE, "abc", [1], None, {"brawl": None}, {"brawl": [1]}, {"": 1}],
           "characteristics": [HUGE, "abc", [1], None, {"FOR": None}, {"for": 1}],
           "deltas": [HUGE, "abc", [1], None, {"FOR": HUGE, "DEF": -HUGE}, {"FOR": 1.5}]}


def _api_actions(w):
    a = w.a.pk
    return {
        "move": (f"/api/characters/{a}/move/", {"dx": 1, "dy": 0}, ["dx", "dy"]),
        "attack": (f"/api/characters/{a}/attack/", {"target": w.b.pk, "kind": "brawl"},
                   ["target", "kind"]),
        "cast": (f"/api/characters/{a}/cast/", {"spell": w.a_spell.pk, "x": 3, "y": 2},
                 ["spell", "x", "y"]),
        "offer": (f"/api/characters/{a}/spells/offer/",
                  {"offer": w.a_offer.pk, "spell": w.a_offer.spells.first().pk},
                  ["offer", "spell", "replace"]),
        "level-up": (f"/api/characters/{a}/level-up/", {"skills": {"brawl": 1}},
                     ["skills", "characteristics"]),
        "redistribute": (f"/api/drafts/{w.a_draft.pk}/redistribute/",
                         {"deltas": {"FOR": 1, "DEF": -1}}, ["deltas"]),
        "create": ("/api/characters/", {"campaign": w.campaign.pk, "name": "Newcomer"},
                   ["campaign", "name"]),
        "draft": ("/api/drafts/", {"campaign": w.campaign.pk, "name": "Newcomer"},
                  ["campaign", "name"]),
    }


API_FIELDS = [(action, field) for action, fields in {
    "move": ["dx", "dy"], "attack": ["target", "kind"], "cast": ["spell", "x", "y"],
    "offer": ["offer", "spell", "replace"], "level-up": ["skills", "characteristics"],
    "redistribute": ["deltas"], "create": ["campaign", "name"], "draft": ["campaign", "name"],
}.items() for field in fields]


API_CASES = [(action, field, value) for action, field in API_FIELDS
             for value in BAD_FOR.get(field, BAD_NUMBERS)]


@pytest.mark.parametrize("action,field,value", API_CASES,
                         ids=[f"{a}-{f}-{v!r:.20}" for a, f, v in API_CASES])
def test_api_refuses_bad_values_without_a_500(world, unchanged, action, field, value):
    url, body, _ = _api_actions(world)[action]
    client = api_logged_in(world.alice)
    with unchanged():
        response = client.post(url, {**body, field: value}, format="json")
    assert 400 <= response.status_code < 500, (response.status_code, response.content)
    assert response.json()["code"]


@pytest.mark.parametrize("action", ["move", "attack", "cast", "offer", "level-up",
                                    "redistribute", "create", "draft"])
@pytest.mark.parametrize("payload", [[], [1, 2], "text", 42, {"unknown": 1}],
                         ids=["empty-array", "array", "string", "number", "unknown"])
def test_api_refuses_payloads_that_are_not_objects(world, unchanged, action, payload):
    url, _, _ = _api_actions(world)[action]
    client = api_logged_in(world.alice)
    with unchanged():
        response = client.post(url, payload, format="json")
    assert response.status_code == 400, (response.status_code, response.content)
    assert response.json()["code"] == "invalid_input"


def test_api_refuses_a_body_that_is_not_json(world, unchanged):
    client = api_logged_in(world.alice)
    with unchanged():
        response = client.post(f"/api/characters/{world.a.pk}/move/", "{dx: 1",
                               content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


@pytest.mark.parametrize("skills", [{"brawl": -1}, {"brawl": HUGE}, {"brawl": 1, "magic": -1},
                                    {"nope": 1}, {"brawl": 1.5}, {"brawl": 0}, {}],
                         ids=repr)
def test_level_up_abuse_is_refused(world, unchanged, skills):
    client = api_logged_in(world.alice)
    with unchanged():
        response = client.post(f"/api/characters/{world.a.pk}/level-up/", {"skills": skills},
                               format="json")
    assert response.status_code == 400, response.content


def test_level_up_cannot_spend_more_than_banked(world, unchanged):
    from ew1.models import EternalWarSheet
    EternalWarSheet.objects.filter(pk=world.a.pk).update(skill_points=1, characteristic_points=0)
    client = api_logged_in(world.alice)
    with unchanged():
        r1 = client.post(f"/api/characters/{world.a.pk}/level-up/",
                         {"skills": {"brawl": 1, "magic": 1}}, format="json")
        r2 = client.post(f"/api/characters/{world.a.pk}/level-up/",
                         {"characteristics": {"FOR": 1}}, format="json")
        r3 = logged_in(world.alice).post(f"/characters/{world.a.pk}/level-up/",
                                         {"skill_brawl": 1, "skill_magic": 1})
    assert (r1.status_code, r2.status_code) == (400, 400)
    assert r1.json()["code"] == r2.json()["code"] == "invalid_level_up"
    assert r3.status_code == 200 and b'data-testid="error"' in r3.content


def test_level_0_character_has_nothing_to_spend(world, unchanged):
    from tests import factories
    rookie = factories.character(owner=world.alice, campaign=world.campaign, name="Rookie",
                                 at=(7, 7))
    client = api_logged_in(world.alice)
    with unchanged():
        response = client.post(f"/api/characters/{rookie.pk}/level-up/",
                               {"skills": {"brawl": 1}}, format="json")
        page = logged_in(world.alice).post(f"/characters/{rookie.pk}/level-up/",
                                           {"skill_brawl": 1})
        empty = client.post(f"/api/characters/{rookie.pk}/level-up/", {}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_level_up"
    assert page.status_code == 200 and b'data-testid="error"' in page.content
    assert empty.status_code == 400


# Page forms: every field of every action with bad values.
def _page_actions(w):
    a = w.a.pk
    return {
        "move": (f"/characters/{a}/move/", {"dx": 1, "dy": 0}),
        "attack": (f"/characters/{a}/attack/", {"target": w.b.pk, "kind": "brawl"}),
        "cast": (f"/characters/{a}/cast/", {"spell": w.a_spell.pk, "x": 3, "y": 2}),
        "offer": (f"/characters/{a}/spells/",
                  {"offer": w.a_offer.pk, "spell": w.a_offer.spells.first().pk}),
        "level-up": (f"/characters/{a}/level-up/", {"skill_brawl": 1}),
        "redistribute": (f"/characters/drafts/{w.a_draft.pk}/redistribute/",
                         {"FOR": 1, "DEF": -1, "TAI": 0, "INT": 0, "DEX": 0, "LUK": 0}),
        "create": ("/characters/", {"campaign": w.campaign.pk, "name": "Newcomer"}),
    }


PAGE_FIELDS = [(action, field) for action, fields in {
    "move": ["dx", "dy"], "attack": ["target"], "cast": ["spell", "x", "y"],
    "offer": ["offer", "spell", "replace"], "level-up": ["skill_brawl", "char_FOR"],
    "redistribute": ["FOR", "DEF"], "create": ["campaign"],
}.items() for field in fields]
# No value here is a valid whole number for any of these fields (Django takes " 1 " and "٣").
PAGE_VALUES = [str(HUGE), str(-HUGE), "1.5", "abc", "1e3", "\x00", "1 2", "--1"]


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize("value", PAGE_VALUES, ids=repr)
@pytest.mark.parametrize("action,field", PAGE_FIELDS)
def test_pages_refuse_bad_values_without_a_500(world, unchanged, action, field, value, htmx):
    url, body = _page_actions(world)[action]
    client = logged_in(world.alice)
    with unchanged():
        response = client.post(url, {**body, field: value}, **(HTMX if htmx else {}))
    assert response.status_code in (200, 302, 400, 404), response.status_code


@pytest.mark.parametrize("action", ["move", "attack", "cast", "level-up", "redistribute",
                                    "create"])
def test_pages_refuse_missing_fields(world, unchanged, action):
    url, _ = _page_actions(world)[action]
    with unchanged():
        response = logged_in(world.alice).post(url, {}, **HTMX)
    assert response.status_code == 200
    if action != "create":  # an empty POST leaves the creation form unbound: shown again, bare
        assert b'data-testid="error"' in response.content or b"errorlist" in response.content


@pytest.mark.parametrize("kind", ["fireball", "BRAWL", "brawl ", "<b>"])
def test_pages_refuse_unknown_attack_kinds(world, unchanged, kind):
    url, body = _page_actions(world)["attack"]
    with unchanged():
        response = logged_in(world.alice).post(url, {**body, "kind": kind}, **HTMX)
    assert response.status_code == 200 and b'data-testid="error"' in response.content
    assert b"<b>" not in response.content


@pytest.mark.parametrize("name", ["   ", "", "x" * 1000, "é" * 61, "\x00", "a\x00b",
                                  "\u200b" * 5, "\u200b \u2060\ufeff", "\u202e", "\t\n\u3000"],
                         ids=repr)
def test_bad_names_are_refused(world, unchanged, name):
    client = logged_in(world.alice)
    api = api_logged_in(world.alice)
    with unchanged():
        page = client.post("/characters/", {"campaign": world.campaign.pk, "name": name})
        r1 = api.post("/api/characters/", {"campaign": world.campaign.pk, "name": name},
                      format="json")
        r2 = api.post("/api/drafts/", {"campaign": world.campaign.pk, "name": name},
                      format="json")
    assert page.status_code == 200  # the form again, with its error
    assert (r1.status_code, r2.status_code) == (400, 400), (r1.content, r2.content)


def test_a_long_unicode_name_at_the_limit_is_kept_whole(world):
    from ew1.models import CharacterDraft
    name = "Ǽ" * 60
    response = api_logged_in(world.alice).post(
        "/api/drafts/", {"campaign": world.campaign.pk, "name": name}, format="json")
    assert response.status_code == 201, response.content
    assert CharacterDraft.objects.get(pk=response.json()["id"]).name == name


# Ids past the database's range, in the URL or in the body, one at a time.
def _huge_cases(w):
    a, b = w.a.pk, w.b.pk
    return [
        ("page", f"/characters/{HUGE}/move/", {"dx": 1, "dy": 0}),
        ("page", f"/characters/{HUGE}/game/", {}),
        ("page", f"/characters/{HUGE}/suicide/", {}),
        ("page", f"/characters/{HUGE}/reincarnate/", {}),
        ("page", f"/characters/{HUGE}/attack/", {"target": b, "kind": "brawl"}),
        ("page", f"/characters/{a}/attack/", {"target": HUGE, "kind": "brawl"}),
        ("page", f"/characters/{HUGE}/cast/", {"spell": w.a_spell.pk, "x": 3, "y": 2}),
        ("page", f"/characters/{a}/cast/", {"spell": HUGE, "x": 3, "y": 2}),
        ("page", f"/characters/{a}/cast/", {"spell": w.a_spell.pk, "x": HUGE, "y": 2}),
        ("page", f"/characters/{HUGE}/items/{w.a_sword.pk}/equip/", {}),
        ("page", f"/characters/{a}/items/{HUGE}/equip/", {}),
        ("page", f"/characters/{HUGE}/items/{w.a_sword.pk}/unequip/", {}),
        ("page", f"/characters/{HUGE}/items/{w.a_potion.pk}/use/", {}),
        ("page", f"/characters/{a}/spells/", {"offer": HUGE, "spell": 1}),
        ("page", f"/characters/{a}/spells/", {"offer": w.a_offer.pk, "spell": HUGE}),
        ("page", f"/characters/{a}/spells/",
         {"offer": w.a_offer.pk, "spell": w.a_offer.spells.first().pk, "replace": HUGE}),
        ("page", f"/characters/{HUGE}/level-up/", {"skill_brawl": 1}),
        ("page", f"/characters/drafts/{HUGE}/reroll/", {}),
        ("page", f"/characters/drafts/{HUGE}/confirm/", {}),
        ("page", f"/characters/drafts/{HUGE}/redistribute/",
         {"FOR": 1, "DEF": -1, "TAI": 0, "INT": 0, "DEX": 0, "LUK": 0}),
        ("page", "/characters/", {"campaign": HUGE, "name": "Newcomer"}),
        ("api", f"/api/characters/{HUGE}/move/", {"dx": 1, "dy": 0}),
        ("api", f"/api/characters/{a}/attack/", {"target": HUGE}),
        ("api", f"/api/characters/{a}/cast/", {"spell": HUGE, "x": 3, "y": 2}),
        ("api", f"/api/characters/{a}/cast/", {"spell": w.a_spell.pk, "x": HUGE, "y": -HUGE}),
        ("api", f"/api/characters/{HUGE}/items/{w.a_sword.pk}/equip/", {}),
        ("api", f"/api/characters/{a}/items/{HUGE}/equip/", {}),
        ("api", f"/api/characters/{HUGE}/items/{w.a_potion.pk}/use/", {}),
        ("api", f"/api/characters/{a}/spells/offer/", {"offer": HUGE, "spell": 1}),
        ("api", f"/api/characters/{a}/spells/offer/",
         {"offer": w.a_offer.pk, "spell": w.a_offer.spells.first().pk, "replace": HUGE}),
        ("api", f"/api/characters/{HUGE}/level-up/", {"skills": {"brawl": 1}}),
        ("api", f"/api/drafts/{HUGE}/reroll/", {}),
        ("api", f"/api/drafts/{HUGE}/redistribute/", {"deltas": {"FOR": 1, "DEF": -1}}),
        ("api", f"/api/drafts/{HUGE}/confirm/", {}),
        ("api", "/api/drafts/", {"campaign": HUGE, "name": "Newcomer"}),
        ("api", f"/api/campaigns/{HUGE}/leaderboard/", None),
    ]


@pytest.mark.parametrize("case", range(36))
def test_ids_past_the_database_range_are_refused(world, unchanged, case):
    cases = _huge_cases(world)
    assert len(cases) == 36
    kind, url, body = cases[case]
    if kind == "page":
        client = logged_in(world.alice)
        with unchanged():
            response = client.post(url, body, **HTMX)
        assert response.status_code in (200, 400, 404), response.status_code
        if response.status_code == 200:
            assert b'data-testid="error"' in response.content or b"errorlist" in response.content
    else:
        client = api_logged_in(world.alice)
        with unchanged():
            response = (client.get(url) if body is None
                        else client.post(url, body, format="json"))
        assert response.status_code in (400, 404), (response.status_code, response.content)


@pytest.mark.parametrize("value", [str(HUGE), str(-HUGE), str(2 ** 31), str(-2 ** 31 - 1)])
def test_admin_pv_now_past_the_column_range_is_a_form_error(world, client, unchanged, value):
    """Issue 8's "PV now" field had no bounds: a huge value reached the database (500 on SQLite,
    and past 2^31 on PostgreSQL) instead of being refused by the form."""
    from django.urls import reverse

    from tests import factories
    from tests.admin.test_admin_add_forms import form_data

    client.force_login(factories.user("root", is_staff=True, is_superuser=True))
    url = reverse("admin:characters_character_change", args=[world.a.pk])
    page = client.get(url)
    with unchanged():
        response = client.post(url, form_data(page, **{"ew1-0-pv_now": value}))
    assert response.status_code == 200
    assert "pv_now" in response.context["inline_admin_formsets"][0].formset.forms[0].errors


@pytest.mark.parametrize("zone", ["localtime", "posixrules"])
def test_admin_refuses_a_time_zone_that_depends_on_the_machine(db, client, zone):
    """``localtime`` (the machine's own zone, a file zoneinfo opens) passed as the game day's
    time zone: web and worker machines set to different zones would start the day at different
    hours."""
    from campaigns.models import Campaign
    from tests import factories
    from tests.admin.campaign_pages import add_campaign, post_change

    client.force_login(factories.user("root", is_staff=True, is_superuser=True))
    campaign = add_campaign(client, rule_system="ew1")
    response = post_change(client, campaign, param_game_day_time_zone=zone)
    assert response.status_code == 200
    assert "param_game_day_time_zone" in response.context["adminform"].form.errors
    assert Campaign.objects.get().rule_parameters == {}
