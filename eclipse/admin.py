"""The game master's admin for Eclipse Phase: its character admin (the ego inline), morph,
weapon and armour templates (each checked by the pure rules before it is saved: the models'
clean()), sheets with their sleeves and carried weapons inline, and the TACNets (their members
shown; joining goes through eclipse.tacnet, which checks the mesh implants and refreshes the
encounters, from the pages and the API). Every choice of a template, a sleeve or a sheet holds
its campaign's only (or Eclipse Phase's), each named with its owner."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaigns.admin_scope import CampaignScopedAdmin, CampaignScopedInline
from campaigns.resources import CatalogueAdminMixin
from campaigns.models import Campaign, RuleSystem
from characters.admin import SheetForm, SheetFormSet, SystemCharacterAdmin, owned_label
from characters.models import Character
from eclipse import resources
from eclipse.models import (SYSTEM, ArmourTemplate, CarriedWeapon, EclipseSheet, MorphTemplate,
                            Sleeve, SquadMember, SquadNetwork, WeaponTemplate, WornArmour)
from encounters.services import campaign_changed, characters_changed


def _derived_help(params) -> dict[str, str]:
    """The help texts of the numbers an empty box derives from the morph's or the ego's own,
    with the campaign's parameters (``params``: its EclipsePhaseParameters; the models' texts
    name the parameters when no campaign is known yet)."""
    return {
        "wound_threshold": gettext("Empty: DUR / %(d)s rounded up (the campaign's "
                                   "wound_threshold_divisor).") % {"d": params.wound_threshold_divisor},
        "death_rating": gettext("Empty: DUR x %(bio)s rounded up for biomorphs and pods, DUR x "
                                "%(synth)s for synthmorphs (the campaign's death_multiplier_bio "
                                "and death_multiplier_synth).") % {
            "bio": params.death_multiplier_bio, "synth": params.death_multiplier_synth},
        "lucidity": gettext("Empty: WIL x %(x)s (the campaign's lucidity_per_wil).") % {
            "x": params.lucidity_per_wil},
        "trauma_threshold": gettext("Empty: LUC / %(d)s rounded up (the campaign's "
                                    "trauma_threshold_divisor).") % {
            "d": params.trauma_threshold_divisor},
        "insanity_rating": gettext("Empty: LUC x %(x)s (the campaign's insanity_per_lucidity).")
        % {"x": params.insanity_per_lucidity},
    }


def _with_campaign_numbers(form: forms.BaseForm, campaign) -> None:
    """The derived numbers' help texts of ``form`` say ``campaign``'s values (none: the
    models' texts, which name the parameters)."""
    if campaign is None or campaign.rule_system != SYSTEM:
        return
    for name, text in _derived_help(campaign.parameters).items():
        if name in form.fields:
            form.fields[name].help_text = text


class _CampaignForm(forms.ModelForm):
    """A template of an Eclipse Phase campaign: the choice holds those only (the model's
    clean() refuses another system's campaign; it also checks the rules' values)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "campaign" in self.fields:
            self.fields["campaign"].queryset = self.fields["campaign"].queryset.filter(
                rule_system=RuleSystem.ECLIPSE_PHASE)


class MorphTemplateForm(_CampaignForm):
    class Meta:
        model = MorphTemplate
        fields = ("name", "kind", "durability", "wound_threshold", "death_rating", "armour_energy",
                  "armour_kinetic", "speed", "aptitude_bonus", "limbs", "initiative_bonus", "traits",
                  "mesh_implants", "aptitude_max", "campaign", "description")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _with_campaign_numbers(self, self.instance.campaign if self.instance.campaign_id
                               else None)


class WeaponTemplateForm(_CampaignForm):
    class Meta:
        model = WeaponTemplate
        fields = ("campaign", "name", "skill", "dv", "ap", "damage_type", "melee", "mode_ss", "mode_sa",
                  "mode_bf", "mode_fa", "magazine", "range_short", "range_medium", "range_long",
                  "range_extreme", "beam", "homing", "blast", "blast_radius_m", "trigger", "two_handed",
                  "touch", "reach", "description")


class ArmourTemplateForm(_CampaignForm):
    class Meta:
        model = ArmourTemplate
        fields = ("campaign", "name", "energy", "kinetic", "description")


@admin.register(MorphTemplate)
class MorphTemplateAdmin(CampaignScopedAdmin, CatalogueAdminMixin, admin.ModelAdmin):
    resource_classes = (resources.MorphTemplateResource,)
    form = MorphTemplateForm
    list_display = ("name", "kind", "durability", "speed", "armour_energy", "armour_kinetic",
                    "campaign")
    list_filter = ("campaign", "kind")
    search_fields = ("name",)


@admin.register(WeaponTemplate)
class WeaponTemplateAdmin(CampaignScopedAdmin, CatalogueAdminMixin, admin.ModelAdmin):
    resource_classes = (resources.WeaponTemplateResource,)
    form = WeaponTemplateForm
    list_display = ("name", "dv", "ap", "damage_type", "modes_label", "magazine", "campaign")
    list_filter = ("campaign", "damage_type", "melee", "beam")
    search_fields = ("name",)


@admin.register(ArmourTemplate)
class ArmourTemplateAdmin(CampaignScopedAdmin, CatalogueAdminMixin, admin.ModelAdmin):
    resource_classes = (resources.ArmourTemplateResource,)
    form = ArmourTemplateForm
    list_display = ("name", "energy", "kinetic", "campaign")
    list_filter = ("campaign",)
    search_fields = ("name",)


def _of_campaign(field, model, campaign_id: int | None) -> None:
    """Limit a template choice to ``campaign_id``'s (None: every Eclipse Phase campaign's),
    each named with its campaign."""
    rows = model.objects.select_related("campaign")
    field.queryset = (rows.filter(campaign_id=campaign_id) if campaign_id
                      else rows.filter(campaign__rule_system=SYSTEM))
    field.label_from_instance = lambda t: owned_label(t, t.campaign)


class OfSheetFormSet(BaseInlineFormSet):
    """Gives each form its sheet's campaign (``campaign_id``: read once for the formset)."""

    def get_form_kwargs(self, index):
        if not hasattr(self, "_campaign"):
            sheet = self.instance
            self._campaign = Campaign.objects.filter(
                characters__pk=sheet.character_id).first() if sheet.character_id else None
        campaign = self._campaign
        return {**super().get_form_kwargs(index), "campaign_id": campaign.pk if campaign else None,
                "campaign": campaign}


