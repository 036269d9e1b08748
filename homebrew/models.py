"""The homebrew d100 sheet, its weapon and spell templates, and declared attacks.

Source: 002_80873c4f1892db54.txt ("Statistiques", "Caractéristiques", "Combats"); the choices
are in docs/rules/homebrew-d100.md. Services (homebrew.services) change these; nothing here
holds a rule.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.validation import campaign_problem, character_problem, refusal, require
from gamerules.errors import RuleError
from gamerules.homebrew.attack import die_sides
from gamerules.homebrew.characteristics import CODES, Characteristics

SYSTEM = "homebrew"  # campaigns.models.RuleSystem.HOMEBREW: the rows here are this system's


class Posture(models.TextChoices):
    OFFENSIVE = "offensive", _("Offensive")
    DEFENSIVE = "defensive", _("Defensive")


class AttackKind(models.TextChoices):
    PHYSICAL = "physical", _("Physical")
    MAGICAL = "magical", _("Magical")


class Health(models.TextChoices):
    STANDING = "standing", _("Standing")
    UNCONSCIOUS = "unconscious", _("Unconscious")
    DEAD = "dead", _("Dead")


class WeaponTemplate(models.Model):
    """A weapon or a spell the game master edits in the admin: one damage die (1d2-1d100),
    physical (Physique; parried and dodged) or magical (Mental; dodged only), an MP cost."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="homebrew_weapons")
    name = models.CharField(_("name"), max_length=80)
    die = models.CharField(_("damage die"), max_length=8, default="1d6",
                           help_text=_("One die, 1d2 to 1d100."))
    kind = models.CharField(_("kind"), max_length=16, choices=AttackKind.choices,
                            default=AttackKind.PHYSICAL)
    mp_cost = models.PositiveSmallIntegerField(_("MP cost"), default=0)
    description = models.TextField(_("description"), blank=True)
    offered_at_creation = models.BooleanField(
        _("offered at creation"), default=False, db_default=False,  # rows of older code too
        help_text=_("A player may pick it as starting gear when creating a character."))

    class Meta:
        ordering: ClassVar[list[str]] = ["name", "id"]
        verbose_name = _("weapon or spell")
        verbose_name_plural = _("weapons and spells")
        constraints = (models.UniqueConstraint(
            fields=["campaign", "name"], name="homebrew_weapon_unique_name",
            violation_error_message=_("A weapon or spell with this name already exists in this "
                                      "campaign.")),)

    def __str__(self) -> str:
        return f"{self.name} ({self.die})"

    def clean(self) -> None:
        """A homebrew campaign's weapon, its damage one die (gamerules.homebrew.attack)."""
        require(campaign=campaign_problem(self.campaign if self.campaign_id else None, SYSTEM))
        try:
            die_sides(self.die)
        except RuleError as exc:
            raise refusal(exc, "die") from None

    @property
    def is_spell(self) -> bool:
        return self.kind == AttackKind.MAGICAL


class HomebrewSheet(models.Model):
    """A character's homebrew numbers. ``dodge_lost_round`` is the round marker (given by the
    encounter, e.g. "3:2") in which a failed dodge took the dodge away; in any other round the
    character may dodge. ``mp_label`` replaces "MP" on the gauge (cartridges...)."""

    character = models.OneToOneField("characters.Character", on_delete=models.CASCADE,
                                     primary_key=True, related_name="homebrew")
    physique = models.PositiveSmallIntegerField("Physique", default=60)
    perception = models.PositiveSmallIntegerField("Perception", default=55)
    mental = models.PositiveSmallIntegerField("Mental", default=55)
    force = models.PositiveSmallIntegerField("Force", default=3)
    dexterite = models.PositiveSmallIntegerField("Dextérité", default=3)
    sens = models.PositiveSmallIntegerField("Sens", default=3)
    ether = models.PositiveSmallIntegerField("Éther", default=2)
    esprit = models.PositiveSmallIntegerField("Esprit", default=3)
    intelligence = models.PositiveSmallIntegerField("Intelligence", default=2)
    hp = models.IntegerField(_("HP"), default=20)
    hp_max = models.PositiveIntegerField(_("max HP"), default=20)
    mp = models.IntegerField(_("MP"), default=10)
    mp_max = models.PositiveIntegerField(_("max MP"), default=10)
    mp_label = models.CharField(_("MP gauge label"), max_length=30, blank=True,
                                help_text=_("Leave empty for MP; e.g. \"Cartridges\" for a class "
                                            "without magic."))
    posture = models.CharField(_("posture"), max_length=16, choices=Posture.choices,
                               default=Posture.OFFENSIVE)
    dodge_lost_round = models.CharField(_("no more dodges in round"), max_length=40, blank=True)
    health = models.CharField(_("health"), max_length=16, choices=Health.choices,
                              default=Health.STANDING)
    spared = models.BooleanField(
        _("spared at 0 HP"), default=False,
        help_text=_("An enemy that does not die at 0 HP (the seed's \"sauf exception\")."))
    weapons = models.ManyToManyField(WeaponTemplate, blank=True, related_name="wielders",
                                     verbose_name=_("equipped weapons and spells"))

    class Meta:
        verbose_name = _("homebrew sheet")
        verbose_name_plural = _("homebrew sheets")

    def __str__(self) -> str:
        return str(self.character)

    def clean(self) -> None:
        require(character=character_problem(self.character if self.character_id else None,
                                            SYSTEM))

    def characteristics(self) -> Characteristics:
        return Characteristics(**{code: getattr(self, code) for code in CODES})

    @property
    def gauge_label(self) -> str:
        return self.mp_label or str(_("MP"))

    def can_dodge(self, round_key: str) -> bool:
        return not round_key or self.dodge_lost_round != round_key


