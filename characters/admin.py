from django.contrib import admin

from campaigns import rule_systems
from characters.models import Character


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "campaign", "owner", "board", "x", "y", "kills", "deaths",
                    "last_action_at"]
    list_filter = ["campaign", "kind"]
    search_fields = ["name", "owner__username"]
    list_select_related = ["campaign", "owner", "board__campaign"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("campaign")  # its rule system

    def get_inlines(self, request, obj):
        """The inlines of the character's rule system (RuleSystemSpec.admin_inlines); on the
        add page, those of every registered system (the campaign is not chosen yet)."""
        spec = rule_systems.get(obj.campaign.rule_system) if obj is not None else None
        specs = [spec] if spec is not None else rule_systems.registered()
        return list(dict.fromkeys(inline for s in specs for inline in s.inlines()))

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        spec = rule_systems.get(form.instance.campaign.rule_system)
        if spec is not None and spec.new_sheet is not None:
            spec.new_sheet(form.instance)  # never a character without its sheet
