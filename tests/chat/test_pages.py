"""The chat's pages and API: each viewer reads only what is theirs on every road (page, htmx
fragment, API), text escaped and markdown sanitised, htmx posts without a reload, bad input
answered in words (never a 500), query counts pinned."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from chat import services
from chat.models import Message, To
from tests.chat.conftest import NOW

HX = {"HTTP_HX_REQUEST": "true"}


def page_of(client, who, url):
    client.force_login(who)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def api_of(client, who, url):
    client.force_login(who)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def whispers(table):
    t = table
    say = lambda who, text, **kw: services.message_post(  # noqa: E731
        user=who, campaign_id=t.campaign.pk, text=text, rng=random.Random(3), now=NOW, **kw)
    say(t.alice, "PUBLIC-HELLO")
    say(t.alice, "TO-GM-SECRET", to=To.GM)
    say(t.alice, "ALICE-TO-BOB", to=To.PLAYER, recipient_id=t.bob.pk)
    say(t.alice, "/roll 7d7", to=To.GM)
    return t


def test_a_whisper_reaches_nobody_else_by_any_road(client, whispers):
    t = whispers
    c = t.campaign.pk
    roads = [reverse("chat:campaign", args=[c]), reverse("chat:campaign", args=[c]) + "?part=log",
             reverse("api-campaign-chat", args=[c])]
    for url in roads:
        carol = page_of(client, t.carol, url)
        assert "PUBLIC-HELLO" in carol
        assert [w for w in ("TO-GM-SECRET", "ALICE-TO-BOB", "7d7") if w in carol] == [], url
        bob = page_of(client, t.bob, url)
        assert "ALICE-TO-BOB" in bob and "TO-GM-SECRET" not in bob and "7d7" not in bob
        gm = page_of(client, t.gm, url)
        assert "TO-GM-SECRET" in gm and "7d7" in gm and "ALICE-TO-BOB" not in gm
    client.force_login(t.stranger)
    assert client.get(roads[0]).status_code == 404
    assert client.get(roads[2]).status_code == 404


def test_no_log_line_carries_a_whisper(table, caplog):
    t = table
    with caplog.at_level("DEBUG"):
        services.message_post(user=t.alice, campaign_id=t.campaign.pk, text="LOGGED-NOWHERE",
                              to=To.GM, now=NOW)
    assert "LOGGED-NOWHERE" not in caplog.text


def test_text_is_escaped_and_markdown_sanitised(client, table):
    t = table
    services.message_post(user=t.alice, campaign_id=t.campaign.pk, now=NOW,
                          text="**bold** <script>alert(1)</script> [x](javascript:alert(1)) "
                               "<img src=x onerror=alert(1)>")
    html = page_of(client, t.bob, reverse("chat:campaign", args=[t.campaign.pk]))
    assert "<strong>bold</strong>" in html
    assert "<script>alert" not in html and "&lt;script&gt;" in html
    assert 'href="javascript' not in html and "<img" not in html


def test_an_htmx_post_answers_the_form_and_wakes_the_log(client, table):
    t = table
    client.force_login(t.alice)
    url = reverse("chat:campaign", args=[t.campaign.pk])
    response = client.post(url, {"text": "/roll d100 <= 55", "to": "all"}, **HX)
    assert response.status_code == 200 and response["HX-Trigger"] == "chat-posted"
    assert 'id="chat-form"' in response.content.decode()
    log = client.get(url + "?part=log", **HX).content.decode()
    assert 'data-testid="roll-card"' in log and "≤ 55" in log and 'data-testid="grade"' in log


def test_without_javascript_a_post_redirects_and_an_error_shows_on_the_page(client, table):
    t = table
    client.force_login(t.alice)
    url = reverse("chat:campaign", args=[t.campaign.pk])
    assert client.post(url, {"text": "hello"})["Location"] == url
    refused = client.post(url, {"text": "/roll 1000d1000000"})
    assert refused.status_code == 400
    assert "between 1 and 100 dice" in refused.content.decode()


@pytest.mark.parametrize(("data", "words"), [
    ({"text": "a\x00b"}, "cannot be sent"),
    ({"text": "x" * 10_240}, "at most 2000"),
    ({"text": "/roll 1000d1000000"}, "between 1 and 100 dice"),
    ({"text": "/roll 51d6"}, "at most 50"),
    ({"text": "hi", "to": "player", "recipient": "99999999999999999999"}, "whisper to"),
    ({"text": "hi", "to": "player", "recipient": "³"}, "whisper to"),
    ({"text": "hi", "to": "\x00"}, "everyone"),
    ({}, "Write a message"),
])
def test_bad_input_on_the_page_is_an_error_in_words(client, table, data, words):
    client.force_login(table.alice)
    url = reverse("chat:campaign", args=[table.campaign.pk])
    response = client.post(url, data, **HX)
    assert response.status_code == 200 and words in response.content.decode()
    assert "HX-Trigger" not in response and not Message.objects.exists()


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"text": "a\x00b"}, 400, "invalid_input"),  # DRF: "Null characters are not allowed."
    ({"text": "x" * 10_240}, 400, "chat_invalid"),
    ({"text": "/roll 1000d1000000"}, 400, "invalid_dice"),
    ({"text": "/roll 2d6 <= 5"}, 400, "invalid_roll"),
    ({"text": "hi", "to": "player"}, 400, "chat_invalid"),
    ({"text": "hi", "colour": "red"}, 400, None),
    ({"text": "hi", "recipient": 1.5}, 400, None),
])
def test_bad_input_on_the_api_is_a_4xx_with_its_code(client, table, body, status, code):
    client.force_login(table.alice)
    response = client.post(reverse("api-campaign-chat", args=[table.campaign.pk]), body,
                           content_type="application/json")
    assert response.status_code == status
    if code:
        assert response.json()["code"] == code
    assert not Message.objects.exists()


def test_the_api_posts_pages_and_deletes(client, table, settings):
    t = table
    client.force_login(t.alice)
    url = reverse("api-campaign-chat", args=[t.campaign.pk])
    made = client.post(url, {"text": "/roll 2d6+3"}, content_type="application/json")
    assert made.status_code == 201
    card = made.json()["card"]
    assert card["kind"] == "chat_roll" and card["rolls"][0]["expression"] == "2d6+3"
    for n in range(55):
        Message.objects.create(campaign=t.campaign, author=t.bob, body=f"m{n}", created_at=NOW)
    first = client.get(url).json()
    assert len(first["results"]) == 50 and first["results"][-1]["text"] == "m54"
    older = client.get(url, {"before": first["next"]}).json()
    assert len(older["results"]) == 6 and older["next"] is None
    assert older["results"][0]["card"]["rolls"][0]["total"] == card["rolls"][0]["total"]
    client.force_login(t.gm)
    gone = client.delete(reverse("api-chat-message", args=[made.json()["id"]]))
    assert gone.status_code == 200 and gone.json()["deleted"] and gone.json()["card"] is None
    client.force_login(t.alice)
    assert client.delete(reverse("api-chat-message", args=[made.json()["id"]])).status_code == 403
    settings.CHAT_POST_RATE = "1/m"
    client.post(url, {"text": "one"}, content_type="application/json")
    limited = client.post(url, {"text": "two"}, content_type="application/json")
    assert (limited.status_code, limited.json()["code"]) == (429, "rate_limited")


def test_the_page_pages_back_fifty_at_a_time(client, table):
    t = table
    for n in range(120):
        Message.objects.create(campaign=t.campaign, author=t.bob, body=f"m{n}", html=f"<p>m{n}</p>",
                               created_at=NOW)
    url = reverse("chat:campaign", args=[t.campaign.pk])
    html = page_of(client, t.alice, url)
    assert html.count('data-testid="chat-message"') == 50 and "m119" in html and "m69" not in html
    older = Message.objects.order_by("-id")[49].pk
    assert f"?before={older}" in html
    assert "m69" in page_of(client, t.alice, f"{url}?before={older}")
    assert page_of(client, t.alice, f"{url}?before=not-a-number").count(
        'data-testid="chat-message"') == 50


def test_the_gm_deletes_from_the_page(client, table):
    t = table
    m = services.message_post(user=t.alice, campaign_id=t.campaign.pk, text="RUDE WORDS", now=NOW)
    client.force_login(t.alice)
    assert client.post(reverse("chat:delete", args=[m.pk]), **HX).status_code == 403
    client.force_login(t.gm)
    log = client.post(reverse("chat:delete", args=[m.pk]), **HX).content.decode()
    assert "RUDE WORDS" not in log and "deleted by the game master" in log
    assert "RUDE WORDS" not in page_of(client, t.bob, reverse("chat:campaign", args=[t.campaign.pk]))


def test_the_encounter_pages_carry_the_chat_and_the_nav_links_it(client, table):
    t = table
    html = page_of(client, t.alice, reverse("encounters:play", args=[t.encounter.pk]))
    assert f'data-live="encounterchat-{t.encounter.pk} whisper-{t.alice.pk}"' in html
    assert reverse("chat:encounter", args=[t.encounter.pk]) + "?part=form" in html
    assert reverse("chat:index") in html
    assert "The table" in page_of(client, t.alice, reverse("chat:index"))
    form = page_of(client, t.alice, reverse("chat:encounter", args=[t.encounter.pk]) + "?part=form")
    assert ">bob<" in form and ">carol<" not in form  # whom she may whisper to there


def test_hidden_combatants_are_never_named(client, table):
    t = table
    services.message_post(user=t.gm, encounter_id=t.encounter.pk, text="/roll d100 <= 40",
                          now=NOW)
    for url in (reverse("chat:encounter", args=[t.encounter.pk]),
                reverse("chat:encounter", args=[t.encounter.pk]) + "?part=form",
                reverse("api-encounter-chat", args=[t.encounter.pk])):
        assert "Lurking ghoul" not in page_of(client, t.alice, url)


def test_the_page_in_french(client, table):
    services.message_post(user=table.alice, campaign_id=table.campaign.pk,
                          text="/roll d100 <= 55", rng=random.Random(1), now=NOW)
    client.cookies["django_language"] = "fr"
    html = page_of(client, table.bob, reverse("chat:campaign", args=[table.campaign.pk]))
    assert "Envoyer" in html and "Discussion" in html and "dés" in html


@pytest.mark.parametrize("size", [5, 60])
def test_query_counts_of_the_chat_page(client, table, django_assert_num_queries, size,
                                      settings):
    t = table
    settings.CHAT_POST_RATE = "1000/m"
    for n in range(size):
        services.message_post(user=t.alice if n % 2 else t.bob, campaign_id=t.campaign.pk,
                              text="/roll 2d6" if n % 3 == 0 else f"m{n}", now=NOW)
    client.force_login(t.alice)
    url = reverse("chat:campaign", args=[t.campaign.pk])
    # session, user, the room, its messages (authors, recipients, cards), the cards' rolls,
    # whom to whisper to
    with django_assert_num_queries(6):
        assert client.get(url).status_code == 200
    with django_assert_num_queries(5):  # the log alone: no recipients
        assert client.get(url + "?part=log", **HX).status_code == 200


@pytest.mark.parametrize(("text", "queries"), [("hello", 8), ("/roll d100 <= 55", 10)])
def test_query_counts_of_a_post(client, table, django_assert_num_queries, text, queries):
    client.force_login(table.alice)
    url = reverse("chat:campaign", args=[table.campaign.pk])
    # session, user, the room (the page's), savepoint, the room (the service's own check), the
    # message's INSERT, release, then the fresh form's recipients; a roll adds the journal's
    # two INSERTs (the action, its roll)
    with django_assert_num_queries(queries):
        assert client.post(url, {"text": text}, **HX).status_code == 200


@pytest.mark.parametrize("size", [5, 60])
def test_query_counts_of_the_api(client, table, django_assert_num_queries, size, settings):
    t = table
    settings.CHAT_POST_RATE = "1000/m"
    for n in range(size):
        services.message_post(user=t.bob, campaign_id=t.campaign.pk,
                              text="/roll 2d6" if n % 3 == 0 else f"m{n}", now=NOW)
    client.force_login(t.alice)
    url = reverse("api-campaign-chat", args=[t.campaign.pk])
    with django_assert_num_queries(5):  # session, user, the room, the messages, the cards' rolls
        assert client.get(url).status_code == 200
    # session, user, savepoint, the room, the journal's two INSERTs, the message, release, the
    # answer's card reading its roll back
    with django_assert_num_queries(9):
        assert client.post(url, {"text": "/roll d100 <= 55"},
                           content_type="application/json").status_code == 201


def test_the_gm_shows_an_encounter_entry_in_the_chat_from_its_log(client, table):
    from campaigns import journal
    from characters.models import Character

    t = table
    entry = journal.record_action(campaign=t.campaign, kind="encounter_action_spent", now=NOW,
                                  user=t.gm, actor=Character.objects.get(owner=t.alice),
                                  summary={"encounter": t.encounter.pk, "combatant": "Alice"})
    control = page_of(client, t.gm, reverse("encounters:control", args=[t.encounter.pk]))
    assert reverse("chat:share", args=[entry.pk]) in control
    play = page_of(client, t.alice, reverse("encounters:play", args=[t.encounter.pk]))
    assert 'data-testid="show-in-chat"' not in play
    assert client.post(reverse("chat:share", args=[entry.pk]), **HX).status_code == 403
    client.force_login(t.gm)
    shared = client.post(reverse("chat:share", args=[entry.pk]), **HX)
    assert shared.status_code == 200 and shared["HX-Trigger"] == "chat-posted"
    log = page_of(client, t.bob, reverse("chat:encounter", args=[t.encounter.pk]) + "?part=log")
    assert "the game master counts the move as the turn" in log
