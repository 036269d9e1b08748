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
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="memberships")
    character = models.OneToOneField("characters.Character", on_delete=models.CASCADE,
                                     related_name="membership")
    joined_at = models.DateTimeField(auto_now_add=True)
