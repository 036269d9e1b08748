from django.contrib import admin

from factions.models import Faction, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "leader", "is_public"]
    list_filter = ["campaign", "is_public"]
    search_fields = ["name"]
    inlines = [MembershipInline]
