from django.contrib import admin

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from characters.equipment import item_grant
from characters.models import Character, EternalWarSheet, ItemInstance, ItemModifier, ItemTemplate


class EternalWarSheetInline(admin.StackedInline):
    model = EternalWarSheet
    extra = 0
    max_num = 1


class ItemInstanceForm(forms.ModelForm):
    class Meta:
        model = ItemInstance
        fields = ["owner", "template", "equipped"]

    def clean(self):
        cleaned = super().clean()
        owner, template = cleaned.get("owner"), cleaned.get("template")
        if owner and template and template.campaign_id not in (None, owner.campaign_id):
            raise ValidationError(_("This item belongs to another campaign."))
        return cleaned


@admin.register(ItemInstance)
class ItemInstanceAdmin(admin.ModelAdmin):
    """Granting an item here rolls its modifier dice once (characters.equipment.item_grant)."""

    form = ItemInstanceForm

    list_display = ["template", "owner", "equipped", "modifier_values", "created_at"]
    list_filter = ["equipped", "template__kind", "template__category", "owner__campaign"]
    search_fields = ["template__name", "owner__name"]
    list_select_related = ["template", "owner"]
    autocomplete_fields = ["owner", "template"]
    readonly_fields = ["modifier_values"]

    def save_model(self, request, obj, form, change):
        if change:
            return super().save_model(request, obj, form, change)
        granted = item_grant(character=obj.owner, template=obj.template, user=request.user)
        if obj.equipped:
            ItemInstance.objects.filter(pk=granted.pk).update(equipped=True)
        obj.pk, obj.modifier_values = granted.pk, granted.modifier_values


class ItemInstanceInline(admin.TabularInline):
    model = ItemInstance
    extra = 0
    fields = ["template", "equipped", "modifier_values"]
    readonly_fields = ["template", "modifier_values"]
    can_delete = True
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False  # grant items from the item admin, which rolls their modifiers


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "campaign", "owner", "board", "x", "y", "kills", "deaths",
                    "last_action_at"]
    list_filter = ["campaign", "kind"]
    search_fields = ["name", "owner__username"]
    list_select_related = ["campaign", "owner", "board__campaign"]
    inlines = [EternalWarSheetInline, ItemInstanceInline]


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
