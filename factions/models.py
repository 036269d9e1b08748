from typing import ClassVar

from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.validation import related, require, same_campaign_problem


def _of_faction_campaign(row) -> None:
    """``row.character`` plays in ``row.faction``'s campaign (an inline's unsaved faction: not
    checked here, its form checks the leader)."""
    faction = related(row, "faction")
    require(character=same_campaign_problem(related(row, "character"),
                                            faction.campaign_id if faction else None))


class Faction(models.Model):
    """A group of characters of one campaign (seed 000_afeb9d2c9ccd2b72.txt, "Les factions")."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="factions")
    name = models.CharField(_("name"), max_length=80)
    description = models.TextField(_("description"), blank=True)
    is_public = models.BooleanField(_("public"), default=True)
    leader = models.ForeignKey("characters.Character", on_delete=models.PROTECT,
                               related_name="led_factions")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (models.UniqueConstraint(
            fields=["campaign", "name"], name="unique_faction_name_per_campaign",
            violation_error_message=_("A faction with this name already exists in this "
                                      "campaign.")),)

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A character's faction: at most one (the one-to-one makes it a database rule)."""

    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="memberships")
    character = models.OneToOneField("characters.Character", on_delete=models.CASCADE,
                                     related_name="membership")
    joined_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.character} in {self.faction}"

    def clean(self) -> None:
        _of_faction_campaign(self)


class JoinRequest(models.Model):
    """A request to join a private faction (from a character) or an invitation (from its
    leader). Only a pending one can change, and only once: services update it with a condition
    on its state, so a request accepted while withdrawn ends in one state only."""

    class Kind(models.TextChoices):
        REQUEST = "request", _("Request")
        INVITATION = "invitation", _("Invitation")

    class State(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        REFUSED = "refused", _("Refused")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="requests")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                  related_name="faction_requests")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at"]
        constraints = (models.UniqueConstraint(
            fields=["faction", "character"], condition=models.Q(state="pending"),
            name="one_pending_request_per_faction_and_character",
            violation_error_message=_("This character already has a pending request or "
                                      "invitation for this faction.")),)

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.character} -> {self.faction} ({self.state})"

    def clean(self) -> None:
        _of_faction_campaign(self)