class OfSheetForm(forms.ModelForm):
    """A sleeve or a carried weapon of a sheet: its template one of the sheet's campaign."""

    template_model: type = MorphTemplate

    def __init__(self, *args, campaign_id: int | None = None, campaign=None, **kwargs):
        super().__init__(*args, **kwargs)
        if "template" in self.fields:
            _of_campaign(self.fields["template"], self.template_model, campaign_id)
        _with_campaign_numbers(self, campaign)


class SleeveForm(OfSheetForm):
    template_model = MorphTemplate


class CarriedWeaponForm(OfSheetForm):
    template_model = WeaponTemplate


class SleeveInline(CampaignScopedInline, admin.StackedInline):
    campaign_path = "owner__character__campaign"
    model = Sleeve
    form = SleeveForm
    formset = OfSheetFormSet
    fk_name = "owner"
    extra = 0
    fields = ("name", "template", "kind", "durability", "wound_threshold", "death_rating",
              "armour_energy", "armour_kinetic", "speed", "aptitude_bonus", "limbs",
              "initiative_bonus", "traits", "mesh_implants", "aptitude_max", "implants",
              "damage", "wounds", "knocked_down", "stunned", "created_at")
    show_change_link = True  # its worn armour


class CarriedWeaponInline(CampaignScopedInline, admin.TabularInline):
    campaign_path = "sheet__character__campaign"
    model = CarriedWeapon
    form = CarriedWeaponForm
    formset = OfSheetFormSet
    extra = 0
    fields = ("template", "loaded", "spares", "state")


