"""The encounters in the admin, read mostly: the game master runs them from the control page
(every change there goes through encounters.services, which locks and versions them)."""

from django.contrib import admin

from encounters.models import Combatant, Encounter, EncounterEffect, PendingReaction


class CombatantInline(admin.TabularInline):
    model = Combatant
    fk_name = "encounter"
    extra = 0
    fields = ("name", "character", "rank", "initiative", "tiebreak", "tie", "turns_per_round",
              "surprised", "hidden", "defeated", "removed")
    readonly_fields = ("rank", "tie")
    raw_id_fields = ("character",)


@admin.register(Encounter)
class EncounterAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "state", "round", "version")
    list_filter = ("state",)
    fields = ("campaign", "name", "actions_per_turn", "skip_defeated",
              "reaction_timeout_seconds", "state", "round", "turn_serial", "version")
    readonly_fields = ("state", "round", "turn_serial", "version")
    inlines = [CombatantInline]


@admin.register(PendingReaction)
class PendingReactionAdmin(admin.ModelAdmin):
    list_display = ("encounter", "actor", "target", "status", "choice", "deadline")
    list_filter = ("status",)
    readonly_fields = [f.name for f in PendingReaction._meta.fields]

    def has_add_permission(self, request):
        return False  # made by a system's action only (encounters.services.request_reaction)


admin.site.register(EncounterEffect)
