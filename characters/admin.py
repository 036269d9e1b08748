"""One character admin per rule system, behind one address (issue 19, item 4).

The Character admin (``admin:characters_character_*``) lists the characters of every campaign.
Adding one asks for its campaign first (a small form); then, as every change page, it is the
page of the campaign's rule system (``RuleSystemSpec.character_admin``, a
``SystemCharacterAdmin``): only that system's fields and sheet inline, the campaign fixed, the
related choices limited to the campaign and named with their owner. The sheet is made with the
character, from the inline or, when it is left empty, with the kind's defaults
(``RuleSystemSpec.new_sheet``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.forms.models import BaseInlineFormSet
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _

from campaigns import rule_systems
from campaigns.admin_scope import CampaignScopedAdmin, limit_field
from campaigns.messages import error_message
from campaigns.models import Campaign
from campaigns.numbers import whole_number
from characters.models import Character

CAMPAIGN = "campaign"  # the query parameter of the add page that names the chosen campaign


def owned_label(name: Any, owner: Any) -> str:
    """How a choice names its owner: "Fury (Ash)"."""
    return f"{name} ({owner})"


class CampaignChoice(forms.Form):
    """The first step of adding a character: its campaign (each named with its rule system)."""

    campaign = forms.ModelChoiceField(queryset=Campaign.objects.none(), label=_("Campaign"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        codes = [s.code for s in rule_systems.registered() if s.character_admin]
        self.fields["campaign"].queryset = Campaign.objects.filter(rule_system__in=codes)
        self.fields["campaign"].label_from_instance = lambda c: owned_label(
            c.name, c.get_rule_system_display())


class SheetFormSet(BaseInlineFormSet):
    """Gives each sheet form its character (``character=``: the parent form's instance, unsaved
    on an add page), so that its checks read the character's kind and campaign."""

    def get_form_kwargs(self, index):
        return {**super().get_form_kwargs(index), "character": self.instance}


