"""REST API of Eternal War One II's character endpoints: level-up, the inventory (equip, unequip,
use) and creation drafts (roll, reroll, redistribute, confirm). Mounted by config.api_urls under
the same paths as before the move (/api/characters/<id>/level-up/, /api/drafts/...).

Views are thin: they validate the payload's shape, call the service the pages call, and serialize
what it returns. Rule errors become 4xx responses in ``config.api``.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api import CampaignRefSerializer
from campaigns.api_base import ERRORS, READ_ERRORS, ErrorSerializer, StrictSerializer
from characters.api import (CharacterCreateSerializer, DiceRollSerializer, SheetSerializer,
                            require_playable)
from characters.selectors import character_sheet
from ew1.creation import (RerollLimited, draft_allowance, draft_confirm, draft_get,
                          draft_redistribute, draft_reroll, draft_roll, draft_values)
from ew1.equipment import item_equip, item_unequip, item_use
from ew1.progression import level_up_spend
from ew1.serializers import CharacteristicsSerializer
from gamerules.errors import RuleError


def _sheet_response(request, character_id: int, status_code: int = status.HTTP_200_OK):
    view = character_sheet(user=request.user, character_id=character_id)
    return Response(SheetSerializer(view).data, status=status_code)


# --- level-up ---------------------------------------------------------------------------------

class LevelUpSerializer(StrictSerializer):
    skills = serializers.DictField(child=serializers.IntegerField(), required=False, default=dict,
                                   help_text="Skill code to points added, e.g. {\"brawl\": 2}.")
    characteristics = serializers.DictField(
        child=serializers.IntegerField(), required=False, default=dict,
        help_text="Characteristic code to points added, e.g. {\"FOR\": 1}.")


class CharacterLevelUpView(APIView):
    @extend_schema(operation_id="characters_level_up", request=LevelUpSerializer,
                   responses={200: SheetSerializer, **ERRORS},
                   summary="Spend banked skill and characteristic points (invalid_level_up when "
                           "the points, the per-skill cap or a maximum say no).")
    def post(self, request, character_id: int):
        require_playable(request, character_id)
        payload = LevelUpSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        level_up_spend(user=request.user, character_id=character_id,
                       add_skills=payload.validated_data["skills"],
                       add_characteristics=payload.validated_data["characteristics"])
        return _sheet_response(request, character_id)


# --- inventory --------------------------------------------------------------------------------

class HealSerializer(serializers.Serializer):
    roll = DiceRollSerializer()
    pv_before = serializers.IntegerField()
    pv_after = serializers.IntegerField()
    healed = serializers.IntegerField()


class ItemUseResultSerializer(serializers.Serializer):
    heal = HealSerializer()
    sheet = SheetSerializer(help_text="The sheet after the item was used (and is gone).")


class CharacterItemEquipView(APIView):
    @extend_schema(operation_id="characters_items_equip", request=None,
                   responses={200: SheetSerializer, **ERRORS},
                   summary="Equip an item; a weapon replaces the equipped one of its kind. "
                           "Consumables answer invalid_item.")
    def post(self, request, character_id: int, item_id: int):
        require_playable(request, character_id)
        item_equip(user=request.user, character_id=character_id, item_id=item_id)
        return _sheet_response(request, character_id)


class CharacterItemUnequipView(APIView):
    @extend_schema(operation_id="characters_items_unequip", request=None,
                   responses={200: SheetSerializer, **ERRORS}, summary="Unequip an item.")
    def post(self, request, character_id: int, item_id: int):
        require_playable(request, character_id)
        item_unequip(user=request.user, character_id=character_id, item_id=item_id)
        return _sheet_response(request, character_id)


class CharacterItemUseView(APIView):
    @extend_schema(operation_id="characters_items_use", request=None,
                   responses={200: ItemUseResultSerializer, **ERRORS},
                   summary="Use a healing consumable (1 PA): heals its dice, the item is gone.")
    def post(self, request, character_id: int, item_id: int):
        require_playable(request, character_id)
        outcome = item_use(user=request.user, character_id=character_id, item_id=item_id)
        view = character_sheet(user=request.user, character_id=character_id)
        return Response(ItemUseResultSerializer({"heal": outcome, "sheet": view}).data)


# --- creation drafts --------------------------------------------------------------------------

class BandSerializer(serializers.Serializer):
    k = serializers.FloatField(help_text="Standard deviations around the mean sum.")
    low = serializers.FloatField()
    high = serializers.FloatField()
    attempts = serializers.IntegerField(help_text="Sets thrown to land in the band.")


class RedistributionLimitsSerializer(serializers.Serializer):
    total = serializers.IntegerField(help_text="Points that may be moved in all.")
    each = serializers.IntegerField(help_text="Points added to or taken from one "
                                              "characteristic.")


class DraftSerializer(serializers.Serializer):
    """A draft with its final values and this minute's rerolls (see ``_draft_state``)."""

    id = serializers.IntegerField(source="draft.id")
    name = serializers.CharField(source="draft.name")
    campaign = CampaignRefSerializer(source="draft.campaign")
    rolled = CharacteristicsSerializer(source="draft.rolled", help_text="As rolled.")
    deltas = serializers.DictField(child=serializers.IntegerField(), source="draft.deltas",
                                   help_text="Points moved, by characteristic code.")
    values = CharacteristicsSerializer(help_text="Rolled plus moved: what confirm creates.")
    total = serializers.IntegerField(help_text="Sum of the values.")
    band = BandSerializer(source="draft.band")
    rerolls = serializers.IntegerField(source="draft.rerolls", help_text="Rerolls used.")
    rerolls_left = serializers.IntegerField(source="allowance.remaining",
                                            help_text="Rerolls left this minute.")
    rerolls_per_minute = serializers.IntegerField(source="allowance.limit")
    window_seconds_left = serializers.IntegerField(
        source="allowance.seconds_left", help_text="Seconds before the rerolls come back.")
    redistribution = RedistributionLimitsSerializer()


