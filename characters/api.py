"""REST API of characters: the player's list, creation in one step, the sheet (the shared part,
plus the fields of the character's rule system). A system's own endpoints are in its app
(``<system>/api.py``). Also the open campaigns (where a character can
be created) and the campaign's leaderboard (its characters ranked).

Views are thin: they validate the payload's shape, call the selector or service the pages call,
and serialize what it returns. Rule errors become 4xx responses in ``config.api``.
"""

from __future__ import annotations

from typing import Any, cast

from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api import (ActionSerializer, CampaignRefSerializer, CampaignSerializer,
                           SystemPartSerializer)
from campaigns.errors import Forbidden
from campaigns.models import Campaign
from campaigns.permissions import allowed
from characters.models import Character
from characters.selectors import (campaign_journal, character_get, character_sheet,
                                  characters_of, characters_refreshed, open_campaigns)
from characters.services import NAME_MAX, character_create
from campaigns.api_lists import (CampaignFilter, CampaignJournalFilter, JournalListView, ListView,
                                 WholeNumberFilter, paged)
from campaigns.api_base import ERRORS, READ_ERRORS, ErrorSerializer, StrictSerializer
from campaigns.selectors import campaign_get
from characters.leaderboard import leaderboard, leaderboard_orders


def require_playable(request, character_id: int) -> None:
    """404 for a character the user may not see (a stranger's looks like a missing one), 403
    ``forbidden`` for one the user sees but may not play (the campaign's GM, staff). The
    services check again, under lock."""
    character = character_get(user=request.user, character_id=character_id)
    if not allowed(request.user, "characters.act", character):
        raise Forbidden("not_your_character")




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


class SheetSummarySerializer(SystemPartSerializer):
    """A character at a glance; its rule system's "summary" serializer adds its numbers. Give it
    a Character whose sheet is already brought up to now (``RuleSystemSpec.refresh`` in memory,
    or the state a service just saved)."""

    system_part = "summary"

    id = serializers.IntegerField()
    name = serializers.CharField()
    campaign = CampaignRefSerializer()
    position = PositionField()
    on_board = serializers.BooleanField()


class DiceRollSerializer(serializers.Serializer):
    expression = serializers.CharField()
    faces = serializers.SerializerMethodField(help_text="Signed faces, in order.")
    total = serializers.IntegerField()

    def get_faces(self, roll) -> list[int]:
        return [f.sign * f.face for f in roll.faces]


class SheetSerializer(SystemPartSerializer):
    """The full sheet, from ``characters.selectors.character_sheet`` (the view its rule system's
    ``sheet_view`` made); the system's "sheet" serializer adds its numbers."""

    system_part = "sheet"

    id = serializers.IntegerField(source="character.id")
    name = serializers.CharField(source="character.name")
    campaign = CampaignRefSerializer(source="character.campaign")
    cooldown_notice = serializers.CharField(
        source="character.cooldown_notice",
        help_text="cooldown_over or reincarnated once a suicide's block ended, until dismissed; "
                  "empty otherwise.")
    position = PositionField(source="character")
    on_board = serializers.BooleanField(source="character.on_board")
    kills = serializers.IntegerField(source="character.kills")
    deaths = serializers.IntegerField(source="character.deaths")
    attacks = serializers.IntegerField(source="character.attacks")
    dodges = serializers.IntegerField(source="character.dodges")
    log = ActionSerializer(many=True, help_text="The last actions by or against the character.")

    def character_of(self, view):
        return view.character


class CharacterCreateSerializer(StrictSerializer):
    campaign = serializers.PrimaryKeyRelatedField(queryset=Campaign.objects.all())
    name = serializers.CharField(max_length=NAME_MAX)


class CharacterFilter(filters.FilterSet):
    campaign = WholeNumberFilter(field_name="campaign_id",
                                 help_text="Only the characters of this campaign.")

    class Meta:
        model = Character
        fields = ("campaign",)


class CharacterListView(ListView):
    """Filter by campaign; ``?page=`` and ``?page_size=`` page the list, the ``Link`` header
    names the next and previous pages."""

    filterset_class = CharacterFilter
    queryset = Character.objects.none()  # the model, for the schema

    @extend_schema(operation_id="characters_list",
                   responses={200: SheetSummarySerializer(many=True), 400: ErrorSerializer,
                              **READ_ERRORS},
                   summary="Your characters, with PA and PV as they are now, by campaign and "
                           "name; paged (the Link header).")
    def get(self, request):
        # Regenerated in memory: a GET writes nothing.
        characters = characters_refreshed(self.listed(characters_of(request.user)))
        return paged(self, SheetSummarySerializer(characters, many=True).data)

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


# --- campaigns: the open ones, the leaderboard -------------------------------------------------

class CampaignListView(ListView):
    """Filter by rule system; ``?page=`` and ``?page_size=`` page the list, the ``Link`` header
    names the next and previous pages."""

    filterset_class = CampaignFilter
    queryset = Campaign.objects.none()  # the model, for the schema

    @extend_schema(operation_id="campaigns_list",
                   responses={200: CampaignSerializer(many=True), 400: ErrorSerializer,
                              403: ErrorSerializer},
                   summary="The campaigns where the user can create a new character (open ones, "
                           "those they are a member of or oversee); paged (the Link header).")
    def get(self, request):
        campaigns = self.listed(open_campaigns(user=request.user).select_related("board"))
        return paged(self, CampaignSerializer(campaigns, many=True).data)


class LeaderboardQuerySerializer(StrictSerializer):
    order = serializers.ChoiceField(choices=(), default="kills")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cast(serializers.ChoiceField, self.fields["order"]).choices = leaderboard_orders()


class LeaderboardRowSerializer(SystemPartSerializer):
    """A ranked Character; the system's "row" serializer adds its numbers (level, XP...)."""

    system_part = "row"

    rank = serializers.IntegerField()
    id = serializers.IntegerField(source="character.id")
    name = serializers.CharField(source="character.name")
    player = serializers.CharField(source="character.owner.username", allow_null=True)
    kills = serializers.IntegerField(source="character.kills")
    deaths = serializers.IntegerField(source="character.deaths")
    attacks = serializers.IntegerField(source="character.attacks")
    dodges = serializers.IntegerField(source="character.dodges")

    def system_object(self, instance) -> Any:
        return instance["character"]

    def character_of(self, instance) -> Any:
        return instance["character"]


class LeaderboardSerializer(serializers.Serializer):
    campaign = CampaignRefSerializer()
    order = serializers.CharField()
    rows = LeaderboardRowSerializer(many=True)


class LeaderboardView(APIView):
    @extend_schema(
        operation_id="campaigns_leaderboard",
        parameters=[OpenApiParameter("order", str, default="kills",
                                     description="Ranking: kills (then fewer deaths), attacks, "
                                                 "dodges, deaths, or one of the rule system's "
                                                 "own columns (such as level, then XP).")],
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
            {"campaign": campaign, "order": order, "rows": rows},
            context={"rule_system": campaign.rule_system}).data)


class CampaignJournalView(JournalListView):
    """Filter by character, encounter, kind and time; ``next`` is the cursor of older
    entries."""

    filterset_class = CampaignJournalFilter

    @extend_schema(operation_id="campaigns_journal",
                   responses={200: ActionSerializer(many=True), **READ_ERRORS},
                   summary="The campaign's journal, newest first, paged by cursor: its actions "
                           "and rolls (who oversees the campaign: all; a player: those by or "
                           "against their characters, as their sheets show them).")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def read(self, request):
        return campaign_journal(user=request.user, campaign_id=self.kwargs["campaign_id"])
