"""REST API of the board: the view around a character, and the move and brawl actions.

Views are thin: validate the payload's shape, call the selector or service the pages call,
serialize the result. Rule errors become 4xx responses with a code in ``config.api``.

A character the user may not see answers 404 on every endpoint, exactly like a missing one; a
character the user may see but not play (the campaign's GM, staff) answers 403 ``forbidden`` on
the actions.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api import ActionSerializer, BoardSizeSerializer, CharacterRefSerializer
from characters.api import SheetSummarySerializer, StrictSerializer
from characters.regeneration import sheet_refresh
from characters.selectors import board_view, character_get
from combat.services import action_brawl, action_move
from config.api import ERRORS, READ_ERRORS


class BoundsSerializer(serializers.Serializer):
    x_min = serializers.IntegerField()
    x_max = serializers.IntegerField()
    y_min = serializers.IntegerField()
    y_max = serializers.IntegerField()


class PieceSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    x = serializers.IntegerField()
    y = serializers.IntegerField()
    level = serializers.IntegerField(source="ew1.level")
    pv = serializers.IntegerField(source="ew1.pv")
    pv_max = serializers.IntegerField(source="ew1.pv_max")
    mine = serializers.SerializerMethodField(
        help_text="Owned by the player of the viewed character (the character itself included).")
    adjacent = serializers.SerializerMethodField(
        help_text="On a cell next to the viewed character: a brawl target.")

    def get_mine(self, piece) -> bool:
        return piece.owner_id == self.context["owner_id"]

    def get_adjacent(self, piece) -> bool:
        return piece.pk in self.context["adjacent_ids"]


class BoardSerializer(serializers.Serializer):
    """From ``characters.selectors.board_view`` (a BoardView)."""

    character = SheetSummarySerializer(source="sheet.character")
    board = BoardSizeSerializer(source="sheet.character.board", allow_null=True,
                                help_text="Null while the character is off the board.")
    radius = serializers.IntegerField(help_text="Cells seen around the character.")
    bounds = serializers.SerializerMethodField()
    pieces = serializers.SerializerMethodField()

    @extend_schema_field(BoundsSerializer(allow_null=True))
    def get_bounds(self, view):
        """The cells in view, inclusive; null while the character is off the board."""
        if not view.rows:
            return None
        first, last = view.rows[0][0], view.rows[-1][-1]
        return {"x_min": first.x, "x_max": last.x, "y_min": first.y, "y_max": last.y}

    @extend_schema_field(PieceSerializer(many=True))
    def get_pieces(self, view):
        """The character first, then the others in view, nearest first."""
        character = view.sheet.character
        pieces = [character, *view.in_view] if character.on_board else []
        context = {"owner_id": character.owner_id, "adjacent_ids": view.adjacent_ids}
        return PieceSerializer(pieces, many=True, context=context).data


class MoveSerializer(StrictSerializer):
    dx = serializers.IntegerField(min_value=-1, max_value=1)
    dy = serializers.IntegerField(min_value=-1, max_value=1)


class AttackSerializer(StrictSerializer):
    target = serializers.IntegerField(min_value=1, help_text="The id of an adjacent character.")


class MoveResultSerializer(serializers.Serializer):
    action = ActionSerializer()
    character = SheetSummarySerializer(help_text="The character after the move.")


class OutcomeSerializer(serializers.Serializer):
    hit = serializers.BooleanField()
    perfect = serializers.BooleanField()
    dodged = serializers.BooleanField()
    damage = serializers.IntegerField(help_text="Before reduction.")
    reduction = serializers.IntegerField()
    pv_lost = serializers.IntegerField()
    target_pv = serializers.IntegerField()
    disincarnated = serializers.BooleanField()
    attacker_xp = serializers.IntegerField()
    defender_xp = serializers.IntegerField()


class AttackResultSerializer(serializers.Serializer):
    action = ActionSerializer()
    outcome = OutcomeSerializer(source="action.summary")
    character = SheetSummarySerializer(help_text="The attacker after the attack.")
    target = CharacterRefSerializer(source="action.target")


def _require_visible(request, character_id: int) -> None:
    """404 for a character the user may not see, so that strangers' characters and missing ones
    look alike; the service then refuses (403) one the user sees but may not play."""
    character_get(user=request.user, character_id=character_id)


class CharacterBoardView(APIView):
    @extend_schema(operation_id="characters_board", responses={200: BoardSerializer, **READ_ERRORS},
                   summary="The board around the character and the pieces in view.")
    def get(self, request, character_id: int):
        view = board_view(user=request.user, character_id=character_id)
        params = view.sheet.character.campaign.parameters
        for piece in view.in_view:  # in memory only: PV as it is now, nothing written
            sheet_refresh(piece.ew1, params=params, now=view.sheet.now)
        return Response(BoardSerializer(view).data)


class CharacterMoveView(APIView):
    @extend_schema(operation_id="characters_move", request=MoveSerializer,
                   responses={200: MoveResultSerializer, **ERRORS},
                   summary="Move one cell (0.5 PA, 1 XP).")
    def post(self, request, character_id: int):
        _require_visible(request, character_id)
        payload = MoveSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        result = action_move(user=request.user, character_id=character_id,
                             **payload.validated_data)
        return Response(MoveResultSerializer(result).data)


class CharacterAttackView(APIView):
    @extend_schema(operation_id="characters_attack", request=AttackSerializer,
                   responses={200: AttackResultSerializer, **ERRORS},
                   summary="Brawl attack on an adjacent character (2 PA).")
    def post(self, request, character_id: int):
        _require_visible(request, character_id)
        payload = AttackSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        result = action_brawl(user=request.user, character_id=character_id,
                              target_id=payload.validated_data["target"])
        return Response(AttackResultSerializer(result).data)
