"""Factions in the admin: for staff and game masters to look into a campaign's factions and fix
what players cannot (a stuck request, a wrong member). Players use the pages or the API, which
go through ``factions.services``."""

from django.contrib import admin
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from factions.models import Faction, JoinRequest, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["character"]
    readonly_fields = ["joined_at"]


class JoinRequestInline(admin.TabularInline):
    model = JoinRequest
    extra = 0
    raw_id_fields = ["character"]
    fields = ["character", "kind", "state", "created_at", "decided_at"]
    readonly_fields = ["created_at", "decided_at"]


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "leader", "is_public", "size", "created_at"]
    list_filter = ["campaign", "is_public", "created_at"]
    search_fields = ["name", "description", "leader__name", "memberships__character__name"]
    list_select_related = ["campaign", "leader"]
    raw_id_fields = ["leader"]
    readonly_fields = ["created_at"]
    inlines = [MembershipInline, JoinRequestInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(size=Count("memberships", distinct=True))

    @admin.display(description=_("members"), ordering="size")
    def size(self, faction) -> int:
        return faction.size


@admin.register(JoinRequest)
class JoinRequestAdmin(admin.ModelAdmin):
    list_display = ["faction", "character", "kind", "state", "created_at", "decided_at"]
    list_filter = ["kind", "state", "faction__campaign"]
    search_fields = ["faction__name", "character__name"]
    list_select_related = ["faction", "character"]
    raw_id_fields = ["faction", "character"]
    readonly_fields = ["created_at", "decided_at"]
