"""The chat, its roll cards and its API under a hostile player, a careless GM and a newcomer
(docs/chat.md): markup that would run, bytes PostgreSQL refuses, rooms and messages of others,
a shared card that would say more than the journal does. Each refusal is clear, changes
nothing and is never a 500."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from campaigns import journal
from chat import markup, selectors, services
from chat.errors import ChatNotFound
from chat.models import Message, To
from tests import factories
from tests.chat.conftest import NOW
from tests.chat.conftest import table as chat_table  # noqa: F401  the fixture "table"

pytestmark = pytest.mark.django_db


@pytest.fixture(name="table")
def _table(chat_table):  # noqa: F811  the chat's table (tests.chat.conftest)
    return chat_table


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize("text", [
    "<script>alert(1)</script>",
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](java&#x09;script:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "![x](https://evil.example/x.png)",
    '<img src=x onerror="alert(1)">',
    "<a href=\"javascript:alert(1)\">x</a>",
    "[x](vbscript:msgbox(1))",
    "<https://evil.example/\" onmouseover=\"alert(1)>",
    '[x](https://a.example "t\\" onmouseover=\\"alert(1)")',
    "&lt;script&gt;alert(1)&lt;/script&gt;",
])
def test_markup_that_would_run_is_shown_as_text(text):
    html = markup.render(text)
    tags = re.findall(r"<[^>]*>", html)
    assert all(re.fullmatch(r"</?(p|a|strong|em|code|br)( [^>]*)?>", tag) for tag in tags), html
    for tag in tags:
        attributes = dict(re.findall(r' ([a-z]+)="([^"]*)"', tag))
        assert set(attributes) <= {"href", "title", "rel"}, html
        scheme = re.match(r"([a-z][a-z0-9+.-]*):", attributes.get("href", "").lower())
        assert scheme is None or scheme[1] in {"http", "https", "mailto"}, html


def test_a_link_keeps_its_safe_scheme_and_is_nofollow():
    html = markup.render("[x](https://example.org/a?b=1&c=2)")
    assert 'href="https://example.org/a?b=1&amp;c=2"' in html
    assert 'rel="noopener noreferrer nofollow"' in html


@pytest.mark.parametrize("text", ["a\x00b", "\x00", "a\x1bb", "a\x7f"])
def test_nul_and_control_bytes_are_refused_by_the_page_and_the_api(client, table, text):
    t = table
    before = Message.objects.count()
    answer = _api(t.alice).post(f"/api/campaigns/{t.campaign.pk}/chat/", {"text": text},
                                format="json")
    assert answer.status_code == 400
    client.force_login(t.alice)
    page = client.post(f"/chat/campaigns/{t.campaign.pk}/", {"text": text})
    assert page.status_code == 400
    assert Message.objects.count() == before


def test_huge_input_is_refused_in_words(client, table):
    t = table
    before = Message.objects.count()
    for size in (2001, 100_001, 1_000_000):
        answer = _api(t.alice).post(f"/api/campaigns/{t.campaign.pk}/chat/",
                                    {"text": "x" * size}, format="json")
        assert answer.status_code == 400, size
    client.force_login(t.alice)
    assert client.post(f"/chat/campaigns/{t.campaign.pk}/",
                       {"text": "x" * 200_000}).status_code == 400
    assert Message.objects.count() == before


@pytest.mark.parametrize("body", [
    {"text": "hi", "to": "everyone"},
    {"text": "hi", "to": "player"},
    {"text": "hi", "to": "player", "recipient": 0},
    {"text": "hi", "to": "player", "recipient": 2**63},
    {"text": "hi", "to": "player", "recipient": "abc"},
    {"text": ["hi"]},
    {"text": {"a": 1}},
    {"text": None},
    {"text": "hi", "extra": 1},
    {"text": "/roll 1000d1000000"},
    {"text": "/roll d100 <= 99999999999999999999"},
    {"text": "/roll 4d6kh3"},
    {"text": "/roll 1d0"},
    {"text": "/roll (((((((((((1d6)))))))))))" * 30},
])
def test_bad_posts_are_4xx_and_change_nothing(table, body):
    t = table
    before = Message.objects.count(), journal.ActionRecord.objects.count()
    answer = _api(t.alice).post(f"/api/campaigns/{t.campaign.pk}/chat/", body, format="json")
    assert 400 <= answer.status_code < 500, answer.content
    assert "code" in answer.json()
    assert (Message.objects.count(), journal.ActionRecord.objects.count()) == before


def test_a_whisper_to_someone_outside_the_room_is_refused(table):
    t = table
    api = _api(t.alice)
    for who in (t.stranger, t.alice, t.gm):
        answer = api.post(f"/api/campaigns/{t.campaign.pk}/chat/",
                          {"text": "psst", "to": "player", "recipient": who.pk}, format="json")
        assert answer.status_code == 400, who
    # carol is not in the encounter: no whisper to her in its room
    answer = api.post(f"/api/encounters/{t.encounter.pk}/chat/",
                      {"text": "psst", "to": "player", "recipient": t.carol.pk}, format="json")
    assert answer.status_code == 400
    assert not Message.objects.exists()


@pytest.mark.parametrize("before", ["abc", "-1", "0", "1.5", "99999999999999999999", "\x00",
                                    "١٢"])
def test_a_garbage_before_is_a_400_on_the_api_and_ignored_by_the_page(client, table, before):
    t = table
    answer = _api(t.alice).get(f"/api/campaigns/{t.campaign.pk}/chat/", {"before": before})
    assert answer.status_code == 400
    client.force_login(t.alice)
    assert client.get(f"/chat/campaigns/{t.campaign.pk}/",
                      {"before": before, "part": "log"}).status_code == 200


def test_paging_back_reaches_every_message_once(table, settings):
    settings.CHAT_POST_RATE = "1000/m"
    t = table
    for i in range(53):
        services.message_post(user=t.alice, text=f"m{i}", campaign_id=t.campaign.pk, now=NOW)
    api = _api(t.bob)
    seen, before = [], None
    while True:
        query = {"before": before} if before else {}
        page = api.get(f"/api/campaigns/{t.campaign.pk}/chat/", query).json()
        seen = [m["text"] for m in page["results"]] + seen
        before = page["next"]
        if before is None:
            break
    assert seen == [f"m{i}" for i in range(53)]


def test_strangers_and_other_campaigns_rooms_are_404(client, table):
    t = table
    other = factories.HomebrewCampaignFactory(game_master=factories.user("gm2"))
    other_enc = factories.EncounterFactory(campaign=other)
    for user in (t.stranger, t.alice):
        api = _api(user)
        for url in (f"/api/campaigns/{other.pk}/chat/", f"/api/encounters/{other_enc.pk}/chat/",
                    "/api/campaigns/999999/chat/", "/api/encounters/999999/chat/"):
            assert api.get(url).status_code == 404, url
            assert api.post(url, {"text": "hi"}, format="json").status_code == 404, url
    api = _api(t.carol)  # of the campaign, not of the encounter
    assert api.get(f"/api/encounters/{t.encounter.pk}/chat/").status_code == 404
    assert not Message.objects.exists()
    assert APIClient().get(f"/api/campaigns/{t.campaign.pk}/chat/").status_code in (401, 403)


def test_nobody_but_the_gm_deletes_and_no_gm_deletes_another_campaigns_message(client, table):
    t = table
    public = services.message_post(user=t.alice, text="hi", campaign_id=t.campaign.pk, now=NOW)
    between = services.message_post(user=t.alice, text="secret", campaign_id=t.campaign.pk,
                                    to=To.PLAYER, recipient_id=t.bob.pk, now=NOW)
    other_gm = factories.user("gm2")
    factories.HomebrewCampaignFactory(game_master=other_gm)
    assert _api(t.alice).delete(f"/api/chat/messages/{public.pk}/").status_code == 403
    assert _api(t.stranger).delete(f"/api/chat/messages/{public.pk}/").status_code == 404
    assert _api(other_gm).delete(f"/api/chat/messages/{public.pk}/").status_code == 404
    assert _api(t.gm).delete(f"/api/chat/messages/{between.pk}/").status_code == 404
    assert _api(t.gm).delete("/api/chat/messages/99999999/").status_code == 404
    client.force_login(t.alice)
    assert client.post(f"/chat/messages/{public.pk}/delete/").status_code == 403
    client.force_login(t.gm)
    assert client.post(f"/chat/messages/{between.pk}/delete/").status_code == 404
    assert not Message.objects.filter(deleted_at__isnull=False).exists()


def test_the_gm_never_reads_a_whisper_between_players_by_any_road(client, table):
    t = table
    services.message_post(user=t.alice, text="secret-xyz", campaign_id=t.campaign.pk,
                          to=To.PLAYER, recipient_id=t.bob.pk, now=NOW)
    services.message_post(user=t.alice, text="/roll 1d6", campaign_id=t.campaign.pk,
                          to=To.PLAYER, recipient_id=t.bob.pk, now=NOW)
    for who in (t.gm, t.carol):
        assert "secret-xyz" not in _api(who).get(
            f"/api/campaigns/{t.campaign.pk}/chat/").content.decode()
        client.force_login(who)
        for part in ("", "log"):
            page = client.get(f"/chat/campaigns/{t.campaign.pk}/", {"part": part})
            assert "secret-xyz" not in page.content.decode()
        journal_api = _api(who).get(f"/api/campaigns/{t.campaign.pk}/journal/")
        assert "chat_roll" not in journal_api.content.decode()
    assert "secret-xyz" in _api(t.bob).get(f"/api/campaigns/{t.campaign.pk}/chat/").content.decode()


def test_a_gm_cannot_share_another_campaigns_entry_nor_a_player_any(client, table):
    t = table
    other_gm = factories.user("gm2")
    other = factories.HomebrewCampaignFactory(game_master=other_gm)
    theirs = journal.record_action(campaign=other, kind="encounter_action_spent", now=NOW, user=other_gm,
                                   summary={})
    ours = journal.record_action(campaign=t.campaign, kind="encounter_action_spent", now=NOW, user=t.gm,
                                 summary={"encounter": "x"})
    client.force_login(t.gm)
    assert client.post(f"/chat/entries/{theirs.pk}/share/").status_code == 404
    assert client.post("/chat/entries/99999999/share/").status_code == 404
    client.force_login(t.alice)
    assert client.post(f"/chat/entries/{ours.pk}/share/").status_code == 403
    client.force_login(t.stranger)
    assert client.post(f"/chat/entries/{ours.pk}/share/").status_code == 404
    assert client.get(f"/chat/entries/{ours.pk}/share/").status_code == 405
    assert not Message.objects.exists()
    with pytest.raises(ChatNotFound):
        selectors.room_for(user=t.stranger, campaign_id=t.campaign.pk)


def test_a_shared_attack_on_an_enemy_says_no_more_of_its_state_than_the_journal(
        table, django_assert_num_queries):
    """The campaign shows the enemies' state "described": the encounter's journal (its API)
    gives a player no enemy's HP; a card the GM shows in the chat must not either."""
    t = table
    alice_char = t.alice.characters.get()
    wolf = factories.CharacterFactory(campaign=t.campaign, owner=None, name="Wolf",
                                      kind="creature")
    factories.CombatantFactory(encounter=t.encounter, character=wolf)
    entry = journal.record_action(
        campaign=t.campaign, kind="encounter_action_spent", now=NOW, user=t.gm,
        actor=alice_char, target=wolf,
        summary={"encounter": t.encounter.pk, "hp": 3, "hp_before": 10,
                 "result": {"hp": 3, "hp_before": 10, "damage": 7}})
    journal_api = _api(t.alice).get(f"/api/encounters/{t.encounter.pk}/journal/").json()
    read = next(e for e in journal_api["results"] if e["id"] == entry.pk)
    assert "hp" not in read["summary"] and "hp" not in read["summary"]["result"]
    services.entry_share(user=t.gm, entry_id=entry.pk)
    chat = _api(t.alice).get(f"/api/encounters/{t.encounter.pk}/chat/").json()
    card = chat["results"][-1]["card"]
    assert card["id"] == entry.pk
    assert "hp" not in card["summary"], card
    assert "hp_before" not in card["summary"]["result"], card
    gm_card = _api(t.gm).get(f"/api/encounters/{t.encounter.pk}/chat/").json()["results"][-1]
    assert gm_card["card"]["summary"]["hp"] == 3  # the GM reads it whole
    room = selectors.room_for(user=t.alice, encounter_id=t.encounter.pk)
    # the messages, the cards' rolls, the cards the player may read, the player's characters
    with django_assert_num_queries(4):
        selectors.messages_page(room)