def _draft_state(draft) -> dict:
    params = draft.campaign.parameters
    try:
        values = draft_values(draft)
    except RuleError:  # the campaign's limits changed since the points were moved
        values = draft.rolled
    return {"draft": draft, "values": values, "total": sum(values.values()),
            "allowance": draft_allowance(draft=draft),
            "redistribution": {"total": params.redistribute_total,
                               "each": params.redistribute_per_characteristic}}


def _draft_response(draft, status_code: int = status.HTTP_200_OK):
    return Response(DraftSerializer(_draft_state(draft)).data, status=status_code)


class RedistributeSerializer(StrictSerializer):
    deltas = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Signed points by characteristic code, summing to 0, e.g. "
                  "{\"FOR\": 1, \"DEX\": -1}. Replaces the earlier ones; {} undoes them.")


DRAFT_ERRORS = {**ERRORS, 429: ErrorSerializer}


class DraftListView(APIView):
    @extend_schema(operation_id="drafts_create", request=CharacterCreateSerializer,
                   responses={201: DraftSerializer, **ERRORS},
                   summary="Start (or restart) your draft in a campaign: a first steered roll.")
    def post(self, request):
        payload = CharacterCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        draft = draft_roll(user=request.user, **payload.validated_data)
        return _draft_response(draft, status.HTTP_201_CREATED)


class DraftDetailView(APIView):
    @extend_schema(operation_id="drafts_retrieve", responses={200: DraftSerializer, **READ_ERRORS},
                   summary="Your draft. Another player's answers 404, like a missing one.")
    def get(self, request, draft_id: int):
        return _draft_response(draft_get(user=request.user, draft_id=draft_id))


class DraftRerollView(APIView):
    @extend_schema(operation_id="drafts_reroll", request=None,
                   responses={200: DraftSerializer, **DRAFT_ERRORS},
                   summary="Reroll with a wider band. Past the campaign's rerolls per minute: "
                           "429 reroll_limited with Retry-After.")
    def post(self, request, draft_id: int):
        try:
            draft = draft_reroll(user=request.user, draft_id=draft_id)
        except RerollLimited as exc:
            allowance = draft_allowance(draft=draft_get(user=request.user, draft_id=draft_id))
            exc.retry_after = allowance.seconds_left
            raise
        return _draft_response(draft)


class DraftRedistributeView(APIView):
    @extend_schema(operation_id="drafts_redistribute", request=RedistributeSerializer,
                   responses={200: DraftSerializer, **ERRORS},
                   summary="Move points between characteristics (invalid_redistribution past "
                           "the limits).")
    def post(self, request, draft_id: int):
        payload = RedistributeSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        draft = draft_redistribute(user=request.user, draft_id=draft_id,
                                   deltas=payload.validated_data["deltas"])
        return _draft_response(draft)


class DraftConfirmView(APIView):
    @extend_schema(operation_id="drafts_confirm", request=None,
                   responses={201: SheetSerializer, **ERRORS},
                   summary="Create the character from the draft and put it on the board; the "
                           "draft is gone.")
    def post(self, request, draft_id: int):
        character = draft_confirm(user=request.user, draft_id=draft_id)
        return _sheet_response(request, character.pk, status.HTTP_201_CREATED)
