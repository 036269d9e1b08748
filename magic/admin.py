from django.contrib import admin

from magic.models import Spell


@admin.register(Spell)
class SpellAdmin(admin.ModelAdmin):
    list_display = ["name", "tier", "effect", "dice", "range_cells", "zone_radius",
                    "duration_hours", "learnable", "campaign"]
    list_filter = ["tier", "effect", "learnable", "campaign"]
    search_fields = ["name"]