def test_a_hidden_combatants_player_is_not_named_by_the_encounters_whisper_list(table):
    """Bob's fighter is hidden in the encounter (an ambush): Alice's room must not offer to
    whisper to him there, nor take a whisper to him (he is not in the room as she sees it)."""
    from encounters.models import Combatant

    t = table
    Combatant.objects.filter(encounter=t.encounter, character__owner=t.bob).update(hidden=True)
    room = selectors.room_for(user=t.alice, encounter_id=t.encounter.pk)
    assert t.bob not in selectors.recipients(room)
    answer = _api(t.alice).post(f"/api/encounters/{t.encounter.pk}/chat/",
                                {"text": "psst", "to": "player", "recipient": t.bob.pk},
                                format="json")
    assert answer.status_code == 400
    gm_room = selectors.room_for(user=t.gm, encounter_id=t.encounter.pk)
    assert t.bob in selectors.recipients(gm_room)  # the GM knows who is there
    assert not Message.objects.exists()


@pytest.mark.parametrize("raw", ['{"text": "a\\ud800b"}', '{"text": "/roll 1d6 \\udfff"}',
                                 '{"text": "hi", "to": "gm\\ud800"}'])
def test_a_lone_surrogate_in_json_is_a_400(table, raw):
    """JSON may escape half of a UTF-16 pair; no UTF-8 text holds it (PostgreSQL, nh3)."""
    t = table
    answer = _api(t.alice).generic("POST", f"/api/campaigns/{t.campaign.pk}/chat/", raw,
                                   content_type="application/json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "parse_error"  # as for malformed JSON
    assert not Message.objects.exists()
    # a whole pair, escaped, is one character like any other
    emoji = _api(t.alice).generic("POST", f"/api/campaigns/{t.campaign.pk}/chat/",
                                  '{"text": "\\ud83d\\ude00"}', content_type="application/json")
    assert emoji.status_code == 201
    assert Message.objects.get().body == "\U0001f600"


@pytest.mark.parametrize("text", ["---", "***", "___", "[x]: https://example.org", "<!-- -->"])
def test_a_message_markdown_would_render_empty_still_shows_its_text(text):
    """A thematic break (no ``hr`` allowed) or a lone link definition renders to nothing: the
    message would show as an empty line from its author."""
    html = markup.render(text)
    assert html.strip(), text


def test_no_one_listens_to_anothers_whispers_or_a_room_they_may_not_enter(client, table):
    """``/live/?t=``: a whisper topic is its user's alone; a room's topic is its readers'; one
    refused topic among allowed ones refuses them all (404; the test client is WSGI: 204)."""
    t = table
    client.force_login(t.alice)
    mine = f"whisper-{t.alice.pk}"
    assert client.get(f"/live/?t={mine}&t=chat-{t.campaign.pk}").status_code == 204
    for refused in (f"whisper-{t.bob.pk}", f"whisper-{t.gm.pk}", "whisper-0",
                    f"whisper-0{t.bob.pk}", f"encounterchat-{t.encounter.pk + 1}",
                    "chat-999999", f"whisper-{t.bob.pk}-{t.alice.pk}"):
        assert client.get(f"/live/?t={mine}&t={refused}").status_code == 404, refused
    client.force_login(t.carol)  # of the campaign, not of the encounter
    assert client.get(f"/live/?t=encounterchat-{t.encounter.pk}").status_code == 404
    client.force_login(t.gm)  # the GM reads no player's whisper topic
    assert client.get(f"/live/?t=whisper-{t.alice.pk}").status_code == 404
