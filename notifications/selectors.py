"""What a user reads of their notifications: their own only, each rendered in the reader's
language (notifications.kinds)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core.paginator import Page, Paginator

from notifications import kinds
from notifications.models import Notification, NotificationMute, NotificationSettings

PAGE_SIZE = 25
BELL_LATEST = 5


@dataclass(frozen=True)
class Shown:
    """One notification as its reader sees it."""

    id: int
    kind: str
    text: str
    link: str
    created_at: datetime
    seen: bool


def _shown(row: Notification) -> Shown:
    return Shown(id=row.pk, kind=row.kind, text=kinds.render(row.code, row.params),
                 link=row.link, created_at=row.created_at, seen=row.seen_at is not None)


def _fields():
    return Notification.objects.only("id", "kind", "code", "params", "link", "created_at",
                                     "seen_at")


def bell(user) -> tuple[int, list[Shown]]:
    """The count of ``user``'s unseen notifications and the latest BELL_LATEST of them: two
    queries whatever the numbers."""
    unseen = Notification.objects.filter(user_id=user.pk, seen_at__isnull=True)
    count = unseen.count()
    latest = [_shown(row) for row in _fields().filter(user_id=user.pk, seen_at__isnull=True)
              [:BELL_LATEST]] if count else []
    return count, latest


def page_of(user, number: int | str | None) -> Page:
    """Page ``number`` (1 when not a page number; the last past the end) of ``user``'s
    notifications, newest first, each a :class:`Shown`: two queries (the count, the page)."""
    paginator = Paginator(_fields().filter(user_id=user.pk), PAGE_SIZE)
    page = paginator.get_page(number)
    page.object_list = [_shown(row) for row in page.object_list]
    return page


def preferences(user) -> tuple[set[str], bool]:
    """The kinds ``user`` mutes and whether they take the digest: two queries."""
    muted = set(NotificationMute.objects.filter(user_id=user.pk).values_list("kind", flat=True))
    digest = NotificationSettings.objects.filter(user_id=user.pk, digest=True).exists()
    return muted, digest
