"""The notifications' services (issue 22, item 4): stored after the commit, in bulk; muted
kinds make nothing; seen by their owner only; rendered in the reader's language; the e-mail
digest mails each notification once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.utils import translation

from notifications import kinds
from notifications.errors import NotificationNotFound
from notifications.models import Notification, NotificationMute, NotificationSettings
from notifications.services import (digest_send, mark_all_seen, mark_seen, notify, notify_each,
                                    preferences_set)
from tests import factories

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def users(db):
    return [factories.user(f"u{i}") for i in range(6)]


def test_notify_stores_once_the_transaction_commits(users, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        notify(users=[users[0], users[1].pk, None, users[0]], code="turn",
               params={"character": "Aline", "encounter": "Ambush"}, link="/x/")
        assert not Notification.objects.exists()
    assert len([c for c in callbacks if getattr(c, "func", None)]) == 1
    for callback in callbacks:
        callback()
    rows = Notification.objects.order_by("user_id")
    assert [(n.user_id, n.kind, n.code) for n in rows] == [
        (users[0].pk, "turn", "turn"), (users[1].pk, "turn", "turn")]
    assert rows[0].params == {"character": "Aline", "encounter": "Ambush"}


@pytest.mark.django_db(transaction=True)
def test_a_step_that_rolls_back_notifies_nobody():
    who = factories.user("who")
    with pytest.raises(RuntimeError), transaction.atomic():
        notify(users=[who], code="turn", params={"character": "A", "encounter": "E"})
        raise RuntimeError
    assert not Notification.objects.exists()
    with transaction.atomic():
        notify(users=[who], code="turn", params={"character": "A", "encounter": "E"})
    assert Notification.objects.count() == 1


@pytest.mark.parametrize("size", [1, 6])
def test_notify_costs_two_queries_whatever_the_number_of_users(users, size,
                                                              django_assert_num_queries,
                                                              django_capture_on_commit_callbacks):
    NotificationMute.objects.create(user=users[0], kind="turn")
    with django_capture_on_commit_callbacks() as callbacks:
        notify(users=users[:size], code="turn", params={"character": "A", "encounter": "E"})
    with django_assert_num_queries(2 if size > 1 else 1):  # all muted: no INSERT
        for callback in callbacks:
            callback()
    assert Notification.objects.count() == size - 1


def test_a_muted_kind_creates_nothing(users, django_capture_on_commit_callbacks):
    preferences_set(user=users[0], muted=["whisper", "turn"], digest=False)
    with django_capture_on_commit_callbacks(execute=True):
        notify(users=users[:2], code="turn", params={"character": "A", "encounter": "E"})
        notify_each(code="whisper", each=[(users[0], {"author": "gm", "campaign": "C"})])
        notify_each(code="mention", each=[(users[0], {"author": "gm", "campaign": "C"})])
    assert sorted(Notification.objects.values_list("user_id", "kind")) == [
        (users[0].pk, "mention"), (users[1].pk, "turn")]
    preferences_set(user=users[0], muted=["mention"], digest=True)
    assert set(NotificationMute.objects.filter(user=users[0]).values_list("kind", flat=True)) == {
        "mention"}
    assert NotificationSettings.objects.get(user=users[0]).digest is True


def test_an_unknown_kind_cannot_be_muted(users):
    from notifications.errors import NotificationError

    with pytest.raises(NotificationError) as raised:
        preferences_set(user=users[0], muted=["nonsense"], digest=False)
    assert raised.value.code == "unknown_notification_kind"
    assert not NotificationMute.objects.exists()


def _made(user, code="turn", *, at=NOW, **params):
    params = params or {"character": "Aline", "encounter": "Ambush"}
    return Notification.objects.create(user=user, kind=kinds.kind_of(code), code=code,
                                       params=params, created_at=at)


def test_only_its_owner_marks_a_notification_seen(users):
    mine, theirs = _made(users[0]), _made(users[1])
    with pytest.raises(NotificationNotFound) as raised:
        mark_seen(user=users[0], notification_id=theirs.pk)
    assert (raised.value.code, raised.value.status) == ("no_such_notification", 404)
    with pytest.raises(NotificationNotFound):
        mark_seen(user=users[0], notification_id=10 ** 20)
    mark_seen(user=users[0], notification_id=mine.pk, now=NOW)
    mark_seen(user=users[0], notification_id=mine.pk)  # seen already: nothing changes
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert (mine.seen_at, theirs.seen_at) == (NOW, None)


def test_mark_all_seen_is_one_update(users, django_assert_num_queries):
    for _ in range(3):
        _made(users[0])
    other = _made(users[1])
    with django_assert_num_queries(1):
        assert mark_all_seen(user=users[0], now=NOW) == 3
    assert not Notification.objects.filter(user=users[0], seen_at__isnull=True).exists()
    other.refresh_from_db()
    assert other.seen_at is None


def test_a_notification_is_rendered_in_the_readers_language():
    params = {"character": "Aline", "deadline": "2026-01-01T12:00:30+00:00"}
    with translation.override("en"):
        assert kinds.render("reaction_hidden", params) == (
            "Aline is attacked: choose a reaction before 12:00:30.")
    with translation.override("fr"):
        assert kinds.render("reaction_hidden", params) == (
            "On attaque Aline : choisissez une réaction avant 12:00:30.")
        assert kinds.render("turn", {"character": "Aline", "encounter": "Ambush"}) == (
            "C'est au tour de Aline dans Ambush.")
    # an unknown code or a missing param shows a plain sentence, never an error
    assert kinds.render("gone", {}) == "A notification."
    assert kinds.render("turn", {}) == "Your turn"


def test_every_sentence_has_a_french_translation():
    with translation.override("fr"):
        for code, (_kind, text) in kinds.TEXTS.items():
            assert translation.gettext(text) != text, code
        assert str(kinds.KINDS["turn"]) == "Votre tour"


# --- the digest -----------------------------------------------------------------------------

@pytest.fixture
def digest_world(users, settings):
    settings.NOTIFICATION_DIGEST_AFTER = 30
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://table.example"
    reader, no_mail, not_asked = users[0], users[1], users[2]
    no_mail.email = ""
    no_mail.save()
    for u in (reader, no_mail):
        NotificationSettings.objects.create(user=u, digest=True)
    old = NOW - timedelta(minutes=31)
    rows = {"old": _made(reader, at=old), "old2": _made(reader, "whisper", at=old,
                                                          author="gm", campaign="C"),
            "recent": _made(reader, at=NOW - timedelta(minutes=5)),
            "seen": _made(reader, at=old), "no_mail": _made(no_mail, at=old),
            "not_asked": _made(not_asked, at=old)}
    Notification.objects.filter(pk=rows["seen"].pk).update(seen_at=NOW)
    Notification.objects.filter(pk=rows["old2"].pk).update(link="/chat/")
    return reader, rows


def test_the_digest_mails_what_was_not_seen_once(digest_world, django_assert_num_queries):
    reader, rows = digest_world
    # the rows locked with their users, their UPDATE, in a savepoint (the test's transaction)
    with django_assert_num_queries(4):
        done = digest_send(now=NOW)
    assert (done.mails, done.notifications) == (1, 2)
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == [reader.email]
    assert "2 notifications not seen" in sent.subject
    assert "It is Aline's turn in Ambush." in sent.body
    assert "gm whispered to you in the chat of C." in sent.body
    assert "https://table.example/chat/" in sent.body
    digested = set(Notification.objects.filter(digested_at=NOW).values_list("pk", flat=True))
    assert digested == {rows["old"].pk, rows["old2"].pk}
    # idempotent: run again, nothing more; later, the recent one once it is old enough
    with django_assert_num_queries(3):
        assert digest_send(now=NOW) == type(done)()
    assert len(mail.outbox) == 1
    assert digest_send(now=NOW + timedelta(minutes=30)).notifications == 1
    assert len(mail.outbox) == 2


def test_a_failing_mail_server_keeps_the_notifications_for_the_next_run(digest_world,
                                                                      monkeypatch):
    from django.core.mail.backends.locmem import EmailBackend

    def down(self, messages):
        raise OSError("mail server down")
    monkeypatch.setattr(EmailBackend, "send_messages", down)
    with pytest.raises(OSError):
        digest_send(now=NOW)
    assert not Notification.objects.filter(digested_at__isnull=False).exists()
