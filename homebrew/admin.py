"""The game master's admin for the homebrew d100 system: its character admin (the sheet
inline), weapon and spell templates, sheets (HP and MP maxima, the MP gauge's label, equipment,
permanent injuries) and rests as an action. Every form is checked by the rules: a sheet within
the characteristics' limits of its campaign (gamerules.homebrew.characteristics; a player
character's also within the creation budgets), a damage die of one die, rows of homebrew
campaigns only (the models' clean())."""

from __future__ import annotations

from collections import defaultdict

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.utils.translation import gettext, gettext_lazy as _

from campaigns.admin_scope import CampaignScopedAdmin, CampaignScopedInline
from campaigns.resources import CatalogueAdminMixin
from campaigns.messages import error_message
from campaigns.models import RuleSystem
from characters.admin import SheetForm, SheetFormSet, SystemCharacterAdmin, owned_label
from characters.models import Character
from encounters.services import characters_changed
from gamerules.errors import RuleError
from gamerules.homebrew.attack import die_sides
from gamerules.homebrew.characteristics import (CODES, CharacteristicsError, suggested_sheet,
                                                validate_characteristics)
from homebrew import resources
from homebrew.models import SYSTEM, HomebrewSheet, PermanentInjury, WeaponTemplate
from homebrew.services import rest_grant


class WeaponTemplateForm(forms.ModelForm):
    class Meta:
        model = WeaponTemplate
        fields = ("campaign", "name", "die", "kind", "mp_cost", "offered_at_creation",
                  "description")

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
class WeaponTemplateAdmin(CampaignScopedAdmin, CatalogueAdminMixin, admin.ModelAdmin):
    resource_classes = (resources.WeaponTemplateResource,)
    form = WeaponTemplateForm
    list_display = ("name", "die", "kind", "mp_cost", "offered_at_creation", "campaign")
    list_filter = ("campaign", "kind", "offered_at_creation")
    search_fields = ("name",)


class PermanentInjuryInline(CampaignScopedInline, admin.TabularInline):
    campaign_path = "sheet__character__campaign"
    model = PermanentInjury
    extra = 0
    fields = ("description", "round_key", "created_at")


class HomebrewSheetForm(SheetForm):
    """Every sheet keeps the characteristics' limits of its campaign (mains between
    characteristic_min and characteristic_max, subs 0 to sub_max); a player character's also
    the creation budgets (170 points, subs within the main's tens:
    gamerules.homebrew.characteristics); the GM's creatures may spend any number of points.
    Its weapons and spells are its campaign's, each named with it."""

    class Meta:
        model = HomebrewSheet
        fields = ("character", *CODES, "hp", "hp_max", "mp", "mp_max", "mp_label", "posture",
                  "health", "spared", "dodge_lost_round", "weapons")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "character" in self.fields:
            self.fields["character"].queryset = self.fields["character"].queryset.filter(
                campaign__rule_system=RuleSystem.HOMEBREW).select_related("campaign")
            self.fields["character"].label_from_instance = lambda c: owned_label(c.name,
                                                                                 c.campaign)
        if "mp" in self.fields:  # a spell without MP costs HP (hp_per_missing_mp): MP stop at 0
            self.fields["mp"].validators.append(MinValueValidator(0))
            self.fields["mp"].widget.attrs["min"] = 0
        campaign = self.campaign
        weapons = WeaponTemplate.objects.select_related("campaign")
        self.fields["weapons"].queryset = (weapons.filter(campaign=campaign) if campaign
                                           else weapons.filter(campaign__rule_system=SYSTEM))
        self.fields["weapons"].label_from_instance = lambda w: owned_label(w, w.campaign)
        if campaign is not None and not self.instance.pk:
            # A new sheet: the campaign's maxima and characteristics its rules take (not the
            # model's 170-point spread, which another budget or cap refuses).
            params = campaign.parameters
            for name, value in (("hp", params.hp_max_default), ("hp_max", params.hp_max_default),
                                ("mp", params.mp_max_default), ("mp_max", params.mp_max_default),
                                *suggested_sheet(params).items()):
                self.initial.setdefault(name, value)

    def clean(self):
        data = super().clean()
        for now, most in (("hp", "hp_max"), ("mp", "mp_max")):  # a gauge past its maximum
            if None not in (data.get(now), data.get(most)) and data[now] > data[most]:
                self.add_error(now, _("At most the maximum (%(most)s).") % {"most": data[most]})
        character = data.get("character") or self.character
        if character is None or not character.campaign_id:
            return data
        for weapon in data.get("weapons") or ():
            if weapon.campaign_id != character.campaign_id:
                self.add_error("weapons", _("%(weapon)s belongs to another campaign.")
                               % {"weapon": weapon.name})
        if any(data.get(code) is None for code in CODES) or character.campaign.rule_system != SYSTEM:
            return data
        try:
            validate_characteristics({c: data[c] for c in CODES}, character.campaign.parameters,
                                     budgets=character.is_player)
        except CharacteristicsError as exc:
            for problem in exc.problems:
                field = problem.field if problem.field in self.fields else None
                self.add_error(field, ValidationError(problem.render(gettext),
                                                      code=problem.code))
        return data


class HomebrewSheetInline(CampaignScopedInline, admin.StackedInline):
    campaign_path = "character__campaign"
    """The character's sheet on its page; left as it is on an add page, the character gets the
    default sheet with the campaign's maxima (homebrew.services.sheet_default). Injuries and
    rests: the sheet's own page (its link)."""

    model = HomebrewSheet
    form = HomebrewSheetForm
    formset = SheetFormSet
    fields = (*CODES, ("hp", "hp_max"), ("mp", "mp_max"), "mp_label", "posture", "health",
              "spared", "dodge_lost_round", "weapons")
    filter_horizontal = ("weapons",)
    extra = 1
    max_num = 1
    can_delete = False
    show_change_link = True
    verbose_name_plural = _("Homebrew sheet (left as it is: the defaults)")


class HomebrewCharacterAdmin(SystemCharacterAdmin):
    """A homebrew d100 character: who plays it, and its sheet."""

    rule_system = SYSTEM
    fields = ("campaign", "kind", "owner", "name")
    kinds = (Character.Kind.PLAYER, Character.Kind.CREATURE)
    inlines = (HomebrewSheetInline,)


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
class HomebrewSheetAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    campaign_path = "character__campaign"
    form = HomebrewSheetForm
    list_display = ("character", "physique", "perception", "mental", "hp", "hp_max", "mp",
                    "mp_max", "posture", "health")
    list_filter = ("character__campaign", "health", "posture")
    list_select_related = ("character",)
    search_fields = ("character__name",)
    filter_horizontal = ("weapons",)
    inlines = (PermanentInjuryInline,)
    actions = (short_rest, medium_rest, long_rest)

    def get_readonly_fields(self, request, obj=None):
        return ["character"] if obj is not None else []

    def save_model(self, request, obj, form, change):
        if change:  # its encounters' open pages show the gauges (locked before the sheet)
            characters_changed([obj.pk])
        super().save_model(request, obj, form, change)
