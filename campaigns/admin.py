from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from campaigns.forms import CampaignAdminForm
from campaigns.models import ActionRecord, Board, Campaign, RollRecord


class BoardInline(admin.StackedInline):
    model = Board
    extra = 0
    max_num = 1


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    form = CampaignAdminForm
    list_display = ["name", "rule_system", "game_master", "is_open", "created_at"]
    list_filter = ["rule_system", "is_open"]
    search_fields = ["name", "description"]
    inlines = [BoardInline]

    def get_fieldsets(self, request, obj=None):
        form = self.get_form(request, obj, fields=None)(instance=obj)
        return [
            (None, {"fields": ["name", "description", "rule_system", "game_master", "is_open"]}),
            (_("Rule parameters"), {
                "fields": form.parameter_names(),
                "description": _("Each number of the rules, with its default and bounds "
                                 "(docs/rules/). Save after changing the rule system to see "
                                 "its parameters.")}),
        ]

    def get_form(self, request, obj=None, **kwargs):
        kwargs["fields"] = None  # the parameter fields are made by the form itself
        return super().get_form(request, obj, **kwargs)


class RollInline(admin.TabularInline):
    model = RollRecord
    extra = 0
    can_delete = False
    fields = readonly_fields = ("label", "actor", "expression", "faces", "total", "target_score",
                                "grade", "modifiers")


@admin.register(ActionRecord)
class ActionRecordAdmin(admin.ModelAdmin):
    list_display = ["created_at", "campaign", "kind", "actor", "target", "cost"]
    list_filter = ["campaign", "kind"]
    search_fields = ["actor__name", "target__name"]
    list_select_related = ["campaign", "actor", "target"]
    inlines = [RollInline]
    readonly_fields = ["campaign", "user", "actor", "target", "kind", "cost", "summary",
                       "created_at"]

    def has_add_permission(self, request):
        return False
