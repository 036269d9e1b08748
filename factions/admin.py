"""Factions in the admin: for staff and game masters to look into a campaign's factions and fix
what players cannot (a stuck request, a wrong member). Players use the pages or the API, which
go through ``factions.services``."""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Count, Q
from django.utils.translation import gettext_lazy as _

from campaigns.admin_scope import CampaignScopedAdmin, CampaignScopedInline
from factions import live
from factions.models import Faction, JoinRequest, Membership


def _players_of(faction_id: int) -> set[int]:
    """The players of the faction's leader, members and requesters: who its change concerns
    (one query)."""
    from characters.models import Character

    return set(Character.objects.filter(
        Q(membership__faction_id=faction_id) | Q(faction_requests__faction_id=faction_id)
        | Q(led_factions__pk=faction_id)).exclude(owner=None).values_list("owner_id", flat=True))


def _announce(faction_id: int, campaign_id: int, users: set[int]) -> None:
    """An admin edit is announced like the services' changes (factions.live): the faction's
    pages, the campaign's list and the players it concerns, before and after."""
    live.changed(campaign_id=campaign_id, factions=[faction_id], users=sorted(users))


class MembershipInline(CampaignScopedInline, admin.TabularInline):
    campaign_path = "faction__campaign"
    model = Membership
    extra = 0
    raw_id_fields = ("character",)
    readonly_fields = ("joined_at",)


class JoinRequestInline(CampaignScopedInline, admin.TabularInline):
    campaign_path = "faction__campaign"
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
class FactionAdmin(CampaignScopedAdmin, admin.ModelAdmin):
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
        faction = form.instance
        before = _players_of(faction.pk)  # those a removed membership or request concerned
        super().save_related(request, form, formsets, change)
        Membership.objects.get_or_create(character=faction.leader, defaults={"faction": faction})
        _announce(faction.pk, faction.campaign_id, before | _players_of(faction.pk))

    def delete_model(self, request, obj):
        pk, campaign_id, users = obj.pk, obj.campaign_id, _players_of(obj.pk)
        super().delete_model(request, obj)
        _announce(pk, campaign_id, users)

    def delete_queryset(self, request, queryset):
        gone = [(f.pk, f.campaign_id, _players_of(f.pk)) for f in queryset]
        super().delete_queryset(request, queryset)
        for pk, campaign_id, users in gone:
            _announce(pk, campaign_id, users)

    @admin.display(description=_("members"), ordering="size")
    def size(self, faction) -> int:
        return faction.size


@admin.register(JoinRequest)
class JoinRequestAdmin(CampaignScopedAdmin, admin.ModelAdmin):
    campaign_path = "faction__campaign"
    list_display = ("faction", "character", "kind", "state", "created_at", "decided_at")
    list_filter = ("kind", "state", "faction__campaign")
    search_fields = ("faction__name", "character__name")
    list_select_related = ("faction", "character")
    raw_id_fields = ("faction", "character")
    readonly_fields = ("created_at", "decided_at")

    def save_model(self, request, obj, form, change):
        before = JoinRequest.objects.filter(pk=obj.pk).values_list(
            "faction_id", flat=True).first() if change else None
        super().save_model(request, obj, form, change)
        for faction_id in {obj.faction_id, before} - {None}:
            faction = Faction.objects.only("campaign_id").get(pk=faction_id)
            _announce(faction_id, faction.campaign_id, _players_of(faction_id))

    def delete_model(self, request, obj):
        faction_id, campaign_id = obj.faction_id, obj.faction.campaign_id
        users = _players_of(faction_id)
        super().delete_model(request, obj)
        _announce(faction_id, campaign_id, users)

    def delete_queryset(self, request, queryset):
        gone = {(r.faction_id, r.faction.campaign_id) for r in queryset.select_related("faction")}
        users = {pk: _players_of(pk) for pk, _ in gone}
        super().delete_queryset(request, queryset)
        for faction_id, campaign_id in gone:
            _announce(faction_id, campaign_id, users[faction_id])
