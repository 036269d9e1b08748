"""The chat's services and who reads what (chat.services, chat.selectors): messages, whispers,
free rolls journaled, the GM's deletion, refusals that change nothing, live announcements."""

from __future__ import annotations

import random

import pytest

from campaigns import live
from campaigns.models import ActionRecord, RollRecord
from chat import selectors, services
from chat.errors import ChatError, ChatNotFound, ChatRateLimited, ChatRefused
from chat.models import Message, To
from gamerules.dice import DiceNotationError
from gamerules.freeroll import FreeRollError
from tests.chat.conftest import NOW


def post(table, who, text, **kw):
    kw.setdefault("campaign_id", None if "encounter_id" in kw else table.campaign.pk)
    return services.message_post(user=who, text=text, rng=random.Random(7), now=NOW, **kw)


def read_by(table, who, **room):
    room = room or {"campaign_id": table.campaign.pk}
    return [m.body for m in selectors.messages_page(
        selectors.room_for(user=who, **room)).messages]


def test_who_reads_which_message(table):
    t = table
    post(t, t.alice, "hello all")
    post(t, t.alice, "psst gm", to=To.GM)
    post(t, t.alice, "psst bob", to=To.PLAYER, recipient_id=t.bob.pk)
    post(t, t.gm, "gm to carol", to=To.PLAYER, recipient_id=t.carol.pk)
    assert read_by(t, t.alice) == ["hello all", "psst gm", "psst bob"]
    assert read_by(t, t.bob) == ["hello all", "psst bob"]
    assert read_by(t, t.carol) == ["hello all", "gm to carol"]
    # The game master reads the whispers to the GM and their own, not one player's to another
    assert read_by(t, t.gm) == ["hello all", "psst gm", "gm to carol"]
    with pytest.raises(ChatNotFound):
        read_by(t, t.stranger)


def test_an_encounters_room_is_its_own_and_its_fighters(table):
    t = table
    post(t, t.bob, "in the fight", encounter_id=t.encounter.pk)
    post(t, t.bob, "at the table")
    assert read_by(t, t.alice, encounter_id=t.encounter.pk) == ["in the fight"]
    assert read_by(t, t.gm, encounter_id=t.encounter.pk) == ["in the fight"]
    assert read_by(t, t.alice) == ["at the table"]
    with pytest.raises(ChatNotFound):  # carol plays no combatant in it
        read_by(t, t.carol, encounter_id=t.encounter.pk)
    with pytest.raises(ChatError) as refused:  # nor may she be whispered to there
        post(t, t.alice, "carol?", encounter_id=t.encounter.pk, to=To.PLAYER,
             recipient_id=t.carol.pk)
    assert refused.value.key == "chat_no_recipient"


def test_a_free_roll_is_journaled_like_every_roll(table):
    t = table
    message = post(t, t.alice, "/roll 2d6+3")
    entry = ActionRecord.objects.get(kind="chat_roll")
    roll = RollRecord.objects.get(action=entry)
    assert message.entry == entry and message.html == ""
    assert (entry.user, entry.actor, entry.campaign) == (t.alice, None, t.campaign)
    assert entry.summary == {"expression": "2d6+3", "chat_campaign": t.campaign.pk,
                             "chat_encounter": None, "private": False}
    faces = [random.Random(7).randint(1, 6) for _ in range(1)]
    assert roll.faces[0] == faces[0] and len(roll.faces) == 2
    assert (roll.expression, roll.total, roll.target_score, roll.grade, roll.modifiers) == (
        "2d6+3", sum(roll.faces) + 3, None, "", [])


def test_a_test_is_graded_by_the_campaigns_system(table):
    t = table
    rng = random.Random(7)
    face = random.Random(7).randint(1, 100)
    services.message_post(user=t.alice, campaign_id=t.campaign.pk, text="/roll d100 <= 55",
                          rng=rng, now=NOW)
    roll = RollRecord.objects.get(action__kind="chat_roll")
    expected = ("critical_success" if face <= 5 else "critical_failure" if face >= 96
                else "success" if face <= 55 else "failure")
    assert (roll.total, roll.target_score, roll.grade) == (face, 55, expected)
    assert roll.success == expected.endswith("success")


