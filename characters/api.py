"""REST API of characters: the player's list, creation and the sheet.

Views are thin: they validate the payload's shape, call the selector or service the pages call,
and serialize what it returns. Rule errors become 4xx responses in ``config.api``.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api import ActionSerializer, CampaignRefSerializer
from campaigns.models import Campaign
from characters.selectors import character_sheet, characters_now
from characters.services import NAME_MAX, character_create
from config.api import ERRORS, READ_ERRORS


class StrictSerializer(serializers.Serializer):
    """An input serializer that refuses fields it does not know (a typo must not pass)."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
        return value


class PositionSerializer(serializers.Serializer):
    x = serializers.IntegerField()
    y = serializers.IntegerField()


@extend_schema_field(PositionSerializer(allow_null=True))
class PositionField(serializers.Field):
    """The character's cell, or null while it is off the board (disincarnated)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("source", "*")
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, character):
        return {"x": character.x, "y": character.y} if character.on_board else None


def _pa_field(**kwargs):
    return serializers.DecimalField(max_digits=6, decimal_places=1, coerce_to_string=False,
                                    **kwargs)


class SheetSummarySerializer(serializers.Serializer):
    """A character's numbers at a glance. Give it a Character whose ``ew1`` sheet is already
    brought up to now (``sheet_refresh`` in memory, or the state a service just saved)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    campaign = CampaignRefSerializer()
    level = serializers.IntegerField(source="ew1.level")
    xp = serializers.IntegerField(source="ew1.xp")
    pv = serializers.IntegerField(source="ew1.pv")
    pv_max = serializers.IntegerField(source="ew1.pv_max")
    pa = _pa_field(source="ew1.pa")
    pa_max = _pa_field(source="ew1.pa_max")
    position = PositionField()
    on_board = serializers.BooleanField()


class CharacteristicsSerializer(serializers.Serializer):
    FOR = serializers.IntegerField()
    DEF = serializers.IntegerField()
    TAI = serializers.IntegerField()
    INT = serializers.IntegerField()
    DEX = serializers.IntegerField()
    LUK = serializers.IntegerField()


class ProgressSerializer(serializers.Serializer):
    level_start = serializers.IntegerField(help_text="XP at which the current level starts.")
    next_level_at = serializers.IntegerField(allow_null=True, help_text="Null at the top level.")
    percent = serializers.IntegerField(min_value=0, max_value=100)


class SheetSerializer(serializers.Serializer):
    """The full sheet, from ``characters.selectors.character_sheet`` (a SheetView)."""

    id = serializers.IntegerField(source="character.id")
    name = serializers.CharField(source="character.name")
    campaign = CampaignRefSerializer(source="character.campaign")
    level = serializers.IntegerField(source="character.ew1.level")
    xp = serializers.IntegerField(source="character.ew1.xp")
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
    position = PositionField(source="character")
    on_board = serializers.BooleanField(source="character.on_board")
    kills = serializers.IntegerField(source="character.kills")
    deaths = serializers.IntegerField(source="character.deaths")
    protected = serializers.SerializerMethodField(
        help_text="Level 0 and no action yet: it cannot be attacked.")
    log = ActionSerializer(many=True, help_text="The last actions by or against the character.")

    def get_protected(self, view) -> bool:
        return view.character.is_protected


class CharacterCreateSerializer(StrictSerializer):
    campaign = serializers.PrimaryKeyRelatedField(queryset=Campaign.objects.all())
    name = serializers.CharField(max_length=NAME_MAX)


class CharacterListView(APIView):
    @extend_schema(operation_id="characters_list",
                   responses={200: SheetSummarySerializer(many=True), **READ_ERRORS},
                   summary="Your characters, with PA and PV as they are now.")
    def get(self, request):
        characters = characters_now(user=request.user)  # regenerated in memory: a GET writes nothing
        return Response(SheetSummarySerializer(characters, many=True).data)

    @extend_schema(operation_id="characters_create", request=CharacterCreateSerializer,
                   responses={201: SheetSerializer, **ERRORS},
                   summary="Roll a new level 0 character in a campaign and put it on the board.")
    def post(self, request):
        payload = CharacterCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        character = character_create(user=request.user, **payload.validated_data)
        view = character_sheet(user=request.user, character_id=character.pk)
        return Response(SheetSerializer(view).data, status=status.HTTP_201_CREATED)


class CharacterDetailView(APIView):
    @extend_schema(operation_id="characters_retrieve",
                   responses={200: SheetSerializer, **READ_ERRORS},
                   summary="The sheet. Another player's character answers 404, like a missing one.")
    def get(self, request, character_id: int):
        view = character_sheet(user=request.user, character_id=character_id)
        return Response(SheetSerializer(view).data)
