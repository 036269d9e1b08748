"""The chat of a campaign and of each of its encounters (issue 22, item 3; docs/chat.md).

One ``Message`` row per message: its room (the campaign, and the encounter for an encounter's
chat), its author, to whom it goes (everyone, the game master, or one player), the text as
written and its HTML (rendered once, at writing, by chat.markup: escaped, markdown, nh3), and
the journal entry it shows as a roll card (a free roll's, or any entry shared by the GM). A
message the GM deletes keeps its row (``deleted_at``): every reader shows "deleted by the game
master" and nothing of its text or card. Who reads which message is decided once, in
chat.selectors.readable."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class To(models.TextChoices):
    ALL = "all", _("everyone")
    GM = "gm", _("the game master")
    PLAYER = "player", _("one player")


class Message(models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="chat_messages")
    encounter = models.ForeignKey("encounters.Encounter", on_delete=models.CASCADE, null=True,
                                  blank=True, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                               related_name="+")
    to = models.CharField(max_length=8, choices=To.choices, default=To.ALL)
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                                  blank=True, related_name="+")
    body = models.TextField(blank=True)
    html = models.TextField(blank=True)
    entry = models.ForeignKey("campaigns.ActionRecord", on_delete=models.SET_NULL, null=True,
                              blank=True, related_name="+")
    created_at = models.DateTimeField()
    deleted_at = models.DateTimeField(null=True, blank=True)
    deleted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")

    class Meta:
        ordering: ClassVar[list[str]] = ["-id"]
        indexes = (models.Index(fields=["campaign", "encounter", "-id"]),)
        constraints = (
            models.CheckConstraint(
                name="chat_recipient_iff_player",
                condition=(models.Q(to="player", recipient__isnull=False)
                           | (~models.Q(to="player") & models.Q(recipient__isnull=True))),
                violation_error_message=_("A whisper to a player names that player, and only "
                                          "a whisper to a player names one.")),
        )

    def __str__(self) -> str:
        return f"message {self.pk} in campaign {self.campaign_id}"

    @property
    def whisper(self) -> bool:
        return self.to != To.ALL

    @property
    def deleted(self) -> bool:
        return self.deleted_at is not None