class WornArmourForm(forms.ModelForm):
    def __init__(self, *args, campaign_id: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        _of_campaign(self.fields["template"], ArmourTemplate, campaign_id)


class OfSleeveFormSet(BaseInlineFormSet):
    """Gives each form its sleeve's campaign (``campaign_id``: read once for the formset)."""

    def get_form_kwargs(self, index):
        if not hasattr(self, "_campaign_id"):
            sleeve = self.instance
            self._campaign_id = Character.objects.filter(eclipse__sleeves=sleeve).values_list(
                "campaign_id", flat=True).first() if sleeve.pk else None
        return {**super().get_form_kwargs(index), "campaign_id": self._campaign_id}


class WornArmourInline(CampaignScopedInline, admin.TabularInline):
    campaign_path = "sleeve__owner__character__campaign"
    model = WornArmour
    form = WornArmourForm
    formset = OfSleeveFormSet
    extra = 0


class SleeveAdminForm(forms.ModelForm):
    """A sleeve on its own page: its owner an Eclipse Phase sheet named with its campaign, its
    template one of the owner's campaign."""

    class Meta:
        model = Sleeve
        fields = ("name", "kind", "durability", "wound_threshold", "death_rating", "armour_energy",
                  "armour_kinetic", "speed", "aptitude_bonus", "limbs", "initiative_bonus", "traits",
                  "mesh_implants", "aptitude_max", "owner", "template", "damage", "wounds", "knocked_down",
                  "stunned", "created_at", "implants")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "owner" in self.fields:
            self.fields["owner"].queryset = EclipseSheet.objects.select_related(
                "character__campaign")
            self.fields["owner"].label_from_instance = lambda o: owned_label(
                o.character.name, o.character.campaign)
        owner = self.instance.owner if self.instance.owner_id else None
        _of_campaign(self.fields["template"], MorphTemplate,
                     owner.character.campaign_id if owner else None)
        _with_campaign_numbers(self, owner.character.campaign if owner else None)


@admin.register(Sleeve)
class SleeveAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    campaign_path = "owner__character__campaign"
    form = SleeveAdminForm
    list_display = ("name", "owner", "kind", "damage", "wounds")
    list_select_related = ("owner__character",)
    inlines = (WornArmourInline,)

    def save_model(self, request, obj, form, change):
        if change:  # its ego's encounters show its damage and wounds (locked before the row)
            characters_changed([obj.owner_id])
        super().save_model(request, obj, form, change)


class EclipseSheetForm(SheetForm):
    """An ego: its skills from the catalogue (or linked to an aptitude), the aptitudes and
    traits from the rules' lists (EclipseSheet.clean); its current sleeve one of its own, each
    named with its owner and when it was sleeved."""

    class Meta:
        model = EclipseSheet
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "character" in self.fields:
            self.fields["character"].queryset = Character.objects.filter(
                campaign__rule_system=SYSTEM).select_related("campaign")
            self.fields["character"].label_from_instance = lambda c: owned_label(c.name,
                                                                                 c.campaign)
        if "sleeve" in self.fields:
            sheet_id = None if self.instance._state.adding else self.instance.pk
            self.fields["sleeve"].queryset = Sleeve.objects.filter(
                owner_id=sheet_id).select_related("owner__character")
            self.fields["sleeve"].label_from_instance = lambda s: owned_label(
                s.name, s.owner.character.name)
        campaign = self.campaign
        _with_campaign_numbers(self, campaign)
        if campaign is not None and not self.instance.pk:  # a new ego: the campaign's Moxie
            moxie = campaign.parameters.moxie_max_default
            self.initial.setdefault("moxie", moxie)
            self.initial.setdefault("moxie_max", moxie)


@admin.register(EclipseSheet)
class EclipseSheetAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    campaign_path = "character__campaign"
    form = EclipseSheetForm
    list_display = ("character", "sleeve", "moxie", "stress", "traumas")
    list_filter = ("character__campaign",)
    list_select_related = ("character", "sleeve")
    search_fields = ("character__name",)
    inlines = (SleeveInline, CarriedWeaponInline)

    def get_readonly_fields(self, request, obj=None):
        return ["character"] if obj is not None else []

    def save_model(self, request, obj, form, change):
        if change:  # its encounters' open pages show the gauges (locked before the sheet)
            characters_changed([obj.pk])
        super().save_model(request, obj, form, change)


class EclipseSheetInline(CampaignScopedInline, admin.StackedInline):
    campaign_path = "character__campaign"
    """The character's ego on its page; left as it is on an add page, the character gets the
    default ego with the campaign's Moxie (eclipse.services.sheet_default). Its sleeves and
    weapons: the sheet's own page (its link)."""

    model = EclipseSheet
    form = EclipseSheetForm
    formset = SheetFormSet
    fields = (("cognition", "coordination", "intuition", "reflexes", "savvy", "somatics",
               "willpower"), "skills", "skill_aptitudes", ("moxie", "moxie_max"),
              ("lucidity", "trauma_threshold", "insanity_rating"), ("stress", "traumas"),
              "derangements", "disorders", "insane", "mental_notes", "sleeve")
    extra = 1
    max_num = 1
    can_delete = False
    show_change_link = True
    verbose_name_plural = _("Eclipse Phase ego (left as it is: the defaults; sleeves and "
                            "weapons on its own page)")


class EclipseCharacterAdmin(SystemCharacterAdmin):
    """An Eclipse Phase character: who plays it, and its ego."""

    rule_system = SYSTEM
    fields = ("campaign", "kind", "owner", "name")
    kinds = (Character.Kind.PLAYER, Character.Kind.CREATURE)
    inlines = (EclipseSheetInline,)


class SquadMemberInline(CampaignScopedInline, admin.TabularInline):
    campaign_path = "sheet__character__campaign"
    model = SquadMember
    extra = 0
    can_delete = False
    fields = ("sheet", "joined_at")
    readonly_fields = ("sheet", "joined_at")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(SquadNetwork)
class SquadNetworkAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    form = _CampaignForm
    list_display = ("name", "campaign", "open_to_players")
    list_filter = ("campaign",)
    list_select_related = ("campaign",)
    inlines = (SquadMemberInline,)

    def save_model(self, request, obj, form, change):
        campaign_changed(obj.campaign_id)  # the GM's encounter pages list its networks
        super().save_model(request, obj, form, change)
