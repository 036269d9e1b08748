"""The game master's admin for Eclipse Phase: morph, weapon and armour templates (each checked by
the pure rules' dataclasses before it is saved), and sheets with their sleeves and carried
weapons inline, and the TACNets (their members shown; joining goes through eclipse.tacnet,
which checks the mesh implants and refreshes the encounters, from the pages and the API)."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from campaigns.messages import error_message
from campaigns.models import RuleSystem
from eclipse.models import (ArmourTemplate, CarriedWeapon, EclipseSheet, MorphTemplate, Sleeve,
                            SquadMember, SquadNetwork, WeaponTemplate, WornArmour)
from eclipse.selectors import morph_of
from gamerules.errors import RuleError


class _CampaignForm(forms.ModelForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "campaign" in self.fields:
            self.fields["campaign"].queryset = self.fields["campaign"].queryset.filter(
                rule_system=RuleSystem.ECLIPSE_PHASE)


class MorphTemplateForm(_CampaignForm):
    class Meta:
        model = MorphTemplate
        fields = "__all__"

    def clean(self):
        data = super().clean()
        if not self.errors:
            try:
                morph_of(MorphTemplate(**{k: v for k, v in data.items() if k != "campaign"}))
            except (RuleError, ValueError) as exc:
                raise ValidationError(error_message(exc)) from None
        return data


class WeaponTemplateForm(_CampaignForm):
    class Meta:
        model = WeaponTemplate
        fields = "__all__"

    def clean(self):
        data = super().clean()
        if not self.errors:
            try:
                WeaponTemplate(**{k: v for k, v in data.items() if k != "campaign"}).rules()
            except RuleError as exc:
                raise ValidationError(error_message(exc)) from None
        return data


@admin.register(MorphTemplate)
class MorphTemplateAdmin(admin.ModelAdmin):
    form = MorphTemplateForm
    list_display = ["name", "kind", "durability", "speed", "armour_energy", "armour_kinetic",
                    "campaign"]
    list_filter = ["campaign", "kind"]
    search_fields = ["name"]


@admin.register(WeaponTemplate)
class WeaponTemplateAdmin(admin.ModelAdmin):
    form = WeaponTemplateForm
    list_display = ["name", "dv", "ap", "damage_type", "modes_label", "magazine", "campaign"]
    list_filter = ["campaign", "damage_type", "melee", "beam"]
    search_fields = ["name"]


@admin.register(ArmourTemplate)
class ArmourTemplateAdmin(admin.ModelAdmin):
    form = _CampaignForm
    list_display = ["name", "energy", "kinetic", "campaign"]
    list_filter = ["campaign"]
    search_fields = ["name"]


class SleeveInline(admin.StackedInline):
    model = Sleeve
    fk_name = "owner"
    extra = 0
    fields = ["name", "template", "kind", "durability", "wound_threshold", "death_rating",
              "armour_energy", "armour_kinetic", "speed", "aptitude_bonus", "limbs",
              "initiative_bonus", "traits", "mesh_implants", "damage", "wounds", "knocked_down",
              "stunned", "created_at"]


class CarriedWeaponInline(admin.TabularInline):
    model = CarriedWeapon
    extra = 0
    fields = ["template", "loaded", "spares", "state"]


class WornArmourInline(admin.TabularInline):
    model = WornArmour
    extra = 0


@admin.register(Sleeve)
class SleeveAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "kind", "damage", "wounds"]
    list_select_related = ["owner__character"]
    inlines = [WornArmourInline]


@admin.register(EclipseSheet)
class EclipseSheetAdmin(admin.ModelAdmin):
    list_display = ["character", "sleeve", "moxie", "stress", "traumas"]
    list_filter = ["character__campaign"]
    list_select_related = ["character", "sleeve"]
    search_fields = ["character__name"]
    inlines = [SleeveInline, CarriedWeaponInline]

    def get_readonly_fields(self, request, obj=None):
        return ["character"] if obj is not None else []

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "character":
            from characters.models import Character
            kwargs["queryset"] = Character.objects.filter(
                campaign__rule_system=RuleSystem.ECLIPSE_PHASE)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class SquadMemberInline(admin.TabularInline):
    model = SquadMember
    extra = 0
    can_delete = False
    fields = readonly_fields = ["sheet", "joined_at"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(SquadNetwork)
class SquadNetworkAdmin(admin.ModelAdmin):
    form = _CampaignForm
    list_display = ["name", "campaign", "open_to_players"]
    list_filter = ["campaign"]
    list_select_related = ["campaign"]
    inlines = [SquadMemberInline]
