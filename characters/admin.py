from django.contrib import admin

from characters.models import Character, EternalWarSheet, ItemModifier, ItemTemplate


class EternalWarSheetInline(admin.StackedInline):
    model = EternalWarSheet
    extra = 0
    max_num = 1


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "owner", "board", "x", "y", "kills", "deaths",
                    "last_action_at"]
    list_filter = ["campaign"]
    search_fields = ["name", "owner__username"]
    list_select_related = ["campaign", "owner", "board__campaign"]
    inlines = [EternalWarSheetInline]


class ItemModifierInline(admin.TabularInline):
    model = ItemModifier
    extra = 1


@admin.register(ItemTemplate)
class ItemTemplateAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "category", "damage_dice", "weapon_skill", "armour",
                    "campaign"]
    list_filter = ["kind", "category", "campaign"]
    search_fields = ["name", "description"]
    inlines = [ItemModifierInline]
