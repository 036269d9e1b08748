"""The notifications' changes (issue 22, item 4; docs/notifications.md).

:func:`notify` is what the other apps' services call when something happens to a user: it
stores one notification per user not muting its kind, **after the caller's transaction
commits** (a step that rolls back notifies nobody; a failure to notify never fails the step),
in two queries whatever the number of users (the mutes read, one bulk INSERT), then pushes
each user's bell (notifications.live). The caller decides what a user may read: a hidden
combatant's name is not passed (the ``_hidden`` sentences of notifications.kinds), a hidden
combatant's turn not notified at all.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.core import mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from notifications import kinds, live
from notifications.errors import NotificationError, NotificationNotFound
from notifications.models import Notification, NotificationMute, NotificationSettings

logger = logging.getLogger(__name__)

LINK_MAX = 200


def _ids(users: Iterable[Any]) -> list[int]:
    """User ids of ``users`` (ids or users; None, a character without a player, skipped)."""
    found = {int(getattr(u, "pk", u)) for u in users if u is not None and getattr(u, "pk", u)}
    return sorted(found)


def notify(*, users: Iterable[Any], code: str, campaign_id: int | None = None,
           params: Mapping[str, Any] | None = None, link: str = "",
           now: datetime | None = None) -> None:
    """Notify ``users`` (ids or users; None and duplicates skipped) of the event ``code``
    (a key of notifications.kinds.TEXTS, which names its kind), with the sentence's
    ``params`` (JSON values: names, a deadline as ISO 8601), in ``campaign_id``, pointing at
    ``link`` (a path on this site). Stored once the current transaction commits (at once
    outside one); the users who mute the kind get nothing. Two queries when it runs (the
    mutes, one bulk INSERT), none before. Raises KeyError for an unknown code (a programming
    error, at the call)."""
    shared = dict(params or {})
    notify_each(code=code, each=[(pk, shared) for pk in _ids(users)], campaign_id=campaign_id,
                link=link, now=now)


def notify_each(*, code: str, each: Iterable[tuple[Any, Mapping[str, Any]]],
                campaign_id: int | None = None, link: str = "",
                now: datetime | None = None) -> None:
    """:func:`notify` with each user's own params: ``each`` holds (user or id, params); a user
    named twice gets one notification each time. Still two queries in all when it runs."""
    kind = kinds.kind_of(code)
    rows = [(int(getattr(u, "pk", u)), dict(p)) for u, p in each
            if u is not None and getattr(u, "pk", u)]
    if not rows:
        return
    store = partial(_store, rows=rows, kind=kind, code=code, campaign_id=campaign_id,
                    link=link[:LINK_MAX], now=now)
    transaction.on_commit(store)  # at once when no transaction is under way


def _store(*, rows: list[tuple[int, dict]], kind: str, code: str, campaign_id: int | None,
           link: str, now: datetime | None) -> None:
    try:
        ids = sorted({pk for pk, _p in rows})
        muted = set(NotificationMute.objects.filter(user_id__in=ids, kind=kind)
                    .values_list("user_id", flat=True))
        now = now or timezone.now()
        made = [Notification(user_id=pk, kind=kind, code=code, campaign_id=campaign_id,
                             params=params, link=link, created_at=now)
                for pk, params in rows if pk not in muted]
        if made:
            Notification.objects.bulk_create(made)
            live.changed(dict.fromkeys(row.user_id for row in made))
    except Exception:  # the step has committed: a lost notification must not fail it
        logger.exception("notifications: storing %s for %s failed", code, [pk for pk, _p in rows])


def mark_seen(*, user, notification_id: int, now: datetime | None = None) -> None:
    """Mark one of ``user``'s notifications seen (already seen: nothing changes). One UPDATE
    (one more read when it changed nothing). Raises NotificationNotFound (another user's or
    none: the two are not told apart)."""
    now = now or timezone.now()
    mine = Notification.objects.filter(pk=notification_id, user_id=user.pk)
    if mine.filter(seen_at__isnull=True).update(seen_at=now):
        live.changed([user.pk])
    elif not mine.exists():
        raise NotificationNotFound()


def mark_all_seen(*, user, now: datetime | None = None) -> int:
    """Mark every unseen notification of ``user`` seen: one UPDATE. Returns how many."""
    count = (Notification.objects.filter(user_id=user.pk, seen_at__isnull=True)
             .update(seen_at=now or timezone.now()))
    if count:
        live.changed([user.pk])
    return count


@transaction.atomic
def preferences_set(*, user, muted: Iterable[str], digest: bool) -> None:
    """``user`` mutes exactly the kinds ``muted`` (keys of notifications.kinds.KINDS) and takes
    the e-mail digest or not. Four queries. Raises NotificationError
    ("unknown_notification_kind")."""
    wanted = set(muted)
    for kind in sorted(wanted):
        if kind not in kinds.KINDS:
            raise NotificationError(code="unknown_notification_kind", kind=kind[:40])
    NotificationMute.objects.filter(user_id=user.pk).exclude(kind__in=wanted).delete()
    NotificationMute.objects.bulk_create(
        [NotificationMute(user_id=user.pk, kind=kind) for kind in sorted(wanted)],
        ignore_conflicts=True)
    NotificationSettings.objects.update_or_create(user_id=user.pk, defaults={"digest": digest})


# --- the e-mail digest ----------------------------------------------------------------------

@dataclass(frozen=True)
class Digest:
    """What a digest run did: ``mails`` sent, ``notifications`` they held."""

    mails: int = 0
    notifications: int = 0


DIGEST_BATCH = 2000  # notifications per run at most: the next run takes the rest


def digest_send(*, now: datetime | None = None) -> Digest:
    """Mail each active user with an e-mail address and the digest on the notifications they
    have not seen for more than ``settings.NOTIFICATION_DIGEST_AFTER`` minutes and that no
    digest held yet, one mail per user over one mail connection, then mark them digested
    (``digested_at``): a notification is mailed once. Idempotent (a second run finds nothing)
    and safe to run twice at once (the rows are locked, skipping those another run holds).
    Two statements whatever the numbers, in one transaction: the rows locked with their
    users, their UPDATE (the first alone, and no mail, when none is due). A mail server that
    fails rolls the run back: the next one tries again."""
    now = now or timezone.now()
    cutoff = now - timedelta(minutes=settings.NOTIFICATION_DIGEST_AFTER)
    with transaction.atomic():
        due = list(Notification.objects.select_for_update(skip_locked=True, of=("self",))
                   .filter(seen_at__isnull=True, digested_at__isnull=True,
                           created_at__lte=cutoff, user__is_active=True,
                           user__notification_settings__digest=True)
                   .exclude(user__email="").select_related("user")
                   .order_by("user_id", "id")[:DIGEST_BATCH])
        if not due:
            return Digest()
        by_user: dict[int, list[Notification]] = {}
        for row in due:
            by_user.setdefault(row.user_id, []).append(row)
        messages = [_digest_mail(rows) for rows in by_user.values()]
        mail.get_connection().send_messages(messages)
        Notification.objects.filter(pk__in=[row.pk for row in due]).update(digested_at=now)
    return Digest(mails=len(messages), notifications=len(due))


def _digest_mail(rows: list[Notification]) -> mail.EmailMessage:
    user = rows[0].user
    site = settings.SITE_URL.rstrip("/")
    with translation.override(settings.LANGUAGE_CODE):
        lines = [{"text": kinds.render(row.code, row.params),
                  "link": f"{site}{row.link}" if row.link else "", "at": row.created_at}
                 for row in rows]
        subject = translation.ngettext(
            "Percentile: %(count)d notification not seen",
            "Percentile: %(count)d notifications not seen", len(rows)) % {"count": len(rows)}
        body = render_to_string("notifications/digest.txt",
                                {"user": user, "lines": lines, "site": site})
    return mail.EmailMessage(subject=subject, body=body, to=[user.email])
