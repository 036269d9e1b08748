"""The shared serializers of the REST API: a character's system part (SystemPartSerializer), the
references to a campaign and a character, and the journal's (actions, rolls) that every app's
endpoints use. The open campaigns and the leaderboard are characters.api's."""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

from campaigns import rule_systems
from campaigns.models import RollGrade


class SystemPartSerializer(serializers.Serializer):
    """A shared serializer that adds the fields of the character's rule system: the output is
    the shared fields plus those of the system's ``system_part`` serializer
    (``RuleSystemSpec.serializers``), given ``system_object(instance)``. The system is the
    context's ``rule_system`` when the caller knows it (no query), else the character's
    campaign's. The schema lists the fields of every registered system (SystemPartSchema)."""

    system_part: ClassVar[str] = ""

    def system_object(self, instance) -> Any:
        """What the system's serializer reads (by default the instance itself)."""
        return instance

    def character_of(self, instance) -> Any:
        return instance

    def to_representation(self, instance) -> dict:
        data = super().to_representation(instance)
        code = self.context.get("rule_system") or self.character_of(instance).campaign.rule_system
        spec = rule_systems.get(code)
        part = spec.serializer(self.system_part) if spec else None
        if part is not None:
            data.update(part(self.system_object(instance), context=self.context).data)
        return data


class SystemPartSchema(OpenApiSerializerExtension):
    """The schema of a SystemPartSerializer: its own fields and every registered system's. A
    system's fields come only with its characters: they are listed, never required (the
    shared fields keep their own ``required``)."""

    target_class = SystemPartSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_basic_serializer(self.target, direction)
        for spec in rule_systems.registered():
            part = spec.serializer(self.target.system_part)
            if part is None:
                continue
            extra = auto_schema._map_basic_serializer(part(), direction)
            schema["properties"].update(extra["properties"])  # as to_representation does
        return schema


class CampaignRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class BoardSizeSerializer(serializers.Serializer):
    width = serializers.IntegerField()
    height = serializers.IntegerField()


class CampaignSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    rule_system = serializers.CharField()
    rule_system_name = serializers.CharField(source="get_rule_system_display")
    board = BoardSizeSerializer(allow_null=True, help_text="Null when the campaign has no board.")


class CharacterRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ModifierSerializer(serializers.Serializer):
    # A field named like a Field attribute: DRF collects it as a field, the stubs see the attribute.
    source = serializers.CharField()  # type: ignore[assignment]
    value = serializers.IntegerField()


class RollSerializer(serializers.Serializer):
    label = serializers.CharField()  # type: ignore[assignment]  # a field, as above
    expression = serializers.CharField()
    faces = serializers.ListField(child=serializers.IntegerField())
    total = serializers.IntegerField()
    target_score = serializers.IntegerField(
        allow_null=True, help_text="The score a test was rolled against; null for other rolls.")
    grade = serializers.ChoiceField(
        choices=RollGrade.choices, allow_blank=True,
        help_text="A test's grade under its rule system's critical rule (perfect: the "
                  "critical success of a roll-under-a-threshold rule); blank for a roll that "
                  "is not a test (damage).")
    success = serializers.BooleanField(
        allow_null=True, help_text="Derived from grade: true for the success grades, false for "
                                   "the failures, null when grade is blank.")
    modifiers = ModifierSerializer(many=True)


class ActionSerializer(serializers.Serializer):
    """One journaled action. Load ``rolls`` with ``prefetch_related`` (or accept one query)."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    created_at = serializers.DateTimeField()
    cost = serializers.DecimalField(
        max_digits=6, decimal_places=1, coerce_to_string=False,
        help_text="What the action cost, in the unit of the campaign's rule system: PA (action "
                  "points) on the real-time board, actions or MP in the turn-based systems; 0 "
                  "when it cost nothing.")
    actor = CharacterRefSerializer(allow_null=True)
    target = CharacterRefSerializer(allow_null=True)
    summary = serializers.DictField(help_text="What happened, by kind (see the pages' log).")
    rolls = RollSerializer(many=True, source="rolls.all")