class PermanentInjury(models.Model):
    """A permanent injury (HP down to minus the maximum), shown on the sheet."""

    sheet = models.ForeignKey(HomebrewSheet, on_delete=models.CASCADE, related_name="injuries")
    description = models.CharField(_("description"), max_length=200)
    round_key = models.CharField(_("round"), max_length=40, blank=True)
    created_at = models.DateTimeField(_("when"))

    class Meta:
        ordering: ClassVar[list[str]] = ["created_at", "id"]
        verbose_name = _("permanent injury")
        verbose_name_plural = _("permanent injuries")

    def __str__(self) -> str:
        return self.description


class DeclaredAttack(models.Model):
    """An attack rolled and waiting for its reaction (``resolved_at`` None), then resolved.

    Holds what ``homebrew.services.attack`` rolled (the hit test and the damage) and what it
    allows: ``reactions`` lists "none", "parry", "dodge" as the target may answer, and
    ``protectors`` the ids of the allies who may parry for it. ``outcome`` is what
    ``resolve`` applied."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="homebrew_attacks")
    actor = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                              related_name="homebrew_attacks_made")
    target = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                               related_name="homebrew_attacks_taken")
    weapon = models.ForeignKey(WeaponTemplate, on_delete=models.SET_NULL, null=True,
                               blank=True, related_name="+")
    weapon_name = models.CharField(max_length=80)
    die = models.CharField(max_length=8)
    kind = models.CharField(max_length=16, choices=AttackKind.choices)
    posture = models.CharField(max_length=16, choices=Posture.choices)
    description = models.CharField(max_length=300, blank=True)
    round_key = models.CharField(max_length=40, blank=True)
    test = models.JSONField(default=dict)  # face, base, target, grade, rule, modifiers
    damage_expression = models.CharField(max_length=16)
    damage_face = models.PositiveSmallIntegerField(null=True, blank=True)
    damage = models.PositiveIntegerField(default=0)
    max_damage = models.PositiveIntegerField(default=0)
    multiplier = models.CharField(max_length=12, blank=True)
    reactions = models.JSONField(default=list)
    protectors = models.JSONField(default=list)
    action = models.ForeignKey("campaigns.ActionRecord", on_delete=models.SET_NULL, null=True,
                               blank=True, related_name="+")
    created_at = models.DateTimeField()
    resolved_at = models.DateTimeField(null=True, blank=True)
    outcome = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        verbose_name = _("declared attack")
        verbose_name_plural = _("declared attacks")

    def __str__(self) -> str:
        return f"{self.actor_id} → {self.target_id} ({self.weapon_name})"

    @property
    def hit(self) -> bool:
        return self.test.get("grade") in ("success", "critical_success")

    @property
    def pending(self) -> bool:
        return self.resolved_at is None

    @property
    def ends_turn(self) -> bool:
        """A failed attack ends the attacker's turn (seed, "Attaquer")."""
        return not self.hit

    @property
    def options(self) -> list[str]:
        """The answers the encounter may offer: ``reactions``, and "parry:<id>" for each ally
        who may parry for the target."""
        return [*self.reactions, *(f"parry:{pk}" for pk in self.protectors)]

    # Set by homebrew.services.attack and resolve (not stored): the roll_row dicts and the
    # summary of what they just did, for a caller that journals them itself.
    rolls: list
    summary: dict
