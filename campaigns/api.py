"""REST API of campaigns: the open campaigns, and the journal's serializers (actions, rolls) that
the character and combat endpoints share. Read-only: the data comes from selectors."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from characters.selectors import open_campaigns
from config.api import ErrorSerializer


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
    source = serializers.CharField()
    value = serializers.IntegerField()


class RollSerializer(serializers.Serializer):
    label = serializers.CharField()
    expression = serializers.CharField()
    faces = serializers.ListField(child=serializers.IntegerField())
    total = serializers.IntegerField()
    target_score = serializers.IntegerField(allow_null=True)
    success = serializers.BooleanField(allow_null=True)
    modifiers = ModifierSerializer(many=True)


class ActionSerializer(serializers.Serializer):
    """One journaled action. Load ``rolls`` with ``prefetch_related`` (or accept one query)."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    created_at = serializers.DateTimeField()
    pa_spent = serializers.DecimalField(max_digits=6, decimal_places=1, coerce_to_string=False)
    actor = CharacterRefSerializer(allow_null=True)
    target = CharacterRefSerializer(allow_null=True)
    summary = serializers.DictField(help_text="What happened, by kind (see the pages' log).")
    rolls = RollSerializer(many=True, source="rolls.all")


class CampaignListView(APIView):
    @extend_schema(operation_id="campaigns_list",
                   responses={200: CampaignSerializer(many=True), 403: ErrorSerializer},
                   summary="Open campaigns, where a new character can be created.")
    def get(self, request):
        campaigns = open_campaigns().select_related("board")
        return Response(CampaignSerializer(campaigns, many=True).data)
