"""REST API of campaigns: the open campaigns, the leaderboard, and the journal's serializers
(actions, rolls) that the character and combat endpoints share. Read-only: the data comes from
selectors."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.selectors import LEADERBOARD_ORDERS, campaign_get, leaderboard
from config.api import READ_ERRORS, ErrorSerializer, StrictSerializer
from ew1.selectors import open_campaigns


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


class LeaderboardQuerySerializer(StrictSerializer):
    order = serializers.ChoiceField(choices=list(LEADERBOARD_ORDERS), default="kills")


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    id = serializers.IntegerField(source="character.id")
    name = serializers.CharField(source="character.name")
    player = serializers.CharField(source="character.owner.username", allow_null=True)
    level = serializers.IntegerField(source="character.ew1.level")
    xp = serializers.IntegerField(source="character.ew1.xp")
    kills = serializers.IntegerField(source="character.kills")
    deaths = serializers.IntegerField(source="character.deaths")
    attacks = serializers.IntegerField(source="character.attacks")
    dodges = serializers.IntegerField(source="character.dodges")


class LeaderboardSerializer(serializers.Serializer):
    campaign = CampaignRefSerializer()
    order = serializers.ChoiceField(choices=list(LEADERBOARD_ORDERS))
    rows = LeaderboardRowSerializer(many=True)


class LeaderboardView(APIView):
    @extend_schema(
        operation_id="campaigns_leaderboard",
        parameters=[OpenApiParameter("order", enum=list(LEADERBOARD_ORDERS), default="kills",
                                     description="Ranking: kills (then fewer deaths), level "
                                                 "(then XP), attacks, dodges or deaths.")],
        responses={200: LeaderboardSerializer, 400: ErrorSerializer, **READ_ERRORS},
        summary="The campaign's player characters, ranked.")
    def get(self, request, campaign_id: int):
        query = LeaderboardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        order = query.validated_data["order"]
        campaign = campaign_get(campaign_id=campaign_id)
        rows = [{"rank": rank, "character": c}
                for rank, c in enumerate(leaderboard(campaign=campaign, order=order), start=1)]
        return Response(LeaderboardSerializer(
            {"campaign": campaign, "order": order, "rows": rows}).data)