def test_a_roll_in_a_whisper_is_private(table):
    t = table
    post(t, t.alice, "/roll 1d20", to=To.GM)
    entry = ActionRecord.objects.get(kind="chat_roll")
    assert entry.summary["private"] is True
    assert read_by(t, t.bob) == [] and read_by(t, t.gm) == ["/roll 1d20"]
    # no journal page shows it: it has no character and no encounter of its own
    assert entry.actor_id is None and "encounter" not in entry.summary


@pytest.mark.parametrize(("text", "error", "key"), [
    ("", ChatError, "chat_empty"),
    ("   \n ", ChatError, "chat_empty"),
    ("nul \x00 byte", ChatError, "chat_bad_characters"),
    ("bell \x07", ChatError, "chat_bad_characters"),
    ("x" * 10_240, ChatError, "chat_too_long"),
    ("/roll 1000d1000000", DiceNotationError, "dice_count_sides"),
    ("/roll 51d6", FreeRollError, "roll_too_many_dice"),
    ("/roll 2d6 <= 7", FreeRollError, "roll_test_d100_only"),
])
def test_bad_input_is_refused_and_changes_nothing(table, text, error, key):
    with pytest.raises(error) as refused:
        post(table, table.alice, text)
    assert refused.value.key == key
    assert not Message.objects.exists() and not ActionRecord.objects.exists()


def test_the_limits_are_settings(table, settings):
    settings.CHAT_MESSAGE_MAX, settings.CHAT_ROLL_MAX_DICE = 10, 2
    with pytest.raises(ChatError) as refused:
        post(table, table.alice, "x" * 11)
    assert refused.value.params == {"length": 11, "max_length": 10}
    with pytest.raises(FreeRollError):
        post(table, table.alice, "/roll 3d6")
    post(table, table.alice, "/roll 2d6")


def test_bad_addressees_are_refused(table):
    t = table
    for to, recipient in (("everyone", None), (To.PLAYER, None), (To.PLAYER, t.stranger.pk),
                          (To.PLAYER, t.alice.pk)):
        with pytest.raises(ChatError):
            post(t, t.alice, "hi", to=to, recipient_id=recipient)
    assert not Message.objects.exists()


def test_posting_is_rate_limited(table, settings):
    settings.CHAT_POST_RATE = "3/m"
    for n in range(3):
        post(table, table.alice, f"message {n}")
    with pytest.raises(ChatRateLimited) as refused:
        post(table, table.alice, "one too many")
    assert (refused.value.status, refused.value.params) == (429, {"rate": "3/m"})
    post(table, table.bob, "bob is counted apart")
    assert Message.objects.count() == 4


def test_the_gm_deletes_a_message_softly(table):
    t = table
    message = post(t, t.alice, "/roll 1d6")
    with pytest.raises(ChatRefused):
        services.message_delete(user=t.alice, message_id=message.pk)
    services.message_delete(user=t.gm, message_id=message.pk, now=NOW)
    services.message_delete(user=t.gm, message_id=message.pk)  # twice: nothing more
    message.refresh_from_db()
    assert (message.deleted_at, message.deleted_by) == (NOW, t.gm)
    shown = selectors.messages_page(selectors.room_for(user=t.bob, campaign_id=t.campaign.pk))
    assert shown.messages[0].deleted and shown.messages[0].entry is None
    assert ActionRecord.objects.filter(kind="chat_roll").exists()  # the journal keeps it


def test_the_gm_cannot_reach_a_whisper_between_players(table):
    t = table
    message = post(t, t.alice, "secret", to=To.PLAYER, recipient_id=t.bob.pk)
    with pytest.raises(ChatNotFound):
        services.message_delete(user=t.gm, message_id=message.pk)
    with pytest.raises(ChatNotFound):
        services.message_delete(user=t.stranger, message_id=message.pk)


def _sent(monkeypatch) -> list:
    sent: list = []
    monkeypatch.setattr(live, "send_event", lambda *args: sent.append(args))
    return sent


