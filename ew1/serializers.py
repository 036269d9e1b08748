"""Eternal War One II's parts of the API's character serializers (RuleSystemSpec.serializers):
the shared serializers of campaigns.api, characters.api and factions.api add these fields."""

from __future__ import annotations

from rest_framework import serializers

from ew1.models import ItemTemplate
from gamerules.ew1.levelup import per_skill_cap


def _pa_field(**kwargs):
    return serializers.DecimalField(max_digits=6, decimal_places=1, coerce_to_string=False,
                                    **kwargs)


class RowSerializer(serializers.Serializer):
    """A Character with its ``ew1`` sheet selected, in the leaderboard and a faction's members."""

    level = serializers.IntegerField(source="ew1.level")
    xp = serializers.IntegerField(source="ew1.xp")


class MemberRowSerializer(serializers.Serializer):
    level = serializers.IntegerField(source="ew1.level")


class SummarySerializer(serializers.Serializer):
    """A Character whose ``ew1`` sheet is already brought up to now."""

    level = serializers.IntegerField(source="ew1.level")
    xp = serializers.IntegerField(source="ew1.xp")
    pv = serializers.IntegerField(source="ew1.pv")
    pv_max = serializers.IntegerField(source="ew1.pv_max")
    pa = _pa_field(source="ew1.pa")
    pa_max = _pa_field(source="ew1.pa_max")


class CharacteristicsSerializer(serializers.Serializer):
    FOR = serializers.IntegerField()
    DEF = serializers.IntegerField()
    TAI = serializers.IntegerField()
    INT = serializers.IntegerField()
    DEX = serializers.IntegerField()
    LUK = serializers.IntegerField(allow_null=True,
                                   help_text="Null for doors, objects and creatures.")


class ProgressSerializer(serializers.Serializer):
    level_start = serializers.IntegerField(help_text="XP at which the current level starts.")
    next_level_at = serializers.IntegerField(allow_null=True, help_text="Null at the top level.")
    percent = serializers.IntegerField(min_value=0, max_value=100)


class ItemSerializer(serializers.Serializer):
    """An ItemInstance with its template."""

    id = serializers.IntegerField()
    name = serializers.CharField(source="template.name")
    kind = serializers.ChoiceField(source="template.kind", choices=ItemTemplate.Kind.choices)
    category = serializers.ChoiceField(source="template.category",
                                       choices=ItemTemplate.Category.choices)
    damage_dice = serializers.CharField(source="template.damage_dice",
                                        help_text="Weapons only; empty otherwise.")
    weapon_skill = serializers.IntegerField(source="template.weapon_skill")
    range_cells = serializers.IntegerField(source="template.range_cells")
    armour = serializers.IntegerField(source="template.armour")
    heal_dice = serializers.CharField(source="template.heal_dice",
                                      help_text="Consumables only: PV restored when used.")
    consumable = serializers.BooleanField(source="template.is_consumable")
    modifier_values = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Characteristic code to signed points, rolled once when the item was given.")
    equipped = serializers.BooleanField()


class SheetSerializer(serializers.Serializer):
    """The Eternal War One II numbers of the full sheet, from the SheetView of
    ``ew1.system.sheet_view``."""

    level = serializers.IntegerField(source="character.ew1.level")
    xp = serializers.IntegerField(source="character.ew1.xp")
    reincarnation_blocked_until = serializers.DateTimeField(
        source="character.ew1.reincarnation_blocked_until", allow_null=True,
        help_text="When the last suicide's block ends (may be in the past): the suicide's time "
                  "plus the campaign's current suicide_cooldown_hours; null without one.")
    progress = ProgressSerializer()
    characteristics = CharacteristicsSerializer(source="character.ew1")
    skills = serializers.DictField(child=serializers.IntegerField(), source="character.ew1.skills",
                                   help_text="Skill code to percentage.")
    pv = serializers.IntegerField(source="character.ew1.pv")
    pv_max = serializers.IntegerField(source="character.ew1.pv_max")
    pa = _pa_field(source="character.ew1.pa")
    pa_max = _pa_field(source="character.ew1.pa_max")
    pa_next_at = serializers.DateTimeField(allow_null=True,
                                           help_text="When the next PA comes; null when full.")
    pa_spent_today = _pa_field(help_text="PA spent on the campaign's game day (local midnight "
                                         "to midnight in its game_day_time_zone).")
    daily_pa_cap = serializers.IntegerField(help_text="Most PA per game day; 0: no cap.")
    protected = serializers.SerializerMethodField(
        help_text="Level 0 and no action yet: it cannot be attacked.")
    skill_points = serializers.IntegerField(source="character.ew1.skill_points",
                                            help_text="Banked, to spend with level-up.")
    characteristic_points = serializers.IntegerField(
        source="character.ew1.characteristic_points", help_text="Banked, to spend with level-up.")
    per_skill_cap = serializers.SerializerMethodField(
        help_text="Most points one skill may get between two levels gained.")
    skills_raised = serializers.DictField(
        child=serializers.IntegerField(), source="character.ew1.skills_raised",
        help_text="Points spent per skill since the last level gained (they count against the "
                  "cap).")
    items = ItemSerializer(many=True, help_text="The inventory, equipped items first.")

    def get_protected(self, view) -> bool:
        return view.character.ew1.is_protected

    def get_per_skill_cap(self, view) -> int:
        params = view.character.campaign.parameters
        return per_skill_cap(view.character.ew1.level, floor=params.skill_cap_floor)
