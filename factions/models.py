from django.db import models
from django.utils.translation import gettext_lazy as _


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
        constraints = [models.UniqueConstraint(fields=["campaign", "name"],
                                               name="unique_faction_name_per_campaign")]

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
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(
            fields=["faction", "character"], condition=models.Q(state="pending"),
            name="one_pending_request_per_faction_and_character")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.character} -> {self.faction} ({self.state})"
