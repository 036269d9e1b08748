from typing import ClassVar

from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.validation import (campaign_problem, character_problem, refusal, require,
                                  same_campaign_problem)
from ew1.models import SYSTEM, validate_dice
from gamerules.ew1.errors import OffBoard

EW1_CHARACTERS = {"campaign__rule_system": SYSTEM}  # the choices of a character field here


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
        ordering: ClassVar[list[str]] = ["tier", "name"]
        constraints = (models.UniqueConstraint(
            fields=["campaign", "name"], name="unique_spell_name_per_campaign",
            violation_error_message=_("A spell with this name already exists in this "
                                      "campaign.")),)

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        require(campaign=campaign_problem(self.campaign if self.campaign_id else None, SYSTEM))


class KnownSpell(models.Model):
    """A spell in a character's spellbook."""

    class Source(models.TextChoices):
        LEVEL_UP = "level_up", _("Learned at a level-up")
        GRANTED = "granted", _("Granted by the game master")
        SCROLL = "scroll", _("Found on a scroll")

    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                  related_name="known_spells", limit_choices_to=EW1_CHARACTERS)
    spell = models.ForeignKey(Spell, on_delete=models.CASCADE, related_name="+")
    source = models.CharField(max_length=16, choices=Source.choices)
    learned_at = models.DateTimeField()

    class Meta:
        ordering: ClassVar[list[str]] = ["spell__tier", "spell__name"]
        constraints = (models.UniqueConstraint(
            fields=["character", "spell"], name="spell_known_once",
            violation_error_message=_("This character already knows this spell.")),)

    def __str__(self) -> str:
        return f"{self.spell} ({self.character})"

    def clean(self) -> None:
        """An EW1 character's (the spell itself: magic.spellbook.spell_grant_check)."""
        require(character=character_problem(self.character if self.character_id else None,
                                            SYSTEM))


class SpellOffer(models.Model):
    """The spells drawn for one level gained; stored so that reloading never redraws them."""

    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                  related_name="spell_offers", limit_choices_to=EW1_CHARACTERS)
    level = models.PositiveSmallIntegerField()
    spells = models.ManyToManyField(Spell, related_name="+")
    chosen = models.ForeignKey(Spell, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="+")
    resolved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering: ClassVar[list[str]] = ["level"]
        constraints = (models.UniqueConstraint(
            fields=["character", "level"], name="one_offer_per_level",
            violation_error_message=_("This character already has a spell offer for this "
                                      "level.")),)

    def __str__(self) -> str:
        return f"Offer for {self.character} at level {self.level}"


class ActiveEffect(models.Model):
    """A lasting spell effect on a character (a damage-reduction shield) until ``expires_at``."""

    target = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                               related_name="effects", limit_choices_to=EW1_CHARACTERS)
    caster = models.ForeignKey("characters.Character", on_delete=models.SET_NULL, null=True,
                               blank=True, related_name="+", limit_choices_to=EW1_CHARACTERS)
    spell = models.ForeignKey(Spell, on_delete=models.CASCADE, related_name="+")
    amount = models.PositiveSmallIntegerField()
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = (models.Index(fields=["target", "expires_at"]),)

    def __str__(self) -> str:
        return f"{self.spell} on {self.target} until {self.expires_at:%Y-%m-%d %H:%M}"

    def clean(self) -> None:
        target = self.target if self.target_id else None
        campaign_id = target.campaign_id if target else None
        require(target=character_problem(target, SYSTEM))
        require(caster=same_campaign_problem(self.caster if self.caster_id else None, campaign_id),
                spell=same_campaign_problem(self.spell if self.spell_id else None, campaign_id))


class Scroll(models.Model):
    """A spell scroll lying on a board cell: the character who steps on it learns the spell."""

    board = models.ForeignKey("campaigns.Board", on_delete=models.CASCADE, related_name="scrolls")
    x = models.IntegerField()
    y = models.IntegerField()
    spell = models.ForeignKey(Spell, on_delete=models.CASCADE, related_name="+")

    class Meta:
        indexes = (models.Index(fields=["board", "x", "y"]),)

    def __str__(self) -> str:
        return f"{self.spell} at ({self.x}, {self.y})"

    def clean(self) -> None:
        board = self.board if self.board_id else None
        require(board=campaign_problem(board.campaign if board else None, SYSTEM))
        require(spell=same_campaign_problem(self.spell if self.spell_id else None,
                                            board.campaign_id if board else None))
        if None in (self.x, self.y):
            return  # the empty field has its own "required" error
        if board is not None and not board.contains(self.x, self.y):
            raise refusal(OffBoard(), "x")
