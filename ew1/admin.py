"""Eternal War One II in the admin: its character admin (the board's cell, the suicide's
fields, the sheet inline with PA and PV as they are now, the items owned), the item catalogue
and the items characters own. Every form is checked by the rules: the piece on its campaign's
board and a free cell (ew1.selectors.cell_problems), the sheet within its limits
(gamerules.ew1.sheet_limits, with the campaign's parameters), items and spells of EW1
campaigns only (the models' clean())."""

from datetime import datetime
from datetime import UTC

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from campaigns.admin_scope import CampaignScopedAdmin, CampaignScopedInline
from campaigns.resources import CatalogueAdminMixin
from campaigns.messages import error_message
from campaigns.numbers import whole_number
from campaigns.models import Campaign
from characters.admin import SheetFormSet, SystemCharacterAdmin
from characters.models import Character
from ew1.equipment import item_grant
from ew1.labels import SKILLS as SKILL_LABELS
from ew1 import resources
from ew1.models import SYSTEM, EternalWarSheet, ItemInstance, ItemModifier, ItemTemplate
from ew1.regeneration import sheet_refresh, unix
from ew1.selectors import cell_problems
from ew1.sheets import sheet_defaults
from gamerules.ew1.sheet_limits import sheet_problems
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
        fields = (*CHARACTERISTICS, "level", "xp", "pa_max", "pv_max", "skill_points",
                  "characteristic_points", "fixed_reduction")

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
            self._check_limits(character, params)
        super()._post_clean()

    def _check_limits(self, character: Character, params) -> None:
        """The sheet within the rules' limits (gamerules.ew1.sheet_limits) for its kind and
        the campaign's parameters; each problem under its field."""
        data, sheet = self.cleaned_data, self.instance
        needed = ("level", "pa_max", "pv_max", *CHARACTERISTICS[:-1])
        if any(data.get(name) is None for name in needed) or None in (sheet.pa, sheet.pv):
            return  # a field's own error is shown
        problems = sheet_problems(
            player=character.is_player, characteristics={c: data.get(c) for c in CHARACTERISTICS},
            skills=sheet.skills or {}, level=data["level"], pa=sheet.pa, pa_max=data["pa_max"],
            pv=sheet.pv, pv_max=data["pv_max"], fixed_reduction=data.get("fixed_reduction"),
            params=params)
        for name, exc in problems.items():
            field = {"pa": "pa_now", "pv": "pv_now"}.get(name, name)
            if field not in self.fields:
                field = f"skill_{name}"
            self.add_error(field, ValidationError(error_message(exc), code=exc.code))


for _skill in SKILLS:  # one field per skill (seed 000, "Compétences de base"), 0-100
    EternalWarSheetForm.base_fields[f"skill_{_skill.code}"] = \
        EternalWarSheetForm.declared_fields[f"skill_{_skill.code}"] = forms.IntegerField(
            label=SKILL_LABELS.get(_skill.code, _skill.label), required=False, min_value=0, max_value=100,
            help_text=_("Empty: the default for the kind."))


def _anchor_display(seconds: int | None) -> str:
    if seconds is None:
        return "-"
    moment = datetime.fromtimestamp(seconds, tz=UTC)
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


class EternalWarSheetInline(CampaignScopedInline, admin.StackedInline):
    campaign_path = "character__campaign"
    """The sheet is always there: a character saved without one gets the default sheet of its
    kind (SystemCharacterAdmin.save_related), and it cannot be deleted from here."""

    model = EternalWarSheet
    form = EternalWarSheetForm
    formset = SheetFormSet
    extra = 1
    max_num = 1
    can_delete = False
    readonly_fields = ("pa_counted_at", "pv_counted_at")
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
    """An EW1 character's item, from its campaign's catalogue or the shared one
    (ItemInstance.clean)."""

    class Meta:
        model = ItemInstance
        fields = ("owner", "template", "equipped")


@admin.register(ItemInstance)
class ItemInstanceAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    campaign_path = "owner__campaign"
    """Granting an item here rolls its modifier dice once (ew1.equipment.item_grant)."""

    form = ItemInstanceForm

    list_display = ("template", "owner", "equipped", "modifier_values", "created_at")
    list_filter = ("equipped", "template__kind", "template__category", "owner__campaign")
    search_fields = ("template__name", "owner__name")
    list_select_related = ("template", "owner")
    autocomplete_fields = ("owner", "template")
    readonly_fields = ("modifier_values",)

    def save_model(self, request, obj, form, change):
        if change:
            return super().save_model(request, obj, form, change)
        granted = item_grant(character=obj.owner, template=obj.template, user=request.user)
        if obj.equipped:
            ItemInstance.objects.filter(pk=granted.pk).update(equipped=True)
        obj.pk, obj.modifier_values = granted.pk, granted.modifier_values


