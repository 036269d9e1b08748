from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaigns.admin_scope import CampaignScopedAdmin
from campaigns.resources import CatalogueAdminMixin
from campaigns.messages import error_message
from campaigns.models import Board, Campaign
from characters.admin import owned_label
from ew1.models import SYSTEM
from magic.errors import SpellAlreadyKnown, SpellbookFull, SpellUnknown
from magic import resources
from magic.models import ActiveEffect, KnownSpell, Scroll, Spell, SpellOffer
from magic.spellbook import spell_grant, spell_grant_check


class SpellForm(forms.ModelForm):
    """A spell of an EW1 campaign's catalogue, or of every EW1 campaign (Spell.clean)."""

    class Meta:
        model = Spell
        fields = ("campaign", "name", "tier", "effect", "dice", "range_cells", "zone_radius", "reach",
                  "duration_hours", "learnable")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "campaign" in self.fields:  # not on a view-only page (no field at all)
            self.fields["campaign"].queryset = Campaign.objects.filter(rule_system=SYSTEM)


@admin.register(Spell)
class SpellAdmin(CampaignScopedAdmin, CatalogueAdminMixin, admin.ModelAdmin):
    resource_classes = (resources.SpellResource,)
    shared_rows = True  # a spell of every EW1 campaign: read-only for a game master
    form = SpellForm
    list_display = ("name", "tier", "effect", "dice", "range_cells", "zone_radius", "reach",
                    "duration_hours", "learnable", "campaign")
    list_filter = ("tier", "effect", "reach", "learnable", "campaign")
    search_fields = ("name",)


class KnownSpellForm(forms.ModelForm):
    """The game master grants a spell: the spellbook's limits apply (magic.spellbook)."""

    class Meta:
        model = KnownSpell
        fields = ("character", "spell")

    def clean(self):
        cleaned = super().clean()
        character, spell = cleaned.get("character"), cleaned.get("spell")
        if character and spell and not self.errors:
            try:
                spell_grant_check(character=character, spell=spell)
            except (SpellAlreadyKnown, SpellbookFull, SpellUnknown) as exc:
                self.add_error("spell", ValidationError(error_message(exc), code=exc.code))
        return cleaned


@admin.register(KnownSpell)
class KnownSpellAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    campaign_path = "character__campaign"
    form = KnownSpellForm
    list_display = ("spell", "character", "source", "learned_at")
    list_filter = ("source", "character__campaign")
    search_fields = ("spell__name", "character__name")
    list_select_related = ("spell", "character")
    autocomplete_fields = ("character", "spell")

    def get_readonly_fields(self, request, obj=None):
        # A spell once granted stays what it is: to change it, delete it and grant another.
        return ["character", "spell", "source", "learned_at"] if obj is not None else []

    def save_model(self, request, obj, form, change):
        if change:
            return super().save_model(request, obj, form, change)
        granted = spell_grant(character=obj.character, spell=obj.spell,
                              source=KnownSpell.Source.GRANTED)
        obj.pk, obj.source, obj.learned_at = granted.pk, granted.source, granted.learned_at


@admin.register(SpellOffer)
class SpellOfferAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    campaign_path = "character__campaign"
    list_display = ("character", "level", "chosen", "resolved_at", "created_at")
    list_filter = ("character__campaign",)
    search_fields = ("character__name",)
    readonly_fields = ("character", "level", "spells", "chosen", "resolved_at", "created_at")

    def has_add_permission(self, request):
        return False


@admin.register(ActiveEffect)
class ActiveEffectAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    campaign_path = "target__campaign"
    list_display = ("spell", "target", "caster", "amount", "expires_at")
    list_filter = ("spell",)
    search_fields = ("target__name", "spell__name")
    list_select_related = ("spell", "target", "caster")


class ScrollForm(forms.ModelForm):
    """A scroll on an EW1 board's cell, of a spell of its campaign (Scroll.clean)."""

    class Meta:
        model = Scroll
        fields = ("board", "x", "y", "spell")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["board"].queryset = Board.objects.filter(
            campaign__rule_system=SYSTEM).select_related("campaign")
        self.fields["spell"].queryset = Spell.objects.filter(
            Q(campaign__isnull=True) | Q(campaign__rule_system=SYSTEM)).select_related("campaign")
        self.fields["spell"].label_from_instance = lambda s: owned_label(
            s.name, s.campaign or _("every campaign"))


@admin.register(Scroll)
class ScrollAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    campaign_path = "board__campaign"
    """Place a scroll on a board cell: the first character to step on it learns the spell."""

    form = ScrollForm

    list_display = ("spell", "board", "x", "y")
    list_filter = ("board",)
    search_fields = ("spell__name",)
