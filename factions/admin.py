"""Factions in the admin: for staff and game masters to look into a campaign's factions and fix
what players cannot (a stuck request, a wrong member). Players use the pages or the API, which
go through ``factions.services``."""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from factions.models import Faction, JoinRequest, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("character",)
    readonly_fields = ("joined_at",)


class JoinRequestInline(admin.TabularInline):
    model = JoinRequest
    extra = 0
    raw_id_fields = ("character",)
    fields = ("character", "kind", "state", "created_at", "decided_at")
    readonly_fields = ("created_at", "decided_at")


class FactionAdminForm(forms.ModelForm):
    class Meta:
        model = Faction
        fields = ("campaign", "name", "description", "is_public", "leader")

    def clean(self):
        cleaned = super().clean()
        leader, campaign = cleaned.get("leader"), cleaned.get("campaign")
        if leader and campaign and leader.campaign_id != campaign.pk:
            raise ValidationError(_("The leader must be a character of the faction's campaign."))
        other = Membership.objects.filter(character=leader).exclude(
            faction_id=self.instance.pk).first() if leader else None
        if other is not None:
            raise ValidationError(_("The leader belongs to another faction."))
        return cleaned


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    """The leader stays a member: saving adds the leader's membership when it is missing (and a
    leader already in another faction is refused by the one-membership rule)."""

    list_display = ("name", "campaign", "leader", "is_public", "size", "created_at")
    list_filter = ("campaign", "is_public", "created_at")
    search_fields = ("name", "description", "leader__name", "memberships__character__name")
    list_select_related = ("campaign", "leader")
    form = FactionAdminForm
    raw_id_fields = ("leader",)
    readonly_fields = ("created_at",)
    inlines = (MembershipInline, JoinRequestInline)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(size=Count("memberships", distinct=True))

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        faction = form.instance
        Membership.objects.get_or_create(character=faction.leader, defaults={"faction": faction})

    @admin.display(description=_("members"), ordering="size")
    def size(self, faction) -> int:
        return faction.size


@admin.register(JoinRequest)
class JoinRequestAdmin(admin.ModelAdmin):
    list_display = ("faction", "character", "kind", "state", "created_at", "decided_at")
    list_filter = ("kind", "state", "faction__campaign")
    search_fields = ("faction__name", "character__name")
    list_select_related = ("faction", "character")
    raw_id_fields = ("faction", "character")
    readonly_fields = ("created_at", "decided_at")