class ItemInstanceInline(CampaignScopedInline, admin.TabularInline):
    campaign_path = "owner__campaign"
    model = ItemInstance
    extra = 0
    fields = ("template", "equipped", "modifier_values")
    readonly_fields = ("template", "modifier_values")
    can_delete = True
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False  # grant items from the item admin, which rolls their modifiers

    def get_queryset(self, request):
        # Each row shows "template (owner)": one query for all, not two per item.
        return super().get_queryset(request).select_related("template", "owner")


class ItemModifierInline(CampaignScopedInline, admin.TabularInline):
    campaign_path = "template__campaign"
    shared_rows = True
    model = ItemModifier
    extra = 1


class ItemTemplateForm(forms.ModelForm):
    class Meta:
        model = ItemTemplate
        fields = ("campaign", "name", "kind", "category", "description", "damage_dice", "weapon_skill",
                  "range_cells", "armour", "heal_dice")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "campaign" in self.fields:  # not on a view-only page (no field at all)
            self.fields["campaign"].queryset = ew1_campaigns()


def ew1_campaigns():
    """The campaigns an EW1 row may belong to."""
    return Campaign.objects.filter(rule_system=SYSTEM)


@admin.register(ItemTemplate)
class ItemTemplateAdmin(CampaignScopedAdmin, CatalogueAdminMixin, admin.ModelAdmin):
    resource_classes = (resources.ItemTemplateResource,)
    shared_rows = True  # an item of every EW1 campaign: read-only for a game master
    form = ItemTemplateForm
    list_display = ("name", "kind", "category", "damage_dice", "weapon_skill", "armour",
                    "campaign")
    list_filter = ("kind", "category", "campaign")
    search_fields = ("name", "description")
    inlines = (ItemModifierInline,)


# --- the EW1 character admin -------------------------------------------------------------------

class EternalWarCharacterForm(forms.ModelForm):
    """A character of an EW1 campaign: on its campaign's board at a free cell, or off the board
    (ew1.selectors.cell_problems, as a move checks it)."""

    class Meta:
        model = Character
        fields = ("campaign", "kind", "owner", "name", "board", "x", "y", "first_action_at",
                  "suicided_at", "reincarnate_asap", "cooldown_notice", "cooldown_notice_at")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "board" in self.fields:
            # The add page's campaign: from its URL (a GET), or the posted field (a refused
            # POST shows the form again, with the campaign's boards only still).
            campaign_id = self.instance.campaign_id or self.initial.get("campaign") or (
                whole_number(str(self.data.get(self.add_prefix("campaign"), "")))
                if self.is_bound else None)
            boards = self.fields["board"].queryset.filter(campaign__rule_system=SYSTEM)
            if campaign_id:
                boards = boards.filter(campaign_id=campaign_id)
            self.fields["board"].queryset = boards.select_related("campaign")

    def clean(self):
        data = super().clean()
        campaign = data.get("campaign") or (self.instance.campaign
                                            if self.instance.campaign_id else None)
        if not any(name in self.errors for name in ("board", "x", "y")):
            problems = cell_problems(campaign_id=campaign.pk if campaign else None,
                                     board=data.get("board"), x=data.get("x"), y=data.get("y"),
                                     character_id=self.instance.pk)
            for name, exc in problems.items():
                self.add_error(name, ValidationError(error_message(exc), code=exc.code))
        return data


class EternalWarCharacterAdmin(SystemCharacterAdmin):
    """An Eternal War One II character: its board cell, the suicide's fields, its sheet (blank
    fields: the kind's defaults) and the items it owns."""

    rule_system = SYSTEM
    form = EternalWarCharacterForm
    inlines = (EternalWarSheetInline, ItemInstanceInline)
    fieldsets = (
        (None, {"fields": ["campaign", "kind", "owner", "name"]}),
        (_("On the board"), {"fields": ["board", ("x", "y"), "first_action_at"],
                             "description": _("Empty board, x and y: off the board.")}),
        (_("Suicide and reincarnation"), {
            "fields": ["suicided_at", "reincarnate_asap", "cooldown_notice",
                       "cooldown_notice_at"], "classes": ["collapse"]}),
    )

