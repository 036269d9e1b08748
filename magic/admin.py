from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from campaigns.messages import error_message
from magic.errors import SpellAlreadyKnown, SpellbookFull, SpellUnknown
from magic.models import ActiveEffect, KnownSpell, Scroll, Spell, SpellOffer
from magic.spellbook import spell_grant, spell_grant_check


@admin.register(Spell)
class SpellAdmin(admin.ModelAdmin):
    list_display = ["name", "tier", "effect", "dice", "range_cells", "zone_radius", "reach",
                    "duration_hours", "learnable", "campaign"]
    list_filter = ["tier", "effect", "reach", "learnable", "campaign"]
    search_fields = ["name"]


class KnownSpellForm(forms.ModelForm):
    """The game master grants a spell: the spellbook's limits apply (magic.spellbook)."""

    class Meta:
        model = KnownSpell
        fields = ["character", "spell"]

    def clean(self):
        cleaned = super().clean()
        character, spell = cleaned.get("character"), cleaned.get("spell")
        if character and spell and not self.errors:
            try:
                spell_grant_check(character=character, spell=spell)
            except (SpellAlreadyKnown, SpellbookFull, SpellUnknown) as exc:
                raise ValidationError(error_message(exc)) from None
        return cleaned


@admin.register(KnownSpell)
class KnownSpellAdmin(admin.ModelAdmin):
    form = KnownSpellForm
    list_display = ["spell", "character", "source", "learned_at"]
    list_filter = ["source", "character__campaign"]
    search_fields = ["spell__name", "character__name"]
    list_select_related = ["spell", "character"]
    autocomplete_fields = ["character", "spell"]

    def save_model(self, request, obj, form, change):
        granted = spell_grant(character=obj.character, spell=obj.spell,
                              source=KnownSpell.Source.GRANTED)
        obj.pk, obj.source, obj.learned_at = granted.pk, granted.source, granted.learned_at


@admin.register(SpellOffer)
class SpellOfferAdmin(admin.ModelAdmin):
    list_display = ["character", "level", "chosen", "resolved_at", "created_at"]
    list_filter = ["character__campaign"]
    search_fields = ["character__name"]
    readonly_fields = ["character", "level", "spells", "chosen", "resolved_at", "created_at"]

    def has_add_permission(self, request):
        return False


@admin.register(ActiveEffect)
class ActiveEffectAdmin(admin.ModelAdmin):
    list_display = ["spell", "target", "caster", "amount", "expires_at"]
    list_filter = ["spell"]
    search_fields = ["target__name", "spell__name"]
    list_select_related = ["spell", "target", "caster"]


@admin.register(Scroll)
class ScrollAdmin(admin.ModelAdmin):
    """Place a scroll on a board cell: the first character to step on it learns the spell."""

    list_display = ["spell", "board", "x", "y"]
    list_filter = ["board"]
    search_fields = ["spell__name"]
