"""The Eclipse Phase sheet: an ego sleeved in a morph, carrying weapons, wearing armour; the
game master's morph, weapon and armour templates.

Source: 001_e6266c120d4801b4.txt; the rows mirror the pure dataclasses of
gamerules.eclipse_phase.sheet (Ego, Morph, Character) and gear (Weapon, Armour, Magazine), and
``eclipse.selectors`` builds those from them (``loaded``). Choices (docs/rules/eclipse-phase.md,
"Django side"): a sleeve copies its template's numbers when it is made (the GM editing a
template changes the bodies made after, not those worn); worn armour belongs to the sleeve (it
stays with the old body, as ``Character.resleeve``); weapons are carried by the character
(they follow the ego when it resleeves). Services (eclipse.services) change these; nothing here
holds a rule.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from gamerules.eclipse_phase import gear
from gamerules.eclipse_phase.sheet import Aptitude, MorphKind, Trait

APTITUDE_FIELDS: dict[Aptitude, str] = {
    Aptitude.COG: "cognition", Aptitude.COO: "coordination", Aptitude.INT: "intuition",
    Aptitude.REF: "reflexes", Aptitude.SAV: "savvy", Aptitude.SOM: "somatics",
    Aptitude.WIL: "willpower",
}
APTITUDE_MIN, APTITUDE_MAX = 1, 99  # the campaign's aptitude_max caps what a test reads
SPEED_MAX = 8  # the highest speed_max a campaign may set


class Kind(models.TextChoices):
    BIOMORPH = MorphKind.BIOMORPH.value, _("Biomorph")
    SYNTHMORPH = MorphKind.SYNTHMORPH.value, _("Synthmorph")
    POD = MorphKind.POD.value, _("Pod")


class DamageType(models.TextChoices):
    ENERGY = gear.DamageType.ENERGY.value, _("Energy")
    KINETIC = gear.DamageType.KINETIC.value, _("Kinetic")
    PSI = gear.DamageType.PSI.value, _("Psi")


class BlastKind(models.TextChoices):
    NONE = "", _("Not an explosive")
    BLAST = gear.BlastKind.BLAST.value, _("Blast (-2 DV per metre)")
    UNIFORM = gear.BlastKind.UNIFORM.value, _("Uniform blast")
    CONE = gear.BlastKind.CONE.value, _("Cone")


class Trigger(models.TextChoices):
    NONE = "", _("None")
    AIRBURST = gear.Trigger.AIRBURST.value, _("Airburst")
    IMPACT = gear.Trigger.IMPACT.value, _("Impact")
    SIGNAL = gear.Trigger.SIGNAL.value, _("Signal")
    TIMER = gear.Trigger.TIMER.value, _("Timer")


class WeaponState(models.TextChoices):
    """A carried weapon's state (a defender's winning critical: gear.WeaponMishap)."""

    WORKING = "working", _("Working")
    DAMAGED = gear.WeaponMishap.DAMAGED.value, _("Damaged")
    JAMMED = gear.WeaponMishap.JAMMED.value, _("Jammed")
    DESTROYED = gear.WeaponMishap.DESTROYED.value, _("Destroyed")


TRAITS = tuple(t.value for t in Trait)


def _between(field: str, low: int, high: int | None = None) -> Q:
    q = Q(**{f"{field}__gte": low})
    return q & Q(**{f"{field}__lte": high}) if high is not None else q


def _null_or_least(field: str, low: int) -> Q:
    return Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__gte": low})


class MorphNumbers(models.Model):
    """What a morph is (gamerules.eclipse_phase.sheet.Morph): the template's and the sleeve's."""

    name = models.CharField(_("name"), max_length=80)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.BIOMORPH)
    durability = models.PositiveSmallIntegerField(_("durability (DUR)"), default=30)
    wound_threshold = models.PositiveSmallIntegerField(
        _("wound threshold"), null=True, blank=True,
        help_text=_("Empty: DUR / 5 rounded up (the campaign's parameter)."))
    death_rating = models.PositiveSmallIntegerField(
        _("death rating"), null=True, blank=True,
        help_text=_("Empty: DUR x 1.5 (biomorphs, pods) or DUR x 2 (synthmorphs)."))
    armour_energy = models.PositiveSmallIntegerField(_("built-in energy armour"), default=0)
    armour_kinetic = models.PositiveSmallIntegerField(_("built-in kinetic armour"), default=0)
    speed = models.PositiveSmallIntegerField(_("speed (SPD)"), default=1,
                                             help_text=_("Action phases per action turn."))
    aptitude_bonus = models.JSONField(
        _("aptitude bonuses"), default=dict, blank=True,
        help_text=_('Added to the ego\'s aptitudes, e.g. {"SOM": 5, "REF": 5}.'))
    limbs = models.PositiveSmallIntegerField(_("limbs"), default=2,
                                             help_text=_("Limbs able to hold a weapon."))
    initiative_bonus = models.SmallIntegerField(_("initiative bonus"), default=0)
    traits = models.JSONField(_("traits"), default=list, blank=True,
                              help_text=_('A list among "ambidextrous", "extra_limbs".'))
    mesh_implants = models.BooleanField(_("mesh implants"), default=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.name

    @classmethod
    def checks(cls, prefix: str) -> list[models.BaseConstraint]:
        return [
            models.CheckConstraint(condition=Q(durability__gte=1), name=f"{prefix}_dur_least_1"),
            models.CheckConstraint(condition=_between("speed", 1, SPEED_MAX),
                                   name=f"{prefix}_speed_range"),
            models.CheckConstraint(condition=_null_or_least("wound_threshold", 1),
                                   name=f"{prefix}_wt_least_1"),
            models.CheckConstraint(condition=_null_or_least("death_rating", 1),
                                   name=f"{prefix}_dr_least_1"),
            models.CheckConstraint(condition=Q(kind__in=Kind.values), name=f"{prefix}_kind_known"),
        ]


class MorphTemplate(MorphNumbers):
    """A morph the game master edits in the admin; sleeves are made from it."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="eclipse_morphs")
    description = models.TextField(_("description"), blank=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("morph template")
        verbose_name_plural = _("morph templates")
        constraints = [models.UniqueConstraint(fields=["campaign", "name"],
                                               name="ep_morph_unique_name"),
                       *MorphNumbers.checks("ep_morph")]


class WeaponTemplate(models.Model):
    """A weapon the game master edits in the admin (gamerules.eclipse_phase.gear.Weapon):
    ``dv`` dice notation with its bonus ("2d10+3"), ``ap`` armour penetration as a positive
    number, the firing modes it offers, its magazine, its range bands (upper bounds in metres),
    and whether it is a beam, a seeker, an explosive, two-handed, a touch or a reach weapon."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="eclipse_weapons")
    name = models.CharField(_("name"), max_length=80)
    skill = models.CharField(_("skill"), max_length=40, default="kinetic_weapons",
                             help_text=_("The skill it uses: blades, kinetic_weapons..."))
    dv = models.CharField(_("damage value (DV)"), max_length=24, default="1d10",
                          help_text=_('Dice notation with a bonus, e.g. "2d10+3".'))
    ap = models.PositiveSmallIntegerField(_("armour penetration (AP)"), default=0,
                                          help_text=_('The book\'s "AP -4" is 4.'))
    damage_type = models.CharField(_("damage type"), max_length=8, choices=DamageType.choices,
                                   default=DamageType.KINETIC)
    melee = models.BooleanField(_("melee weapon"), default=False)
    mode_ss = models.BooleanField(_("single shot (SS)"), default=False)
    mode_sa = models.BooleanField(_("semi-automatic (SA)"), default=False)
    mode_bf = models.BooleanField(_("burst fire (BF)"), default=False)
    mode_fa = models.BooleanField(_("full automatic (FA)"), default=False)
    magazine = models.PositiveSmallIntegerField(_("magazine (rounds)"), default=0,
                                                help_text=_("0: no ammunition."))
    range_short = models.PositiveSmallIntegerField(_("short range up to (m)"), default=0)
    range_medium = models.PositiveSmallIntegerField(_("medium range up to (m)"), default=0)
    range_long = models.PositiveSmallIntegerField(_("long range up to (m)"), default=0)
    range_extreme = models.PositiveSmallIntegerField(_("extreme range up to (m)"), default=0)
    beam = models.BooleanField(_("beam weapon"), default=False)
    homing = models.BooleanField(_("homing (seeker)"), default=False)
    blast = models.CharField(_("blast"), max_length=8, choices=BlastKind.choices, blank=True,
                             default="")
    blast_radius_m = models.PositiveSmallIntegerField(_("blast radius (m)"), default=0)
    trigger = models.CharField(_("trigger"), max_length=8, choices=Trigger.choices, blank=True,
                               default="")
    two_handed = models.BooleanField(_("two-handed"), default=False)
    touch = models.BooleanField(_("touch attack"), default=False)
    reach = models.BooleanField(_("reach"), default=False)
    description = models.TextField(_("description"), blank=True)

    MODES = (("mode_ss", gear.FiringMode.SS), ("mode_sa", gear.FiringMode.SA),
             ("mode_bf", gear.FiringMode.BF), ("mode_fa", gear.FiringMode.FA))

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("weapon template")
        verbose_name_plural = _("weapon templates")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="ep_weapon_unique_name"),
            models.CheckConstraint(
                condition=(Q(range_short__lte=F("range_medium"))
                           & Q(range_medium__lte=F("range_long"))
                           & Q(range_long__lte=F("range_extreme"))),
                name="ep_weapon_ranges_grow"),
            models.CheckConstraint(
                condition=(Q(melee=True) | ~Q(blast="") | Q(mode_ss=True) | Q(mode_sa=True)
                           | Q(mode_bf=True) | Q(mode_fa=True)),
                name="ep_weapon_ranged_has_mode"),
            models.CheckConstraint(condition=Q(damage_type__in=DamageType.values),
                                   name="ep_weapon_damage_type_known"),
            models.CheckConstraint(condition=Q(blast__in=BlastKind.values),
                                   name="ep_weapon_blast_known"),
            models.CheckConstraint(condition=Q(trigger__in=Trigger.values),
                                   name="ep_weapon_trigger_known"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.dv})"

    @property
    def modes(self) -> frozenset[gear.FiringMode]:
        return frozenset(mode for field, mode in self.MODES if getattr(self, field))

    @property
    def modes_label(self) -> str:
        return " ".join(sorted(m.value for m in self.modes))

    def rules(self) -> gear.Weapon:
        """The pure weapon. Raises InvalidSheet for a value the rules refuse (bad DV...)."""
        return gear.Weapon(
            name=self.name, skill=self.skill, dv=self.dv, ap=self.ap,
            damage_type=gear.DamageType(self.damage_type), melee=self.melee, modes=self.modes,
            magazine=self.magazine,
            ranges=(self.range_short, self.range_medium, self.range_long, self.range_extreme),
            beam=self.beam, homing=self.homing,
            blast=gear.BlastKind(self.blast) if self.blast else None,
            blast_radius_m=self.blast_radius_m,
            trigger=gear.Trigger(self.trigger) if self.trigger else None,
            two_handed=self.two_handed, touch=self.touch, reach=self.reach)


class ArmourTemplate(models.Model):
    """Armour the game master edits in the admin (gamerules.eclipse_phase.gear.Armour)."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="eclipse_armours")
    name = models.CharField(_("name"), max_length=80)
    energy = models.PositiveSmallIntegerField(_("energy armour"), default=0)
    kinetic = models.PositiveSmallIntegerField(_("kinetic armour"), default=0)
    description = models.TextField(_("description"), blank=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("armour template")
        verbose_name_plural = _("armour templates")
        constraints = [models.UniqueConstraint(fields=["campaign", "name"],
                                               name="ep_armour_unique_name")]

    def __str__(self) -> str:
        return f"{self.name} ({self.energy}/{self.kinetic})"

    def rules(self) -> gear.Armour:
        return gear.Armour(self.name, energy=self.energy, kinetic=self.kinetic)


class EclipseSheet(models.Model):
    """A character's ego (gamerules.eclipse_phase.sheet.Ego and stress.Mind) and the sleeve it
    wears now (``sleeve``; its past bodies are ``sleeves``). ``skills`` maps a skill's name to
    its rating (1-99, trained skills only); ``skill_aptitudes`` links a skill outside the
    catalogue to its aptitude code. ``lucidity``, ``trauma_threshold`` and ``insanity_rating``
    empty: computed from WIL by the campaign's parameters."""

    character = models.OneToOneField("characters.Character", on_delete=models.CASCADE,
                                     primary_key=True, related_name="eclipse")
    cognition = models.PositiveSmallIntegerField("COG", default=15)
    coordination = models.PositiveSmallIntegerField("COO", default=15)
    intuition = models.PositiveSmallIntegerField("INT", default=15)
    reflexes = models.PositiveSmallIntegerField("REF", default=15)
    savvy = models.PositiveSmallIntegerField("SAV", default=15)
    somatics = models.PositiveSmallIntegerField("SOM", default=15)
    willpower = models.PositiveSmallIntegerField("WIL", default=15)
    skills = models.JSONField(_("skills"), default=dict, blank=True,
                              help_text=_('Trained skills, 1-99: {"fray": 40, "blades": 35}.'))
    skill_aptitudes = models.JSONField(
        _("aptitudes of other skills"), default=dict, blank=True,
        help_text=_('Skills outside the catalogue: {"pilot_groundcraft": "REF"}.'))
    moxie = models.PositiveSmallIntegerField(_("Moxie"), default=3)
    moxie_max = models.PositiveSmallIntegerField(_("max Moxie"), default=3)
    lucidity = models.PositiveSmallIntegerField(_("lucidity (LUC)"), null=True, blank=True,
                                                help_text=_("Empty: WIL x 2."))
    trauma_threshold = models.PositiveSmallIntegerField(_("trauma threshold"), null=True,
                                                        blank=True,
                                                        help_text=_("Empty: LUC / 5 rounded up."))
    insanity_rating = models.PositiveSmallIntegerField(_("insanity rating"), null=True,
                                                       blank=True, help_text=_("Empty: LUC x 2."))
    stress = models.PositiveSmallIntegerField(_("stress"), default=0)
    traumas = models.PositiveSmallIntegerField(_("traumas"), default=0)
    derangements = models.JSONField(_("derangements"), default=list, blank=True)
    disorders = models.JSONField(_("disorders"), default=list, blank=True)
    insane = models.BooleanField(_("permanently insane"), default=False)
    mental_notes = models.TextField(_("notes on derangements"), blank=True)
    sleeve = models.OneToOneField("Sleeve", on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="worn_by", verbose_name=_("current sleeve"))

    class Meta:
        verbose_name = _("Eclipse Phase sheet")
        verbose_name_plural = _("Eclipse Phase sheets")
        constraints = [
            *(models.CheckConstraint(condition=_between(name, APTITUDE_MIN, APTITUDE_MAX),
                                     name=f"ep_sheet_{name}_range")
              for name in APTITUDE_FIELDS.values()),
            models.CheckConstraint(condition=Q(moxie__lte=F("moxie_max")),
                                   name="ep_sheet_moxie_at_most_max"),
            models.CheckConstraint(condition=_null_or_least("lucidity", 1),
                                   name="ep_sheet_luc_least_1"),
            models.CheckConstraint(condition=_null_or_least("trauma_threshold", 1),
                                   name="ep_sheet_tt_least_1"),
            models.CheckConstraint(condition=_null_or_least("insanity_rating", 1),
                                   name="ep_sheet_ir_least_1"),
        ]

    def __str__(self) -> str:
        return str(self.character)

    def aptitudes(self) -> dict[Aptitude, int]:
        return {a: getattr(self, f) for a, f in APTITUDE_FIELDS.items()}


class Sleeve(MorphNumbers):
    """A body an ego wore or wears (``owner``), made from a template whose numbers it copied,
    with its own damage and wounds (gamerules.eclipse_phase.health.Health): resleeving keeps
    the old body as it was, and its worn armour with it."""

    owner = models.ForeignKey(EclipseSheet, on_delete=models.CASCADE, related_name="sleeves")
    template = models.ForeignKey(MorphTemplate, on_delete=models.SET_NULL, null=True,
                                 blank=True, related_name="sleeves")
    damage = models.PositiveSmallIntegerField(_("damage"), default=0)
    wounds = models.PositiveSmallIntegerField(_("wounds"), default=0)
    knocked_down = models.BooleanField(_("knocked down"), default=False)
    stunned = models.PositiveSmallIntegerField(_("stunned (action turns)"), default=0)
    created_at = models.DateTimeField(_("sleeved at"))

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("sleeve")
        verbose_name_plural = _("sleeves")
        constraints = MorphNumbers.checks("ep_sleeve")


class CarriedWeapon(models.Model):
    """A weapon a character carries: its template, the rounds ``loaded`` in its magazine and
    the full ``spares`` magazines (gear.Magazine), and its state."""

    sheet = models.ForeignKey(EclipseSheet, on_delete=models.CASCADE, related_name="weapons")
    template = models.ForeignKey(WeaponTemplate, on_delete=models.PROTECT,
                                 related_name="carried")
    loaded = models.PositiveSmallIntegerField(_("rounds loaded"), default=0)
    spares = models.PositiveSmallIntegerField(_("spare magazines"), default=0)
    state = models.CharField(_("state"), max_length=10, choices=WeaponState.choices,
                             default=WeaponState.WORKING)

    class Meta:
        ordering = ["id"]
        verbose_name = _("carried weapon")
        verbose_name_plural = _("carried weapons")
        constraints = [models.CheckConstraint(condition=Q(state__in=WeaponState.values),
                                              name="ep_carried_state_known")]

    def __str__(self) -> str:
        return self.template.name

    def magazine(self) -> gear.Magazine:
        return gear.Magazine(self.template.magazine, self.loaded, self.spares)


class WornArmour(models.Model):
    """Armour worn over a sleeve (it stays with that body)."""

    sleeve = models.ForeignKey(Sleeve, on_delete=models.CASCADE, related_name="armour")
    template = models.ForeignKey(ArmourTemplate, on_delete=models.PROTECT, related_name="worn")

    class Meta:
        ordering = ["id"]
        verbose_name = _("worn armour")
        verbose_name_plural = _("worn armour")
        constraints = [models.UniqueConstraint(fields=["sleeve", "template"],
                                               name="ep_armour_worn_once")]

    def __str__(self) -> str:
        return self.template.name


class SquadNetwork(models.Model):
    """A TACNet: a squad's tactical network in a campaign (eclipse.tacnet). ``open_to_players``:
    the table's choice whether players join and leave with their own characters (the game
    master always manages the members)."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="eclipse_tacnets")
    name = models.CharField(_("name"), max_length=80)
    open_to_players = models.BooleanField(
        _("players join and leave"), default=True,
        help_text=_("Players may join and leave with their own characters."))

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("TACNet")
        verbose_name_plural = _("TACNets")
        constraints = [models.UniqueConstraint(fields=["campaign", "name"],
                                               name="ep_tacnet_unique_name")]

    def __str__(self) -> str:
        return self.name


class SquadMember(models.Model):
    """A character in a TACNet (one network at a time; its sleeve has mesh implants when it
    joins)."""

    network = models.ForeignKey(SquadNetwork, on_delete=models.CASCADE, related_name="members")
    sheet = models.OneToOneField(EclipseSheet, on_delete=models.CASCADE, related_name="squad")
    joined_at = models.DateTimeField(_("joined at"))

    class Meta:
        ordering = ["joined_at", "id"]
        verbose_name = _("TACNet member")
        verbose_name_plural = _("TACNet members")

    def __str__(self) -> str:
        return f"{self.sheet} ({self.network})"


class Perceived(models.Model):
    """What a TACNet perceives of an opponent in an encounter, as the game master decides:
    ``by`` the member whose senses it is (empty: the network as a whole), with a note."""

    network = models.ForeignKey(SquadNetwork, on_delete=models.CASCADE, related_name="perceived")
    encounter = models.ForeignKey("encounters.Encounter", on_delete=models.CASCADE,
                                  related_name="eclipse_perceived")
    opponent = models.ForeignKey("encounters.Combatant", on_delete=models.CASCADE,
                                 related_name="eclipse_perceived")
    by = models.ForeignKey(SquadMember, on_delete=models.CASCADE, null=True, blank=True,
                           related_name="perceives")
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("marked at"))

    class Meta:
        ordering = ["id"]
        verbose_name = _("perceived opponent")
        verbose_name_plural = _("perceived opponents")
        constraints = [
            models.UniqueConstraint(fields=["network", "encounter", "opponent", "by"],
                                    condition=Q(by__isnull=False),
                                    name="ep_perceived_once_by_member"),
            models.UniqueConstraint(fields=["network", "encounter", "opponent"],
                                    condition=Q(by__isnull=True),
                                    name="ep_perceived_once_by_network"),
        ]

    def __str__(self) -> str:
        return str(self.opponent_id)


class EncounterSetting(models.Model):
    """What an Eclipse Phase encounter adds to the shared one (issue 12, item 7): its
    ``gravity`` in g (manoeuvres.gravity_modifiers, jump_multiplier), and the ambush the GM
    rolled before the start (``ambush``: the ambusher's name and each surprised combatant's
    outcome and initiative malus, by combatant id; eclipse.environment). One row per
    encounter, made when the GM first sets one of them; none: 1 g, no ambush."""

    encounter = models.OneToOneField("encounters.Encounter", on_delete=models.CASCADE,
                                     primary_key=True, related_name="eclipse_setting")
    gravity = models.DecimalField(_("gravity (g)"), max_digits=4, decimal_places=2,
                                  default=Decimal("1.00"))
    ambush = models.JSONField(_("ambush"), default=dict, blank=True)

    class Meta:
        verbose_name = _("Eclipse Phase encounter setting")
        verbose_name_plural = _("Eclipse Phase encounter settings")
        constraints = [models.CheckConstraint(condition=_between("gravity", 0, 20),
                                              name="ep_setting_gravity_range")]

    def __str__(self) -> str:
        return f"{self.encounter} ({self.gravity} g)"
