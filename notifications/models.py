"""Notifications (issue 22, item 4; docs/notifications.md): one row per user and event, what
it says stored as a sentence code and its params (notifications.kinds renders it in the
reader's language), seen when the user marks it so, mailed at most once in a digest."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from notifications.kinds import KINDS

KIND_CHOICES = [(kind, label) for kind, label in KINDS.items()]


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notifications")
    kind = models.CharField(max_length=16, choices=KIND_CHOICES)
    code = models.CharField(max_length=32)
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, null=True,
                                 blank=True, related_name="+")
    params = models.JSONField(default=dict, blank=True)
    link = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField()
    seen_at = models.DateTimeField(null=True, blank=True)
    digested_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-id"]
        indexes = (models.Index(fields=["user", "seen_at"]),
                   models.Index(fields=["seen_at", "digested_at", "created_at"],
                                name="notification_digest_due"))

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id} at {self.created_at:%Y-%m-%d %H:%M}"


class NotificationMute(models.Model):
    """A kind of notification ``user`` gets none of."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notification_mutes")
    kind = models.CharField(max_length=16, choices=KIND_CHOICES)

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=["user", "kind"], name="notification_mute_once",
                violation_error_message=_("This kind of notification is muted already.")),
        )

    def __str__(self) -> str:
        return f"{self.kind} muted for {self.user_id}"


class NotificationSettings(models.Model):
    """Whether ``user`` gets the e-mail digest of what they have not seen (off unless asked)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notification_settings")
    digest = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"notification settings of {self.user_id}"
