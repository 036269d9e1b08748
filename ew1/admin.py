"""Eternal War One II in the admin: the sheet inline of a character (with PA and PV as they are
now), the item catalogue and the items characters own."""

from datetime import datetime
from datetime import timezone as dt_timezone

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from characters.models import Character
from ew1.equipment import item_grant
from ew1.labels import SKILLS as SKILL_LABELS
from ew1.models import EternalWarSheet, ItemInstance, ItemModifier, ItemTemplate
from ew1.regeneration import sheet_refresh, unix
from ew1.sheets import sheet_defaults
from gamerules.ew1.skills import SKILLS

CHARACTERISTICS = ("FOR", "DEF", "TAI", "INT", "DEX", "LUK")
# Fields a blank value of which takes the kind's default (ew1.sheets.sheet_defaults).
DEFAULTED = (*CHARACTERISTICS, "level", "xp", "pa_max", "pv_max", "skill_points",
             "characteristic_points", "fixed_reduction")


class EternalWarSheetForm(forms.ModelForm):
    """The game master's sheet form: one field per skill, and PA and PV as they are *now*.

    A blank field takes the default of the character's kind (ew1.sheets). PA and PV are
    stored with a regeneration anchor (Unix seconds): the form shows what the character has now
    and, when the game master changes it, stores that value anchored at now; left as it is,
    the stored value and anchor are kept (no regeneration lost)."""

    # show_hidden_initial: "changed" is judged against what the game master saw, not against
    # the values recomputed at the POST (a spend or a PA regained meanwhile is not a change).
    pa_now = forms.DecimalField(label=_("PA now"), required=False, min_value=0, max_digits=6,
                                decimal_places=1, show_hidden_initial=True,
                                help_text=_("Changing it sets the PA to this value from now on."))
    # The bounds of the PV column (a signed 32-bit integer on PostgreSQL): past them the save
    # would fail in the database (500) instead of here.
    pv_now = forms.IntegerField(label=_("PV now"), required=False, min_value=-2**31,
                                max_value=2**31 - 1, show_hidden_initial=True,
                                help_text=_("Changing it sets the PV to this value from now on; "
                                            "below 0 the character is disincarnated."))

    class Meta:
        model = EternalWarSheet
        fields = [*CHARACTERISTICS, "level", "xp", "pa_max", "pv_max", "skill_points",
                  "characteristic_points", "fixed_reduction"]

    def __init__(self, *args, character: Character | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if character is None and self.instance.pk:
            character = self.instance.character
        self.character = character  # the parent, unsaved on an add page
        for name in DEFAULTED:
            self.fields[name].required = False
        stored = self.instance.skills if self.instance.pk else {}
        self.missing_skills = bool(self.instance.pk) and any(s.code not in stored
                                                              for s in SKILLS)
        if self.missing_skills:  # an older sheet: show the kind's defaults for what it lacks
            character = self.instance.character  # the branch of a saved sheet
            stored = {**sheet_defaults(kind=character.kind, params=character.campaign.parameters,
                                       level=self.instance.level)["skills"], **stored}
        for skill in SKILLS:
            self.fields[f"skill_{skill.code}"].initial = stored.get(skill.code)
        self.now = timezone.now()
        if self.instance.pk:
            current = EternalWarSheet(pa=self.instance.pa, pa_max=self.instance.pa_max,
                                      pa_anchor=self.instance.pa_anchor, pv=self.instance.pv,
                                      pv_max=self.instance.pv_max,
                                      pv_anchor=self.instance.pv_anchor)
            sheet_refresh(current, params=self.instance.character.campaign.parameters,
                          now=self.now)
            self.fields["pa_now"].initial = current.pa
            self.fields["pv_now"].initial = current.pv

    def has_changed(self) -> bool:
        # A sheet that lacks skills is saved even when untouched, so that it gets them all.
        return super().has_changed() or self.missing_skills

    def _post_clean(self):
        character = self.character
        params = character.campaign.parameters if character and character.campaign_id else None
        if params is not None and character.kind:
            defaults = sheet_defaults(kind=character.kind, params=params,
                                      level=self.cleaned_data.get("level") or 0)
            for name in DEFAULTED:
                if self.cleaned_data.get(name) is None and name in self.cleaned_data:
                    self.cleaned_data[name] = defaults[name]
            skills = dict(self.instance.skills or {}) if self.instance.pk else {}
            for skill in SKILLS:
                value = self.cleaned_data.get(f"skill_{skill.code}")
                skills[skill.code] = value if value is not None else skills.get(
                    skill.code, defaults["skills"][skill.code])
            self.instance.skills = skills
            ts = unix(self.now)
            for field, key in (("pa_now", "pa"), ("pv_now", "pv")):
                value = self.cleaned_data.get(field)
                if self.instance.pk and field not in self.changed_data:
                    continue  # unchanged: keep the stored value and its anchor
                if value is None:
                    value = defaults[key] if not self.instance.pk else getattr(self.instance, key)
                setattr(self.instance, key, value)
                setattr(self.instance, f"{key}_anchor", ts)
        super()._post_clean()


for _skill in SKILLS:  # one field per skill (seed 000, "Compétences de base"), 0-100
    EternalWarSheetForm.base_fields[f"skill_{_skill.code}"] = \
        EternalWarSheetForm.declared_fields[f"skill_{_skill.code}"] = forms.IntegerField(
            label=SKILL_LABELS.get(_skill.code, _skill.label), required=False, min_value=0, max_value=100,
            help_text=_("Empty: the default for the kind."))


def _anchor_display(seconds: int | None) -> str:
    if seconds is None:
        return "-"
    moment = datetime.fromtimestamp(seconds, tz=dt_timezone.utc)
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


class EternalWarSheetFormSet(BaseInlineFormSet):
    """Gives each sheet form its character (the parent form's instance)."""

    def get_form_kwargs(self, index):
        return {**super().get_form_kwargs(index), "character": self.instance}


class EternalWarSheetInline(admin.StackedInline):
    """The sheet is always there: a character saved without one gets the default sheet of its
    kind (CharacterAdmin.save_related), and it cannot be deleted from here."""

    model = EternalWarSheet
    form = EternalWarSheetForm
    formset = EternalWarSheetFormSet
    extra = 1
    max_num = 1
    can_delete = False
    readonly_fields = ["pa_counted_at", "pv_counted_at"]
    verbose_name_plural = _("Eternal War One II sheet (left empty: the defaults of the kind)")

    def get_fieldsets(self, request, obj=None):
        skills = [f"skill_{s.code}" for s in SKILLS]
        return [
            (None, {"fields": [list(CHARACTERISTICS), ("level", "xp"),
                               ("skill_points", "characteristic_points"), "fixed_reduction"]}),
            (_("Skills"), {"fields": skills}),
            (_("PA and PV"), {"fields": [("pa_now", "pa_max", "pa_counted_at"),
                                         ("pv_now", "pv_max", "pv_counted_at")]}),
        ]

    @admin.display(description=_("PA counted at"))
    def pa_counted_at(self, sheet) -> str:
        return _anchor_display(sheet.pa_anchor if sheet.pk else None)

    @admin.display(description=_("PV counted at"))
    def pv_counted_at(self, sheet) -> str:
        return _anchor_display(sheet.pv_anchor if sheet.pk else None)


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
    """Granting an item here rolls its modifier dice once (ew1.equipment.item_grant)."""

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

    def get_queryset(self, request):
        # Each row shows "template (owner)": one query for all, not two per item.
        return super().get_queryset(request).select_related("template", "owner")


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