class SheetForm(forms.ModelForm):
    """A sheet inline's form: ``self.character`` is its character (SheetFormSet)."""

    def __init__(self, *args, character: Character | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if character is None and self.instance.pk:
            character = self.instance.character
        self.character = character

    @property
    def campaign(self) -> Campaign | None:
        """The character's campaign, or None while it is not chosen."""
        character = self.character
        return character.campaign if character is not None and character.campaign_id else None


class SystemCharacterAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    """The character admin of one rule system (``rule_system``, its code); subclasses give its
    fields, form and inlines. Reached through CharacterAdmin, never registered itself: its
    queryset holds the system's characters only, its campaign choice the system's campaigns (on
    an add page the campaign chosen, on a change page the character's own: a character does not
    change campaign here, its sheet belongs to its system)."""

    rule_system: str = ""
    kinds: tuple[str, ...] = tuple(Character.Kind.values)  # the kinds the system plays

    def formfield_for_choice_field(self, db_field, request, **kwargs):
        if db_field.name == "kind":
            kwargs["choices"] = [(k, label) for k, label in Character.Kind.choices
                                 if k in self.kinds]
        return super().formfield_for_choice_field(db_field, request, **kwargs)

    def get_queryset(self, request):
        return super().get_queryset(request).filter(
            campaign__rule_system=self.rule_system).select_related("campaign")

    def chosen_campaign(self, request) -> Campaign | None:
        """The campaign an add page is for (``?campaign=``, or the posted field): one the
        user may add to (campaigns.admin_scope)."""
        return _campaign_of(request, self.rule_system, ids=self.campaign_ids(request))

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        campaign = self.chosen_campaign(request)
        if campaign is not None:
            initial[CAMPAIGN] = campaign.pk
        return initial

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        if CAMPAIGN in form.base_fields:
            field = form.base_fields[CAMPAIGN]
            campaign = obj.campaign if obj is not None else self.chosen_campaign(request)
            queryset = Campaign.objects.filter(rule_system=self.rule_system)
            field.queryset = queryset.filter(pk=campaign.pk) if campaign else queryset
        return form

    def get_formset_kwargs(self, request, obj, inline, prefix):
        if obj._state.adding and not obj.campaign_id:  # the sheet reads the campaign's rules
            campaign = self.chosen_campaign(request)
            if campaign is not None:
                obj.campaign = campaign
        return super().get_formset_kwargs(request, obj, inline, prefix)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        spec = rule_systems.get(self.rule_system)
        if spec is not None and spec.new_sheet is not None:
            spec.new_sheet(form.instance)  # the sheet left empty: the defaults of the kind

    def response_add(self, request, obj, post_url_continue=None):
        response = super().response_add(request, obj, post_url_continue)
        if "_addanother" in request.POST:  # another character of the same campaign
            return HttpResponseRedirect(_add_url(obj.campaign_id))
        return response


def _campaign_of(request, rule_system: str | None = None, *,
                 ids: frozenset[int] | None = None) -> Campaign | None:
    """The campaign named by the request (``?campaign=`` or the posted field), of
    ``rule_system`` and among the campaigns ``ids`` (None: any), or None."""
    raw = request.GET.get(CAMPAIGN) or request.POST.get(CAMPAIGN)
    campaign_id = whole_number(str(raw or ""), negative=False)
    if campaign_id is None:  # "²".isdigit() too, and past the column's range (campaigns.numbers)
        return None
    campaigns = Campaign.objects.all()
    if rule_system is not None:
        campaigns = campaigns.filter(rule_system=rule_system)
    if ids is not None:
        campaigns = campaigns.filter(pk__in=ids)
    return campaigns.filter(pk=campaign_id).first()


def _add_url(campaign_id: int) -> str:
    return reverse("admin:characters_character_add") + "?" + urlencode({CAMPAIGN: campaign_id})


@admin.register(Character)
class CharacterAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    """Every campaign's characters; each add and change page is the one of the character's
    rule system (SystemCharacterAdmin), found through the registry."""

    list_display = ("name", "kind", "campaign", "rule_system", "owner", "last_action_at")
    list_filter = ("campaign__rule_system", "campaign", "kind")
    search_fields = ("name", "owner__username")
    list_select_related = ("campaign", "owner")

    @admin.display(description=_("rule system"), ordering="campaign__rule_system")
    def rule_system(self, character) -> str:
        return character.campaign.get_rule_system_display()

    def system_admin(self, code: str) -> SystemCharacterAdmin | None:
        """The character admin of the rule system ``code`` (None: the system has none)."""
        spec = rule_systems.get(code)
        cls = spec.character_admin_class() if spec is not None else None
        return cls(self.model, self.admin_site) if cls is not None else None

    def add_view(self, request, form_url="", extra_context=None):
        campaign = _campaign_of(request, ids=self.campaign_ids(request))
        system = self.system_admin(campaign.rule_system) if campaign is not None else None
        if system is None:
            return self.campaign_step(request)
        return system.add_view(request, form_url, extra_context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        character = self.get_object(request, unquote(object_id))
        system = self.system_admin(character.campaign.rule_system) if character else None
        if system is None:  # missing (the admin's own answer), or a system without its admin
            return super().change_view(request, object_id, form_url, extra_context)
        return system.change_view(request, object_id, form_url, extra_context)

    def campaign_step(self, request):
        """The add page's first step: which campaign (so which rule system) the character is
        for; chosen, the page of that system (``?campaign=``)."""
        if not self.has_add_permission(request):
            return super().add_view(request)  # the admin's own refusal
        raw = request.GET.get(CAMPAIGN) or request.POST.get(CAMPAIGN)
        form = CampaignChoice({CAMPAIGN: raw} if raw else None)
        ids = self.campaign_ids(request)
        if ids is not None:  # a game master's own campaigns only (campaigns.admin_scope)
            limit_field(form.fields[CAMPAIGN], ids)
        form.is_valid()  # an unknown campaign: the choice's own error
        campaign = _campaign_of(request, ids=ids)
        if campaign is not None:  # its system is not built, or has no character admin
            form.errors[CAMPAIGN] = form.error_class([error_message(
                rule_systems.not_built(campaign.rule_system))])
        context = {**self.admin_site.each_context(request), "opts": self.model._meta,
                   "form": form, "title": _("Add a character: its campaign"),
                   "has_view_permission": self.has_view_permission(request)}
        return TemplateResponse(request, "admin/characters/character/choose_campaign.html",
                                context)
