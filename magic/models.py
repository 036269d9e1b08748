from django.db import models
from django.utils.translation import gettext_lazy as _

from characters.models import validate_dice


class Spell(models.Model):
    """A spell of the catalogue (seed 000_afeb9d2c9ccd2b72.txt, "La magie")."""

    class Tier(models.TextChoices):
        BASE = "base", _("Base")
        ADVANCED = "advanced", _("Advanced")
        ZONE = "zone", _("Zone")

    class Effect(models.TextChoices):
        DAMAGE = "damage", _("Damage")
        HEAL = "heal", _("Heal")
        SHIELD = "shield", _("Damage reduction shield")

    class Reach(models.TextChoices):
        EVERYONE = "everyone", _("Everyone in the zone")
        ALLIES = "allies", _("Allies only")

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, null=True,
                                 blank=True, related_name="spells",
                                 help_text=_("Empty: available in every campaign."))
    name = models.CharField(_("name"), max_length=80)
    tier = models.CharField(_("tier"), max_length=16, choices=Tier.choices, default=Tier.BASE)
    effect = models.CharField(_("effect"), max_length=16, choices=Effect.choices)
    dice = models.CharField(_("dice"), max_length=32, validators=[validate_dice])
    range_cells = models.PositiveSmallIntegerField(_("range (cells)"), default=5)
    zone_radius = models.PositiveSmallIntegerField(_("zone radius (cells)"), default=0)
    reach = models.CharField(_("reach"), max_length=16, choices=Reach.choices,
                             default=Reach.EVERYONE)
    duration_hours = models.PositiveSmallIntegerField(_("duration (hours)"), default=0)
    learnable = models.BooleanField(_("learnable at level-up"), default=True)

    class Meta:
        ordering = ["tier", "name"]
        constraints = [models.UniqueConstraint(fields=["campaign", "name"],
                                               name="unique_spell_name_per_campaign")]

    def __str__(self) -> str:
        return self.name
