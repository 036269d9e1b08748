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

from collections.abc import Callable
from decimal import Decimal
from typing import ClassVar

from django.db import models
from django.db.models import F, Q
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from campaigns.validation import (campaign_problem, character_problem, refusal, related,
                                  require, same_campaign_problem, validate_dice)
from gamerules.eclipse_phase import gear
from gamerules.eclipse_phase.errors import MESSAGES as EP_MESSAGES
from gamerules.eclipse_phase.errors import InvalidSheet
from gamerules.eclipse_phase.sheet import (Aptitude, MorphKind, Trait, aptitude_bonus_of,
                                           traits_of)

SYSTEM = "eclipse_phase"  # campaigns.models.RuleSystem.ECLIPSE_PHASE: the rows here are its own

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
    BLAST = gear.BlastKind.BLAST.value, _("Blast (DV lost with each metre from the centre)")
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


def _problems(checks: dict[str, Callable[[], object]]) -> dict[str, InvalidSheet]:
    """field -> the InvalidSheet its check (a function of no argument) raised, for the checks
    that raised one."""
    found: dict[str, InvalidSheet] = {}
    for field, check in checks.items():
        try:
            check()
        except InvalidSheet as exc:
            found[field] = exc
    return found


class MorphNumbers(models.Model):
    """What a morph is (gamerules.eclipse_phase.sheet.Morph): the template's and the sleeve's."""

    name = models.CharField(_("name"), max_length=80)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.BIOMORPH)
    durability = models.PositiveSmallIntegerField(_("durability (DUR)"), default=30)
    wound_threshold = models.PositiveSmallIntegerField(
        _("wound threshold"), null=True, blank=True,
        help_text=_("Empty: DUR / the campaign's wound threshold divisor "
                    "(wound_threshold_divisor), rounded up."))
    death_rating = models.PositiveSmallIntegerField(
        _("death rating"), null=True, blank=True,
        help_text=_("Empty: DUR x the campaign's death rating multiplier, rounded up "
                    "(death_multiplier_bio: biomorphs, pods; death_multiplier_synth: "
                    "synthmorphs)."))
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
                              help_text=_('A list among "ambidextrous", "extra_limbs", '
                                          '"pain_filter".'))
    mesh_implants = models.BooleanField(_("mesh implants"), default=True)
    aptitude_max = models.PositiveSmallIntegerField(
        _("aptitude maximum"), null=True, blank=True,
        help_text=_("The highest aptitude in this body, the morph's bonus included (first "
                    "edition: 20 to 40). Empty: the campaign's flat maximum."))

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The bonuses' aptitudes and the traits from the rules' lists (gamerules.eclipse_phase
        .sheet, as eclipse.selectors.morph_of reads them strictly); the numbers' ranges are the
        database's checks below, which say the rules' ranges (gamerules.eclipse_phase.sheet
        .Morph)."""
        problems = _problems({
            "aptitude_bonus": lambda: aptitude_bonus_of(self.aptitude_bonus or {}),
            "traits": lambda: traits_of(self.traits or []),
            "implants": lambda: traits_of(getattr(self, "implants", None) or [])})
        if problems:
            raise refusal(problems)

    @classmethod
    def checks(cls, prefix: str) -> list[models.BaseConstraint]:
        return [
            models.CheckConstraint(
                condition=Q(durability__gte=1), name=f"{prefix}_dur_least_1",
                violation_error_message=_("A morph's durability (DUR) is at least 1.")),
            models.CheckConstraint(
                condition=_between("speed", 1, SPEED_MAX), name=f"{prefix}_speed_range",
                violation_error_message=format_lazy(
                    _("A morph's speed (SPD) is 1 to {maximum}."), maximum=SPEED_MAX)),
            models.CheckConstraint(
                condition=_null_or_least("wound_threshold", 1), name=f"{prefix}_wt_least_1",
                violation_error_message=_("A morph's wound threshold is empty (computed) or at "
                                          "least 1.")),
            models.CheckConstraint(
                condition=_null_or_least("death_rating", 1), name=f"{prefix}_dr_least_1",
                violation_error_message=_("A morph's death rating is empty (computed) or at "
                                          "least 1.")),
            models.CheckConstraint(
                condition=Q(kind__in=Kind.values), name=f"{prefix}_kind_known",
                violation_error_message=_("A morph is a biomorph, a synthmorph or a pod.")),
            models.CheckConstraint(
                condition=(Q(aptitude_max__isnull=True)
                           | _between("aptitude_max", 1, APTITUDE_MAX)),
                name=f"{prefix}_aptitude_max_range",
                violation_error_message=format_lazy(
                    _("A morph's aptitude maximum is empty (the campaign's) or 1 to {maximum}."),
                    maximum=APTITUDE_MAX)),
        ]


class MorphTemplate(MorphNumbers):
    """A morph the game master edits in the admin; sleeves are made from it."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="eclipse_morphs")
    description = models.TextField(_("description"), blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["name", "id"]
        verbose_name = _("morph template")
        verbose_name_plural = _("morph templates")
        constraints = (models.UniqueConstraint(
                           fields=["campaign", "name"], name="ep_morph_unique_name",
                           violation_error_message=_("A morph template with this name already "
                                                     "exists in this campaign.")),
                       *MorphNumbers.checks("ep_morph"))

    def clean(self) -> None:
        require(campaign=campaign_problem(related(self, "campaign"), SYSTEM))
        super().clean()


class WeaponTemplate(models.Model):
    """A weapon the game master edits in the admin (gamerules.eclipse_phase.gear.Weapon):
    ``dv`` dice notation with its bonus ("2d10+3"), ``ap`` armour penetration as a positive
    number, the firing modes it offers, its magazine, its range bands (upper bounds in metres),
    and whether it is a beam, a seeker, an explosive, two-handed, a touch or a reach weapon."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="eclipse_weapons")
    name = models.CharField(_("name"), max_length=80)
    skill = models.CharField(_("skill"), max_length=40, default="kinetic_weapons",
                             help_text=format_lazy(_("The skill it uses, one of {skills}."),
                                                   skills=", ".join(sorted(gear.WEAPON_SKILLS))))
    dv = models.CharField(_("damage value (DV)"), max_length=24, default="1d10",
                          validators=[validate_dice],
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
        ordering: ClassVar[list[str]] = ["name", "id"]
        verbose_name = _("weapon template")
        verbose_name_plural = _("weapon templates")
        constraints = (
            models.UniqueConstraint(
                fields=["campaign", "name"], name="ep_weapon_unique_name",
                violation_error_message=_("A weapon template with this name already exists in "
                                          "this campaign.")),
            models.CheckConstraint(
                condition=(Q(range_short__lte=F("range_medium"))
                           & Q(range_medium__lte=F("range_long"))
                           & Q(range_long__lte=F("range_extreme"))),
                name="ep_weapon_ranges_grow",
                violation_error_message=_(EP_MESSAGES["range_bands_grow"])),  # the rule's
            models.CheckConstraint(
                condition=(Q(melee=True) | ~Q(blast="") | Q(mode_ss=True) | Q(mode_sa=True)
                           | Q(mode_bf=True) | Q(mode_fa=True)),
                name="ep_weapon_ranged_has_mode",
                violation_error_message=_("A ranged weapon needs a firing mode (SS, SA, BF or "
                                          "FA), unless it is an explosive.")),
            models.CheckConstraint(
                condition=Q(damage_type__in=DamageType.values),
                name="ep_weapon_damage_type_known",
                violation_error_message=_("Damage is energy, kinetic or psi.")),
            models.CheckConstraint(
                condition=Q(blast__in=BlastKind.values), name="ep_weapon_blast_known",
                violation_error_message=_("A blast is a blast, a uniform blast, a cone or "
                                          "none.")),
            models.CheckConstraint(
                condition=Q(trigger__in=Trigger.values), name="ep_weapon_trigger_known",
                violation_error_message=_("A trigger is airburst, impact, signal, timer or "
                                          "none.")),
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.dv})"

    # Where the admin shows a refusal of the rules (gear.Weapon), by its key; "*": the form.
    RULE_FIELDS: ClassVar[dict[str, str]] = {"unknown_weapon_skill": "skill",
                                             "melee_no_modes": "melee", "magazine_blast_radius": "*"}
    # The rules' refusals that a field's validator or a database check below says already.
    SAID_ELSEWHERE = frozenset({"invalid_dv", "ranged_weapon_needs", "range_bands_grow"})

    def clean(self) -> None:
        """A weapon of an Eclipse Phase campaign, as the rules take it (gear.Weapon: its skill
        a weapon skill, no firing mode on a melee weapon...). The DV's notation is its field's
        validator; the database's checks repeat the ranges and the modes."""
        require(campaign=campaign_problem(related(self, "campaign"), SYSTEM))
        if any(getattr(self, f) is None for f in ("ap", "magazine", "range_short",
                                                  "range_medium", "range_long",
                                                  "range_extreme", "blast_radius_m")):
            return  # a field left empty has its own error
        try:
            self.rules()
        except InvalidSheet as exc:
            if exc.key not in self.SAID_ELSEWHERE:
                raise refusal(exc, self.RULE_FIELDS.get(exc.key, "*")) from None
        except ValueError:
            return  # a choice outside its list: the field's own error

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
        ordering: ClassVar[list[str]] = ["name", "id"]
        verbose_name = _("armour template")
        verbose_name_plural = _("armour templates")
        constraints = (models.UniqueConstraint(
            fields=["campaign", "name"], name="ep_armour_unique_name",
            violation_error_message=_("An armour template with this name already exists in "
                                      "this campaign.")),)

    def __str__(self) -> str:
        return f"{self.name} ({self.energy}/{self.kinetic})"

    def rules(self) -> gear.Armour:
        return gear.Armour(self.name, energy=self.energy, kinetic=self.kinetic)

    def clean(self) -> None:
        require(campaign=campaign_problem(related(self, "campaign"), SYSTEM))


class EclipseSheet(models.Model):
    """A character's ego (gamerules.eclipse_phase.sheet.Ego and stress.Mind) and the sleeve it
    wears now (``sleeve``; its past bodies are ``sleeves``). ``skills`` maps a skill's name to
    the ranks the ego learnt (0-99, trained skills only; the rating is the linked aptitude in
    the present morph plus these, gamerules.eclipse_phase.sheet.Character.rating: migration
    0004 turned the ratings stored before into ranks); ``skill_aptitudes`` links a skill
    outside the catalogue to its aptitude code. ``lucidity``, ``trauma_threshold`` and ``insanity_rating``
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
                              help_text=_('Trained skills and the ranks learnt, 0-99, added to '
                                          'the linked aptitude: {"fray": 25, "blades": 20}.'))
    skill_aptitudes = models.JSONField(
        _("aptitudes of other skills"), default=dict, blank=True,
        help_text=_('Skills outside the catalogue: {"pilot_groundcraft": "REF"}.'))
    moxie = models.PositiveSmallIntegerField(_("Moxie"), default=3)
    moxie_max = models.PositiveSmallIntegerField(_("max Moxie"), default=3)
    lucidity = models.PositiveSmallIntegerField(_("lucidity (LUC)"), null=True, blank=True,
                                                help_text=_("Empty: WIL x the campaign's "
                                                            "lucidity per WIL (lucidity_per_wil)."))
    trauma_threshold = models.PositiveSmallIntegerField(_("trauma threshold"), null=True,
                                                        blank=True,
                                                        help_text=_(
                                                            "Empty: LUC / the campaign's trauma "
                                                            "threshold divisor "
                                                            "(trauma_threshold_divisor), rounded up."))
    insanity_rating = models.PositiveSmallIntegerField(_("insanity rating"), null=True,
                                                       blank=True, help_text=_(
                                                           "Empty: LUC x the campaign's insanity "
                                                           "rating per lucidity "
                                                           "(insanity_per_lucidity)."))
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
        constraints = (
            *(models.CheckConstraint(
                condition=_between(name, APTITUDE_MIN, APTITUDE_MAX),
                name=f"ep_sheet_{name}_range",
                violation_error_message=format_lazy(
                    _("{aptitude} is {low} to {high}."), aptitude=aptitude.value,
                    low=APTITUDE_MIN, high=APTITUDE_MAX))
              for aptitude, name in APTITUDE_FIELDS.items()),
            models.CheckConstraint(
                condition=Q(moxie__lte=F("moxie_max")), name="ep_sheet_moxie_at_most_max",
                violation_error_message=_("Moxie is at most the max Moxie.")),
            models.CheckConstraint(
                condition=_null_or_least("lucidity", 1), name="ep_sheet_luc_least_1",
                violation_error_message=_("Lucidity is empty (computed from WIL) or at least "
                                          "1.")),
            models.CheckConstraint(
                condition=_null_or_least("trauma_threshold", 1), name="ep_sheet_tt_least_1",
                violation_error_message=_("The trauma threshold is empty (computed) or at "
                                          "least 1.")),
            models.CheckConstraint(
                condition=_null_or_least("insanity_rating", 1), name="ep_sheet_ir_least_1",
                violation_error_message=_("The insanity rating is empty (computed) or at "
                                          "least 1.")),
        )

    def __str__(self) -> str:
        return str(self.character)

    def aptitudes(self) -> dict[Aptitude, int]:
        return {a: getattr(self, f) for a, f in APTITUDE_FIELDS.items()}

    def clean(self) -> None:
        """An Eclipse Phase character's ego, its skills and links from the rules' lists
        (gamerules.eclipse_phase.sheet: skills_of, skill_links_of, names_of); the current
        sleeve one of its own."""
        from gamerules.eclipse_phase.sheet import names_of, skill_links_of, skills_of
        require(character=character_problem(related(self, "character"), SYSTEM))
        given = self.skill_aptitudes if isinstance(self.skill_aptitudes, dict) else {}
        problems = _problems({
            "skill_aptitudes": lambda: skill_links_of(self.skill_aptitudes or {}),
            "skills": lambda: skills_of(self.skills or {}, given),  # linked: named, at least
            "derangements": lambda: names_of(self.derangements or []),
            "disorders": lambda: names_of(self.disorders or [])})
        sleeve = related(self, "sleeve")
        if sleeve is not None and sleeve.owner_id != self.pk:
            problems["sleeve"] = InvalidSheet("not_own_sleeve", sleeve=sleeve.name)
        if problems:
            raise refusal(problems)


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
    implants = models.JSONField(
        _("implants added"), default=list, blank=True,
        help_text=_('Implants added to this body after it was made, e.g. ["pain_filter"]: '
                    'they stay with it.'))

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        verbose_name = _("sleeve")
        verbose_name_plural = _("sleeves")
        constraints = MorphNumbers.checks("ep_sleeve")

    def clean(self) -> None:
        owner = related(self, "owner")
        campaign_id = owner.character.campaign_id if owner is not None else None
        require(template=same_campaign_problem(related(self, "template"), campaign_id))
        super().clean()


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
        ordering: ClassVar[list[str]] = ["id"]
        verbose_name = _("carried weapon")
        verbose_name_plural = _("carried weapons")
        constraints = (models.CheckConstraint(
            condition=Q(state__in=WeaponState.values), name="ep_carried_state_known",
            violation_error_message=_("A weapon is working, damaged, jammed or destroyed.")),)

    def __str__(self) -> str:
        return self.template.name

    def magazine(self) -> gear.Magazine:
        return gear.Magazine(self.template.magazine, self.loaded, self.spares)

    def clean(self) -> None:
        """A weapon of the carrier's campaign, its rounds within its magazine (gear.Magazine)."""
        sheet, template = related(self, "sheet"), related(self, "template")
        require(template=same_campaign_problem(
            template, sheet.character.campaign_id if sheet is not None else None))
        if template is not None and None not in (self.loaded, self.spares):
            problems = _problems({"loaded": self.magazine})
            if problems:
                raise refusal(problems)


class WornArmour(models.Model):
    """Armour worn over a sleeve (it stays with that body)."""

    sleeve = models.ForeignKey(Sleeve, on_delete=models.CASCADE, related_name="armour")
    template = models.ForeignKey(ArmourTemplate, on_delete=models.PROTECT, related_name="worn")

    class Meta:
        ordering: ClassVar[list[str]] = ["id"]
        verbose_name = _("worn armour")
        verbose_name_plural = _("worn armour")
        constraints = (models.UniqueConstraint(
            fields=["sleeve", "template"], name="ep_armour_worn_once",
            violation_error_message=_("This armour is worn on this sleeve already.")),)

    def __str__(self) -> str:
        return self.template.name

    def clean(self) -> None:
        sleeve = related(self, "sleeve")
        owner = related(sleeve, "owner") if sleeve is not None else None
        require(template=same_campaign_problem(
            related(self, "template"), owner.character.campaign_id if owner else None))


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
        ordering: ClassVar[list[str]] = ["name", "id"]
        verbose_name = _("TACNet")
        verbose_name_plural = _("TACNets")
        constraints = (models.UniqueConstraint(
            fields=["campaign", "name"], name="ep_tacnet_unique_name",
            violation_error_message=_("A TACNet with this name already exists in this "
                                      "campaign.")),)

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        require(campaign=campaign_problem(related(self, "campaign"), SYSTEM))


class SquadMember(models.Model):
    """A character in a TACNet (one network at a time; its sleeve has mesh implants when it
    joins)."""

    network = models.ForeignKey(SquadNetwork, on_delete=models.CASCADE, related_name="members")
    sheet = models.OneToOneField(EclipseSheet, on_delete=models.CASCADE, related_name="squad")
    joined_at = models.DateTimeField(_("joined at"))

    class Meta:
        ordering: ClassVar[list[str]] = ["joined_at", "id"]
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
        ordering: ClassVar[list[str]] = ["id"]
        verbose_name = _("perceived opponent")
        verbose_name_plural = _("perceived opponents")
        constraints = (
            models.UniqueConstraint(fields=["network", "encounter", "opponent", "by"],
                                    condition=Q(by__isnull=False),
                                    name="ep_perceived_once_by_member",
                                    violation_error_message=_(
                                        "This member already perceives this opponent in this "
                                        "encounter.")),
            models.UniqueConstraint(fields=["network", "encounter", "opponent"],
                                    condition=Q(by__isnull=True),
                                    name="ep_perceived_once_by_network",
                                    violation_error_message=_(
                                        "This TACNet already perceives this opponent in this "
                                        "encounter.")),
        )

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
        constraints = (models.CheckConstraint(
            condition=_between("gravity", 0, 20), name="ep_setting_gravity_range",
            violation_error_message=_("Gravity is 0 to 20 g.")),)

    def __str__(self) -> str:
        return f"{self.encounter} ({self.gravity} g)"
