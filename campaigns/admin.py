from django.contrib import admin
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from campaigns.models import ActionRecord, Board, Campaign, RollRecord


class BoardInline(admin.StackedInline):
    model = Board
    extra = 0
    max_num = 1


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "rule_system", "game_master", "is_open", "created_at"]
    list_filter = ["rule_system", "is_open"]
    search_fields = ["name", "description"]
    inlines = [BoardInline]
    readonly_fields = ["parameter_reference"]
    fields = ["name", "description", "rule_system", "game_master", "is_open", "rule_parameters",
              "parameter_reference"]

    @admin.display(description=_("parameters and defaults"))
    def parameter_reference(self, obj):
        cls = rule_systems.PARAMETERS.get(obj.rule_system if obj else "ew1")
        if cls is None:
            return "-"
        rows = cls.describe()
        return format_html_join(
            "\n", "<div><code>{}</code> = {} ({} to {}): {}</div>",
            ((r["name"], r["default"], r["low"], r["high"], r["help"]) for r in rows))


class RollInline(admin.TabularInline):
    model = RollRecord
    extra = 0
    can_delete = False
    fields = ["label", "actor", "expression", "faces", "total", "target_score", "success",
              "modifiers"]
    readonly_fields = fields


@admin.register(ActionRecord)
class ActionRecordAdmin(admin.ModelAdmin):
    list_display = ["created_at", "campaign", "kind", "actor", "target", "pa_spent"]
    list_filter = ["campaign", "kind"]
    search_fields = ["actor__name", "target__name"]
    list_select_related = ["campaign", "actor", "target"]
    inlines = [RollInline]
    readonly_fields = ["campaign", "user", "actor", "target", "kind", "pa_spent", "summary",
                       "created_at"]

    def has_add_permission(self, request):
        return False
