"""REST API of the board: the view around a character, and its actions: move, attack (brawl,
melee, ranged, throw), game, suicide and reincarnation.

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
from characters.api import SheetSummarySerializer, require_playable
from characters.models import Character
from combat.services import (action_attack, action_game, action_move, action_move_to,
                             character_reincarnate, character_suicide)
from campaigns.api_base import ERRORS, StrictSerializer
from ew1.selectors import board_view
from gamerules.ew1.attacks import BRAWL, KINDS


class BoundsSerializer(serializers.Serializer):
    x_min = serializers.IntegerField()
    x_max = serializers.IntegerField()
    y_min = serializers.IntegerField()
    y_max = serializers.IntegerField()


class PieceSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Character.Kind.choices)
    x = serializers.IntegerField()
    y = serializers.IntegerField()
    level = serializers.IntegerField(source="ew1.level")
    pv = serializers.IntegerField(source="ew1.pv")
    pv_max = serializers.IntegerField(source="ew1.pv_max")
    mine = serializers.SerializerMethodField(
        help_text="Owned by the player of the viewed character (the character itself included).")
    adjacent = serializers.SerializerMethodField(
        help_text="On a cell next to the viewed character.")
    protected = serializers.BooleanField(
        source="ew1.is_protected", help_text="Level 0 and no action yet: it cannot be attacked.")
    attacks = serializers.SerializerMethodField(
        help_text="The attacks the viewed character can make on this piece from where it stands "
                  "(empty for itself, and for an ally when the campaign forbids friendly fire).")
    ally = serializers.SerializerMethodField(
        help_text="A member of the viewed character's faction (not the character itself).")

    def get_mine(self, piece) -> bool:
        return piece.owner_id == self.context["owner_id"]

    def get_adjacent(self, piece) -> bool:
        return piece.pk in self.context["adjacent_ids"]

    def get_ally(self, piece) -> bool:
        return getattr(piece, "is_ally", False)

    @extend_schema_field(serializers.ListField(child=serializers.ChoiceField(choices=KINDS)))
    def get_attacks(self, piece):
        return self.context["attacks"].get(piece.pk, [])


class BoardSerializer(serializers.Serializer):
    """From ``ew1.selectors.board_view`` (a BoardView)."""

    character = SheetSummarySerializer(source="sheet.character")
    board = BoardSizeSerializer(source="sheet.character.board", allow_null=True,
                                help_text="Null while the character is off the board.")
    radius = serializers.IntegerField(help_text="Cells seen around the character.")
    outside_board = serializers.SerializerMethodField(
        help_text="The character stands outside its board (saved so around the rules): nothing "
                  "is in view until the game master moves it back.")
    bounds = serializers.SerializerMethodField()
    pieces = serializers.SerializerMethodField()

    def get_outside_board(self, view) -> bool:
        return view.outside is not None

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
        context = {"owner_id": character.owner_id, "adjacent_ids": view.adjacent_ids,
                   "attacks": view.attacks or {}}
        return PieceSerializer(pieces, many=True, context=context).data


class MoveSerializer(StrictSerializer):
    dx = serializers.IntegerField(min_value=-1, max_value=1)
    dy = serializers.IntegerField(min_value=-1, max_value=1)


class MoveToSerializer(StrictSerializer):
    x = serializers.IntegerField(min_value=-10**6, max_value=10**6, help_text="The cell's column.")
    y = serializers.IntegerField(min_value=-10**6, max_value=10**6, help_text="The cell's row.")


class AttackSerializer(StrictSerializer):
    target = serializers.IntegerField(min_value=1, help_text="The id of the piece attacked.")
    kind = serializers.ChoiceField(
        choices=KINDS, default=BRAWL,
        help_text="brawl and melee (equipped melee weapon): adjacent; ranged: within the "
                  "equipped ranged weapon's range; throw: within the campaign's throw range.")


class MoveResultSerializer(serializers.Serializer):
    action = ActionSerializer()
    character = SheetSummarySerializer(help_text="The character after the move.")


class OutcomeSerializer(serializers.Serializer):
    weapon = serializers.CharField(allow_null=True, help_text="Melee and ranged attacks.")
    distance = serializers.IntegerField(help_text="Cells between attacker and target.")
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


class GameOutcomeSerializer(serializers.Serializer):
    won = serializers.BooleanField()
    roll = serializers.IntegerField(help_text="The d100.")
    score = serializers.IntegerField(help_text="The Jeu skill: a roll at most this wins.")
    xp = serializers.IntegerField(help_text="2d4 on a win, 0 on a loss.")


class GameResultSerializer(serializers.Serializer):
    action = ActionSerializer()
    outcome = GameOutcomeSerializer(source="action.summary")
    character = SheetSummarySerializer(help_text="The character after the game.")


class SuicideSerializer(serializers.Serializer):
    reincarnate_asap = serializers.BooleanField(
        required=False, default=False,
        help_text="Come back by itself on a free cell as soon as the cooldown ends.")


class SuicideResultSerializer(serializers.Serializer):
    action = ActionSerializer()
    character = SheetSummarySerializer(help_text="The character, now off the board.")
    reincarnation_blocked_until = serializers.DateTimeField(
        source="character.ew1.reincarnation_blocked_until")
    reincarnate_asap = serializers.BooleanField(source="character.reincarnate_asap")


class ReincarnateResultSerializer(serializers.Serializer):
    action = ActionSerializer()
    character = SheetSummarySerializer(help_text="The character, back on the board.")


class CharacterBoardView(APIView):
    @extend_schema(operation_id="characters_board", responses={200: BoardSerializer, **ERRORS},
                   summary="The board around the character and the pieces in view.")
    def get(self, request, character_id: int):
        view = board_view(user=request.user, character_id=character_id)  # PV as of now, in memory
        return Response(BoardSerializer(view).data)


class CharacterMoveView(APIView):
    @extend_schema(operation_id="characters_move", request=MoveSerializer,
                   responses={200: MoveResultSerializer, **ERRORS},
                   summary="Move one cell (0.5 PA, 1 XP).")
    def post(self, request, character_id: int):
        require_playable(request, character_id)
        payload = MoveSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        result = action_move(user=request.user, character_id=character_id,
                             **payload.validated_data)
        return Response(MoveResultSerializer(result).data)


class CharacterMoveToView(APIView):
    @extend_schema(operation_id="characters_move_to", request=MoveToSerializer,
                   responses={200: MoveResultSerializer, **ERRORS},
                   summary="Walk to a cell in view: the shortest free path, 0.5 PA and 1 XP a "
                           "cell (the board's click).")
    def post(self, request, character_id: int):
        require_playable(request, character_id)
        payload = MoveToSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        result = action_move_to(user=request.user, character_id=character_id,
                                **payload.validated_data)
        return Response(MoveResultSerializer(result).data)


class CharacterAttackView(APIView):
    @extend_schema(operation_id="characters_attack", request=AttackSerializer,
                   responses={200: AttackResultSerializer, **ERRORS},
                   summary="Attack a piece: brawl (default, 2 PA), melee (2 PA), ranged (2 PA) "
                           "or throw (1 PA).")
    def post(self, request, character_id: int):
        require_playable(request, character_id)
        payload = AttackSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        result = action_attack(user=request.user, character_id=character_id,
                               target_id=payload.validated_data["target"],
                               kind=payload.validated_data["kind"])
        return Response(AttackResultSerializer(result).data)


class CharacterGameView(APIView):
    @extend_schema(operation_id="characters_game", request=None,
                   responses={200: GameResultSerializer, **ERRORS},
                   summary="Play a game (Jeu, 1 PA): a d100 at most the Jeu skill wins 2d4 XP.")
    def post(self, request, character_id: int):
        require_playable(request, character_id)
        result = action_game(user=request.user, character_id=character_id)
        return Response(GameResultSerializer(result).data)


class CharacterSuicideView(APIView):
    @extend_schema(operation_id="characters_suicide", request=SuicideSerializer,
                   responses={200: SuicideResultSerializer, **ERRORS},
                   summary="Leave the board: a death, and no reincarnation for a while (6 h).")
    def post(self, request, character_id: int):
        require_playable(request, character_id)
        payload = SuicideSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        result = character_suicide(user=request.user, character_id=character_id,
                                   **payload.validated_data)
        return Response(SuicideResultSerializer(result).data)


class CharacterReincarnateView(APIView):
    @extend_schema(operation_id="characters_reincarnate", request=None,
                   responses={200: ReincarnateResultSerializer, **ERRORS},
                   summary="Come back on a free cell with full PV. During the suicide cooldown: "
                           "400 reincarnation_blocked with ``until``.")
    def post(self, request, character_id: int):
        require_playable(request, character_id)
        result = character_reincarnate(user=request.user, character_id=character_id)
        return Response(ReincarnateResultSerializer(result).data)
