"""The live topics (campaigns.live): names, who reads each kind (exactly who sees its page), the
generic stream view's answers under WSGI, and what a bump of the board counters announces."""

from __future__ import annotations

import pytest

from campaigns import live, versions
from characters.models import Character
from tests import factories
from tests.factories import PASSWORD


@pytest.mark.parametrize("name, expected", [("board-3", ("board", 3)), ("character-12", ("character", 12)),
                                            ("board-0", None), ("board-", None), ("Board-3", None),
                                            ("board-3x", None), ("-3", None), ("board--3", None)])
def test_topic_names(name, expected):
    assert live.parse(name) == expected


@pytest.fixture
def table(db):
    gm, alice, bob = (factories.user(n) for n in ("gm", "alice", "bob"))
    campaign = factories.campaign()
    campaign.game_master = gm
    campaign.save()
    hero = Character.objects.create(campaign=campaign, owner=alice, name="Hero")
    return campaign, gm, alice, bob, hero


def test_who_reads_a_board_and_a_character(table):
    campaign, gm, alice, bob, hero = table
    board, sheet = f"board-{campaign.pk}", f"character-{hero.pk}"
    assert live.can_read(gm, board) and live.can_read(alice, board)
    assert not live.can_read(bob, board)
    assert live.can_read(gm, sheet) and live.can_read(alice, sheet)
    assert not live.can_read(bob, sheet)
    assert not live.can_read(gm, "board-999999") and not live.can_read(gm, "character-999999")
    assert not live.can_read(gm, f"nothing-{campaign.pk}")


def test_the_stream_view(client, table):
    campaign, _gm, _alice, _bob, hero = table
    url = f"/live/?t=board-{campaign.pk}&t=character-{hero.pk}"
    assert client.get(url).status_code == 302  # a visitor: to the login page
    client.login(username="bob", password=PASSWORD)
    assert client.get(url).status_code == 404
    client.login(username="alice", password=PASSWORD)
    assert client.get(url).status_code == 204  # WSGI: the page keeps polling
    assert client.get("/live/").status_code == 404
    assert client.get("/live/?t=board-x").status_code == 404
    many = "&".join(f"t=character-{n}" for n in range(1, live.MAX_TOPICS + 2))
    assert client.get(f"/live/?{many}").status_code == 404


def test_a_board_bump_announces_the_board_and_the_pieces(table, monkeypatch,
                                                          django_capture_on_commit_callbacks):
    campaign, _gm, _alice, _bob, hero = table
    sent = []
    monkeypatch.setattr(live, "send_event", lambda *args: sent.append(args))
    with django_capture_on_commit_callbacks(execute=True):
        versions.version_bump_pieces(campaign_id=campaign.pk, actor=hero)
    topics = [args[0] for args in sent]
    assert topics == [f"board-{campaign.pk}", f"character-{hero.pk}"]
    assert all(args[2] == {"topic": args[0]} for args in sent)  # nothing but the topic


def test_a_lost_push_never_raises(monkeypatch, caplog, db, django_capture_on_commit_callbacks):
    def down(*args):
        raise ConnectionError("redis down")

    monkeypatch.setattr(live, "send_event", down)
    with django_capture_on_commit_callbacks(execute=True):
        live.announce("board-1")
    assert "push to board-1 failed" in caplog.text


def _recording(monkeypatch) -> list:
    sent: list = []
    monkeypatch.setattr(live, "send_event", lambda *args: sent.append(args))
    return sent


def test_a_change_names_the_page_request_that_made_it(monkeypatch, rf, db,
                                                      django_capture_on_commit_callbacks):
    """The X-Live-Origin id of the request that made a change travels with its event (the page
    skips the echo of its own answer); a malformed one, none, or no request: no origin."""
    from django.http import HttpResponse

    sent = _recording(monkeypatch)

    def view(request):
        live.announce("board-1")
        return HttpResponse()

    middleware = live.OriginMiddleware(view)
    for origin in ("a1b2c3d4e5f6", "not valid!", "x" * 33, None):  # one transaction each
        with django_capture_on_commit_callbacks(execute=True):
            middleware(rf.post("/", **({"HTTP_X_LIVE_ORIGIN": origin} if origin else {})))
    with django_capture_on_commit_callbacks(execute=True):
        live.announce("board-2")  # outside any request (a Celery task)
    assert [args[2] for args in sent] == [
        {"topic": "board-1", "origin": "a1b2c3d4e5f6"}, {"topic": "board-1"},
        {"topic": "board-1"}, {"topic": "board-1"}, {"topic": "board-2"}]


