"""The game master's admin for the homebrew d100 system: weapon and spell templates, sheets (HP
and MP maxima, the MP gauge's label, equipment, permanent injuries) and rests as an action."""

from __future__ import annotations

from collections import defaultdict

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from campaigns.messages import error_message
from campaigns.models import RuleSystem
from gamerules.errors import RuleError
from gamerules.homebrew.attack import die_sides
from gamerules.homebrew.characteristics import CODES, validate_characteristics
from homebrew.models import HomebrewSheet, PermanentInjury, WeaponTemplate
from homebrew.services import rest_grant


class WeaponTemplateForm(forms.ModelForm):
    class Meta:
        model = WeaponTemplate
        fields = ["campaign", "name", "die", "kind", "mp_cost", "description"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["campaign"].queryset = self.fields["campaign"].queryset.filter(
            rule_system=RuleSystem.HOMEBREW)

    def clean_die(self) -> str:
        die = self.cleaned_data["die"].strip().lower()
        try:
            die_sides(die)
        except RuleError as exc:
            raise ValidationError(error_message(exc)) from None
        return die


@admin.register(WeaponTemplate)
class WeaponTemplateAdmin(admin.ModelAdmin):
    form = WeaponTemplateForm
    list_display = ["name", "die", "kind", "mp_cost", "campaign"]
    list_filter = ["campaign", "kind"]
    search_fields = ["name"]


class PermanentInjuryInline(admin.TabularInline):
    model = PermanentInjury
    extra = 0
    fields = ["description", "round_key", "created_at"]


class HomebrewSheetForm(forms.ModelForm):
    """Player characters keep the creation budgets (170 points, subs within the main's tens,
    0-6: gamerules.homebrew.characteristics); the GM's creatures may have any numbers."""

    class Meta:
        model = HomebrewSheet
        fields = ["character", *CODES, "hp", "hp_max", "mp", "mp_max", "mp_label", "posture",
                  "health", "spared", "dodge_lost_round", "weapons"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "character" in self.fields:
            self.fields["character"].queryset = self.fields["character"].queryset.filter(
                campaign__rule_system=RuleSystem.HOMEBREW).select_related("campaign")
        self.fields["weapons"].queryset = WeaponTemplate.objects.select_related("campaign")

    def clean(self):
        data = super().clean()
        for now, most in (("hp", "hp_max"), ("mp", "mp_max")):  # a gauge past its maximum
            if None not in (data.get(now), data.get(most)) and data[now] > data[most]:
                self.add_error(now, _("At most the maximum (%(most)s).") % {"most": data[most]})
        character = data.get("character") or getattr(self.instance, "character", None)
        if character is None or any(data.get(code) is None for code in CODES):
            return data
        for weapon in data.get("weapons") or ():
            if weapon.campaign_id != character.campaign_id:
                self.add_error("weapons", _("%(weapon)s belongs to another campaign.")
                               % {"weapon": weapon.name})
        if character.is_player:
            try:
                validate_characteristics({c: data[c] for c in CODES},
                                         character.campaign.parameters)
            except RuleError as exc:
                raise ValidationError(error_message(exc)) from None
        return data


@admin.action(description=_("Grant a short rest"))
def short_rest(modeladmin, request, queryset):
    _grant(modeladmin, request, queryset, "short")


@admin.action(description=_("Grant a medium rest"))
def medium_rest(modeladmin, request, queryset):
    _grant(modeladmin, request, queryset, "medium")


@admin.action(description=_("Grant a long rest"))
def long_rest(modeladmin, request, queryset):
    _grant(modeladmin, request, queryset, "long")


def _grant(modeladmin, request, queryset, kind: str) -> None:
    """homebrew.services.rest_grant for each campaign of the chosen sheets."""
    by_campaign = defaultdict(list)
    for sheet in queryset.select_related("character__campaign"):
        by_campaign[sheet.character.campaign].append(sheet.pk)
    for campaign, ids in by_campaign.items():
        try:
            given = rest_grant(user=request.user, campaign=campaign, kind=kind, character_ids=ids)
        except RuleError as exc:
            modeladmin.message_user(request, error_message(exc), messages.ERROR)
            continue
        modeladmin.message_user(request, _("%(campaign)s: %(count)s characters rested.")
                                % {"campaign": campaign.name, "count": len(given)})


@admin.register(HomebrewSheet)
class HomebrewSheetAdmin(admin.ModelAdmin):
    form = HomebrewSheetForm
    list_display = ["character", "physique", "perception", "mental", "hp", "hp_max", "mp",
                    "mp_max", "posture", "health"]
    list_filter = ["character__campaign", "health", "posture"]
    list_select_related = ["character"]
    search_fields = ["character__name"]
    filter_horizontal = ["weapons"]
    inlines = [PermanentInjuryInline]
    actions = [short_rest, medium_rest, long_rest]

    def get_readonly_fields(self, request, obj=None):
        return ["character"] if obj is not None else []
