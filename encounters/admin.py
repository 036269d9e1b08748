"""The encounters in the admin, read mostly: the game master runs them from the control page
(every change there goes through encounters.services, which locks and versions them)."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from campaigns.admin_scope import CampaignScopedAdmin, CampaignScopedInline
from campaigns.models import Campaign
from characters.admin import owned_label
from encounters.models import (DEFAULT_REACTION_TIMEOUT, Combatant, Encounter, EncounterEffect,
                               PendingReaction)
from encounters.services import encounter_touch


class CombatantInline(CampaignScopedInline, admin.TabularInline):
    campaign_path = "encounter__campaign"
    model = Combatant
    fk_name = "encounter"
    extra = 0
    fields = ("name", "character", "rank", "initiative", "tiebreak", "tie", "turns_per_round",
              "surprised", "hidden", "defeated", "removed")
    readonly_fields = ("rank", "tie")
    raw_id_fields = ("character",)


class EncounterForm(forms.ModelForm):
    """An encounter of a campaign whose system plays turn-based encounters (Encounter.clean).
    A new one left without a time to react takes its campaign's (``reaction_timeout_seconds``
    when its system has that parameter), as one opened from the encounters page does."""

    class Meta:
        model = Encounter
        fields = ("campaign", "name", "state", "order_mode", "round", "turn_serial", "current",
                  "current_phase", "turn_actions", "actions_per_turn", "skip_defeated",
                  "reaction_timeout_seconds", "reaction_deadline", "version")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "campaign" in self.fields:
            codes = [s.code for s in rule_systems.registered()
                     if s.play_mode == rule_systems.ENCOUNTER]
            self.fields["campaign"].queryset = Campaign.objects.filter(rule_system__in=codes)
        timeout = self.fields.get("reaction_timeout_seconds")
        if timeout is not None and self.instance.pk is None:
            timeout.required = False
            timeout.initial = None
            timeout.help_text = _("After this, a reaction prompt counts as no reaction. Empty: "
                                  "the campaign's rule parameter (30 s when it has none).")

    def clean(self):
        data = super().clean()
        campaign = data.get("campaign")
        if self.instance.pk is None and data.get("reaction_timeout_seconds") is None:
            chosen = getattr(campaign.parameters, "reaction_timeout_seconds", None) \
                if campaign is not None else None
            data["reaction_timeout_seconds"] = chosen or DEFAULT_REACTION_TIMEOUT
        return data


@admin.register(Encounter)
class EncounterAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    form = EncounterForm
    list_display = ("name", "campaign", "state", "round", "version")
    list_filter = ("state",)
    fields = ("campaign", "name", "actions_per_turn", "skip_defeated",
              "reaction_timeout_seconds", "players_may_join", "state", "round", "turn_serial", "version")
    readonly_fields = ("state", "round", "turn_serial", "version")
    inlines = (CombatantInline,)

    def save_model(self, request, obj, form, change):
        if change:  # locked and versioned on from the stored number: the open pages refresh
            obj.version = encounter_touch(encounter_id=obj.pk).version
        super().save_model(request, obj, form, change)


@admin.register(PendingReaction)
class PendingReactionAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    campaign_path = "encounter__campaign"
    list_display = ("encounter", "actor", "target", "status", "choice", "deadline")
    list_filter = ("status",)
    readonly_fields = tuple(f.name for f in PendingReaction._meta.fields)

    def has_add_permission(self, request):
        return False  # made by a system's action only (encounters.services.request_reaction)


class EncounterEffectForm(forms.ModelForm):
    """An effect on combatants of its encounter (EncounterEffect.clean), each named with it."""

    class Meta:
        model = EncounterEffect
        fields = ("encounter", "name", "bearer", "anchor", "edge", "rounds", "created_round", "expires_round",
                  "expired_round")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        encounter_id = self.instance.encounter_id
        for name in ("bearer", "anchor"):
            rows = Combatant.objects.select_related("encounter")
            self.fields[name].queryset = (rows.filter(encounter_id=encounter_id) if encounter_id
                                          else rows)
            self.fields[name].label_from_instance = lambda c: owned_label(c.name, c.encounter)


@admin.register(EncounterEffect)
class EncounterEffectAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    campaign_path = "encounter__campaign"
    form = EncounterEffectForm
    list_display = ("name", "encounter", "bearer", "rounds", "expires_round")
    list_select_related = ("encounter", "bearer")