def test_the_origin_reaches_a_sync_view_under_the_async_stack(monkeypatch, rf, db):
    """Under ASGI the middleware runs async and the view in a thread (sync_to_async): the
    request's origin still names the change the view announces, and no other request's."""
    import asyncio

    from asgiref.sync import sync_to_async
    from django.http import HttpResponse

    sent = _recording(monkeypatch)

    def view(request):
        live.announce("character-7")  # outside a transaction: sent at once
        return HttpResponse()

    async def async_view(request):
        return await sync_to_async(view)(request)

    middleware = live.OriginMiddleware(async_view)
    asyncio.run(middleware(rf.post("/", HTTP_X_LIVE_ORIGIN="0123456789abcdef")))
    asyncio.run(middleware(rf.post("/")))
    assert [args[2] for args in sent] == [{"topic": "character-7", "origin": "0123456789abcdef"},
                                          {"topic": "character-7"}]


def test_a_transaction_sends_each_topic_once_with_its_latest_payload(
        monkeypatch, db, django_capture_on_commit_callbacks):
    """However often a transaction announces a topic, its pages get one event (the latest
    version), after everything registered before its last announcement; a rolled-back
    transaction sends nothing."""
    from django.db import transaction

    sent = _recording(monkeypatch)
    order: list[str] = []
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        live.announce("encounter-1", {"version": 1})
        live.announce("board-2")
        transaction.on_commit(lambda: order.append(f"bump after {len(sent)} events"))
        live.announce("encounter-1", {"version": 2})
        live.announce_all(["board-2", "character-3", "board-2"])
    assert [args[2] for args in sent] == [{"topic": "encounter-1", "version": 2},
                                          {"topic": "board-2"}, {"topic": "character-3"}]
    assert order == ["bump after 0 events"]  # the events left after the bump
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        try:
            with transaction.atomic():
                live.announce("board-2")
                raise RuntimeError
        except RuntimeError:
            pass
        with transaction.atomic():
            live.announce("board-5", {"version": 8})
            try:
                with transaction.atomic():  # a savepoint rolled back: its second announcement
                    live.announce("board-5", {"version": 9})
                    raise RuntimeError
            except RuntimeError:
                pass
            try:
                with transaction.atomic():  # every announcement of a topic rolled back
                    live.announce("board-6", {"version": 1})
                    raise RuntimeError
            except RuntimeError:
                pass
    # The topic still goes out, once, with the payload that survived: never a version that a
    # rollback undid; a topic whose announcements all rolled back goes out not at all.
    assert [args[2] for args in sent] == [{"topic": "board-5", "version": 8}]


class _NoManager:
    """Stands in for django-eventstream's listener manager: the real one starts its Redis
    subscription once per process, on the loop of its first listener, and a loop of this test's
    own would take it away from the live server's (every later push of this process lost)."""

    redis_listener = None

    def add_listener(self, listener):
        pass

    def remove_listener(self, listener):
        pass


def test_each_stream_names_its_own_reconnect_delay(db, monkeypatch):
    """After a restart the dropped pages reconnect after their own ``retry`` delay, drawn in
    live.RECONNECT_MS, so that they do not all come back in the same instant."""
    import asyncio
    import re

    monkeypatch.setattr(live, "get_listener_manager", _NoManager)

    async def opening() -> str:
        stream = live._stream([f"board-{10**6}"])
        try:
            return await anext(stream)
        finally:
            await stream.aclose()

    delays = set()
    for _ in range(5):
        first = asyncio.run(opening())
        assert first.endswith("event: stream-open\ndata: \n\n")
        delay = int(re.search(r"\nretry: (\d+)\n\n", first)[1])
        assert live.RECONNECT_MS[0] <= delay <= live.RECONNECT_MS[1]
        delays.add(delay)
    assert len(delays) > 1  # drawn per stream, not one constant
