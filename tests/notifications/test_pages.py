"""The notifications' pages (issue 22, item 4): the bell (constant queries), the list (paged,
constant queries), marking seen (another user's: a coded 404), the settings; French and
English."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from notifications.models import Notification, NotificationMute, NotificationSettings
from notifications.selectors import PAGE_SIZE
from tests import factories

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
HTMX = {"HTTP_HX_REQUEST": "true"}


def client_of(user, language="en") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def made(user, count, *, seen=False):
    Notification.objects.bulk_create([
        Notification(user=user, kind="turn", code="turn", link="/encounters/1/",
                     params={"character": f"Hero {i}", "encounter": "Ambush"},
                     created_at=NOW + timedelta(seconds=i), seen_at=NOW if seen else None)
        for i in range(count)])


@pytest.fixture
def alice(db):
    return factories.user("alice")


@pytest.fixture
def bob(db):
    return factories.user("bob")


@pytest.mark.parametrize("count", [1, 40])
def test_the_bell_costs_the_same_queries_whatever_the_number(alice, bob, count,
                                                             django_assert_num_queries):
    made(alice, count)
    made(bob, 3)
    client = client_of(alice)
    with django_assert_num_queries(4):  # session, user, the count, the latest
        response = client.get("/notifications/bell/", **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'data-testid="bell-count"' in body and f">{count}</span>" in body
    assert body.count('data-testid="bell-item"') == min(count, 5)
    assert f"It is Hero {count - 1}&#x27;s turn in Ambush." in body


def test_an_empty_bell_shows_no_count(alice, django_assert_num_queries):
    made(alice, 2, seen=True)
    client = client_of(alice)
    with django_assert_num_queries(3):  # session, user, the count
        body = client.get("/notifications/bell/").content.decode()
    assert "bell-count" not in body and "Nothing new." in body


@pytest.mark.parametrize("count", [3, 60])
def test_the_list_is_paged_at_constant_queries(alice, bob, count, django_assert_num_queries):
    made(alice, count)
    made(bob, 2)
    client = client_of(alice)
    with django_assert_num_queries(4):  # session, user, the count, the page
        response = client.get("/notifications/")
    body = response.content.decode()
    assert body.count('data-testid="notification"') == min(count, PAGE_SIZE)
    assert "Hero 0&#x27;s" not in body or count <= PAGE_SIZE
    if count > PAGE_SIZE:
        last = client.get("/notifications/?page=3", **HTMX).content.decode()
        assert last.count('data-testid="notification"') == count - 2 * PAGE_SIZE
        assert "It is Hero 0&#x27;s turn" in last
        assert client.get("/notifications/?page=nonsense").status_code == 200


def test_the_list_reads_in_french(alice):
    made(alice, 1)
    body = client_of(alice, "fr").get("/notifications/").content.decode()
    assert "C&#x27;est au tour de Hero 0 dans Ambush." in body
    assert "Tout marquer comme vu" in body


def test_marking_one_seen_and_all_seen(alice, django_assert_num_queries):
    made(alice, 3)
    client = client_of(alice)
    first = Notification.objects.filter(user=alice).last()
    response = client.post(f"/notifications/{first.pk}/seen/", **HTMX)
    assert response.status_code == 200 and response["HX-Trigger"] == "notifications-changed"
    first.refresh_from_db()
    assert first.seen_at is not None
    assert client.post(f"/notifications/{first.pk}/seen/").status_code == 302  # no htmx
    with django_assert_num_queries(5):  # session, user, the UPDATE, the list's count and page
        assert client.post("/notifications/seen/", **HTMX).status_code == 200
    assert not Notification.objects.filter(user=alice, seen_at__isnull=True).exists()


def test_marking_someone_elses_notification_is_a_coded_404(alice, bob, unchanged):
    made(bob, 1)
    theirs = Notification.objects.get(user=bob)
    client = client_of(alice)
    with unchanged():
        response = client.post(f"/notifications/{theirs.pk}/seen/", **HTMX)
        missing = client.post("/notifications/999999/seen/", **HTMX)
    assert response.status_code == missing.status_code == 404
    assert "No such notification." in response.content.decode()
    assert client.get(f"/notifications/{theirs.pk}/seen/").status_code == 405


def test_the_settings_mute_kinds_and_take_the_digest(alice):
    client = client_of(alice)
    page = client.get("/notifications/settings/").content.decode()
    assert 'data-testid="mute-whisper"' in page and "Your turn" in page
    response = client.post("/notifications/settings/", {"mute": ["turn", "whisper"],
                                                         "digest": "on"})
    assert response.status_code == 200 and "Saved." in response.content.decode()
    assert set(NotificationMute.objects.filter(user=alice).values_list("kind", flat=True)) == {
        "turn", "whisper"}
    assert NotificationSettings.objects.get(user=alice).digest
    refused = client.post("/notifications/settings/", {"mute": ["nonsense"]})
    assert refused.status_code == 400
    assert "No such kind of notification: nonsense." in refused.content.decode()
    assert NotificationMute.objects.filter(user=alice).count() == 2
    french = client_of(alice, "fr").get("/notifications/settings/").content.decode()
    assert "Votre tour" in french and "Résumé par e-mail" in french


def test_every_page_carries_the_bell_on_its_own_topic(alice):
    body = client_of(alice).get("/notifications/").content.decode()
    assert f'data-live="notify-{alice.pk}"' in body
    assert 'hx-get="/notifications/bell/"' in body
    assert "notify-" not in Client().get("/accounts/login/").content.decode()


def test_the_bell_topic_is_read_by_its_user_only(alice, bob):
    from campaigns import live

    assert live.can_read(alice, f"notify-{alice.pk}")
    assert not live.can_read(bob, f"notify-{alice.pk}")
