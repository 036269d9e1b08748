from django.contrib import admin

from characters.models import Character
from ew1.admin import EternalWarSheetInline, ItemInstanceInline
from ew1.sheets import sheet_ensure


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "campaign", "owner", "board", "x", "y", "kills", "deaths",
                    "last_action_at"]
    list_filter = ["campaign", "kind"]
    search_fields = ["name", "owner__username"]
    list_select_related = ["campaign", "owner", "board__campaign"]
    inlines = [EternalWarSheetInline, ItemInstanceInline]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        sheet_ensure(character=form.instance)  # never a character without its sheet