def test_a_public_message_is_announced_on_its_room_a_whisper_only_to_its_readers(
        table, monkeypatch, django_capture_on_commit_callbacks):
    t = table
    sent = _sent(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        post(t, t.alice, "/roll 1d6")
    with django_capture_on_commit_callbacks(execute=True):
        post(t, t.bob, "fight!", encounter_id=t.encounter.pk)
    with django_capture_on_commit_callbacks(execute=True):
        post(t, t.alice, "/roll 1d6", to=To.GM)
    with django_capture_on_commit_callbacks(execute=True):
        post(t, t.alice, "psst", to=To.PLAYER, recipient_id=t.bob.pk)
    topics = [args[0] for args in sent if not args[0].startswith("notify-")]
    a, b, gm = t.alice.pk, t.bob.pk, t.gm.pk
    assert topics == [f"chat-{t.campaign.pk}", f"encounterchat-{t.encounter.pk}",
                      f"whisper-{a}", f"whisper-{gm}", f"whisper-{a}", f"whisper-{b}"]
    # and the bells of the whispers' readers (notifications.live)
    assert [args[0] for args in sent if args[0].startswith("notify-")] == [
        f"notify-{gm}", f"notify-{b}"]
    # an event carries its topic only: no text, no roll (nor a board's version: a free roll
    # changes no board)
    assert all(set(args[2]) == {"topic"} for args in sent)


def test_who_reads_the_chat_topics(table):
    t = table
    c, e = t.campaign.pk, t.encounter.pk
    assert [live.can_read(u, f"chat-{c}") for u in (t.gm, t.alice, t.carol, t.stranger)] == [
        True, True, True, False]
    assert [live.can_read(u, f"encounterchat-{e}") for u in (t.gm, t.alice, t.carol)] == [
        True, True, False]
    assert live.can_read(t.alice, f"whisper-{t.alice.pk}")
    assert not live.can_read(t.gm, f"whisper-{t.alice.pk}")


def test_a_shared_entry_of_a_hidden_combatant_reaches_no_player(table):
    """A card the GM shares from the journal: a player reads it as on a sheet (an entry of a
    hidden combatant is left out, its message stays, naming nobody)."""
    from campaigns import journal

    t = table
    ghoul_char = t.hidden  # a name-only combatant: the journal names it in its summary
    entry = journal.record_action(
        campaign=t.campaign, kind="encounter_action_spent", now=NOW, user=t.gm,
        summary={"encounter": t.encounter.pk, "combatant": ghoul_char.name,
                 "combatant_id": ghoul_char.pk})
    open_entry = journal.record_action(
        campaign=t.campaign, kind="encounter_action_spent", now=NOW, user=t.gm,
        summary={"encounter": t.encounter.pk, "combatant": "Alice"})
    services.entry_share(user=t.gm, entry_id=entry.pk)
    services.entry_share(user=t.gm, entry_id=open_entry.pk)
    with pytest.raises(ChatRefused):
        services.entry_share(user=t.alice, entry_id=open_entry.pk)
    roll = post(t, t.alice, "/roll 1d6", to=To.GM)
    with pytest.raises(ChatNotFound):  # a free roll is not shared again (a whisper's is private)
        services.entry_share(user=t.gm, entry_id=roll.entry_id)
    # an encounter's entries go to the encounter's room
    seen = {who: [m.entry_id for m in selectors.messages_page(selectors.room_for(
        user=who, encounter_id=t.encounter.pk)).messages] for who in (t.gm, t.alice)}
    assert seen == {t.gm: [entry.pk, open_entry.pk], t.alice: [None, open_entry.pk]}


def test_the_journal_api_leaves_a_whispers_roll_out_even_for_the_gm(table):
    """The campaign's journal (characters.selectors.campaign_journal, its API) reads the public
    free rolls, never a whisper's: between players the GM does not read it in the chat either."""
    from characters.selectors import campaign_journal

    t = table
    post(t, t.alice, "/roll 1d6")
    post(t, t.alice, "/roll 1d8", to=To.PLAYER, recipient_id=t.bob.pk)
    post(t, t.bob, "/roll 1d10", to=To.GM)
    entries = list(campaign_journal(user=t.gm, campaign_id=t.campaign.pk).entries)
    assert [e.kind for e in entries] == ["chat_roll"]
    assert entries[0].rolls.get().expression == "1d6"
