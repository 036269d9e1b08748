"""REST API of magic: the spellbook (known spells, active effects, the pending level-up offer),
the answer to that offer, and casting a spell on a cell.

Views are thin: validate the payload's shape, call the services and selectors the pages call
(``magic.spellbook``, ``magic.casting``, ``magic.selectors``), serialize the result. Rule errors
become 4xx ``{code, detail}`` in ``config.api``. A character the user may not see answers 404,
one the user sees but may not play (the campaign's GM, staff) 403 ``forbidden``.

Mounted under /api/ by ``config.api_urls`` (``urlpatterns`` below).
"""

from __future__ import annotations

from django.urls import path
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api import ActionSerializer, CharacterRefSerializer
from campaigns.errors import Forbidden
from campaigns.permissions import allowed
from characters.api import SheetSummarySerializer
from characters.models import Character
from campaigns.api_base import ERRORS, StrictSerializer
from characters.selectors import character_get
from ew1.actors import require_eternal_war
from magic.casting import spell_cast
from magic.models import KnownSpell, Spell
from magic.selectors import active_effects, spellbook
from magic.spellbook import spell_offer_answer, spell_offer_pending


class SpellSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    tier = serializers.ChoiceField(choices=Spell.Tier.choices)
    effect = serializers.ChoiceField(choices=Spell.Effect.choices)
    dice = serializers.CharField(help_text="The power rolled on a successful cast.")
    range_cells = serializers.IntegerField(help_text="Farthest target cell (0: one's own).")
    zone_radius = serializers.IntegerField(help_text="0: one target; otherwise every piece "
                                                     "within this many cells of the cell.")
    reach = serializers.ChoiceField(choices=Spell.Reach.choices,
                                    help_text="Who a zone reaches.")
    duration_hours = serializers.IntegerField(
        help_text="Shields: how long they last, in hours; 0: the campaign's shield_duration_hours.")


class SpellRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class KnownSpellSerializer(serializers.Serializer):
    spell = SpellSerializer()
    # A field named like a Field attribute: DRF collects it as a field, the stubs see the attribute.
    source = serializers.ChoiceField(choices=KnownSpell.Source.choices)  # type: ignore[assignment]
    learned_at = serializers.DateTimeField()


class EffectSerializer(serializers.Serializer):
    spell = SpellRefSerializer()
    amount = serializers.IntegerField(help_text="Damage points blocked per hit.")
    expires_at = serializers.DateTimeField(help_text="Inactive from this instant on.")
    caster = serializers.IntegerField(source="caster_id", allow_null=True)


class OfferSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    level = serializers.IntegerField(help_text="The level gained this offer is for.")
    spells = SpellSerializer(many=True, source="spells.all",
                             help_text="Drawn once and stored: reloading never redraws them.")
    chosen = SpellRefSerializer(allow_null=True)
    resolved_at = serializers.DateTimeField(allow_null=True,
                                            help_text="Null until learned from or declined.")


class SpellbookSerializer(serializers.Serializer):
    character = CharacterRefSerializer()
    size = serializers.IntegerField(help_text="How many spells the book holds at most.")
    spells = KnownSpellSerializer(many=True)
    effects = EffectSerializer(many=True, help_text="Active shields, soonest to expire first.")
    offer = OfferSerializer(allow_null=True,
                            help_text="The open offer of the lowest level gained and not yet "
                                      "answered; null when every level has been answered.")


class OfferAnswerSerializer(StrictSerializer):
    offer = serializers.IntegerField(min_value=1)
    spell = serializers.IntegerField(min_value=1, allow_null=True,
                                     help_text="One of the offered spells; null declines.")
    replace = serializers.IntegerField(min_value=1, allow_null=True, required=False,
                                       help_text="With a full spellbook: the spell to forget.")


class OfferAnswerResultSerializer(serializers.Serializer):
    answered = OfferSerializer()
    spellbook = SpellbookSerializer(help_text="The spellbook now, with the next offer.")


class CastSerializer(StrictSerializer):
    spell = serializers.IntegerField(min_value=1, help_text="The id of a known spell.")
    x = serializers.IntegerField(help_text="The target cell, within the spell's range.")
    y = serializers.IntegerField()


class CastTargetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    reduction = serializers.IntegerField(required=False, help_text="Damage spells.")
    pv_lost = serializers.IntegerField(required=False, help_text="Damage spells.")
    disincarnated = serializers.BooleanField(required=False,
                                             help_text="Damage spells: left below 0 PV.")
    healed = serializers.IntegerField(required=False, help_text="Heals: capped at max PV.")
    pv = serializers.IntegerField(required=False, help_text="PV after a damage or a heal.")
    shield = serializers.IntegerField(required=False, help_text="Shields: points blocked.")
    until = serializers.DateTimeField(required=False, help_text="Shields: expiry.")


class CastOutcomeSerializer(serializers.Serializer):
    spell = serializers.CharField()
    effect = serializers.ChoiceField(choices=Spell.Effect.choices)
    cell = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    roll = serializers.IntegerField(help_text="The d100.")
    score = serializers.IntegerField(help_text="Magic skill + faction bonus: a roll at most "
                                               "this succeeds.")
    success = serializers.BooleanField()
    power = serializers.IntegerField(help_text="Dice + evolution bonuses (0 on a failure).")
    xp = serializers.IntegerField()
    targets = CastTargetSerializer(many=True, help_text="Empty on a failure.")


class CastResultSerializer(serializers.Serializer):
    action = ActionSerializer()
    outcome = CastOutcomeSerializer(source="action.summary")
    character = SheetSummarySerializer(source="action.actor", help_text="The caster now.")


def _playable(request, character_id: int) -> Character:
    """The character if the user may play it: 404 when unseen, 403 for a GM or staff."""
    character = character_get(user=request.user, character_id=character_id)
    if not allowed(request.user, "characters.act", character):
        raise Forbidden("not_your_character")
    require_eternal_war(character.campaign)  # the spellbook is Eternal War One II's
    return character


def _spellbook(character: Character) -> dict:
    return {"character": character, "size": character.campaign.parameters.spellbook_size,
            "spells": spellbook(character), "effects": active_effects(character, timezone.now()),
            "offer": spell_offer_pending(character=character)}


class CharacterSpellsView(APIView):
    @extend_schema(operation_id="characters_spells", responses={200: SpellbookSerializer, **ERRORS},
                   summary="The spellbook, the active shields and the pending level-up offer "
                           "(drawn once and stored: the same spells as on the page).")
    def get(self, request, character_id: int):
        character = _playable(request, character_id)
        return Response(SpellbookSerializer(_spellbook(character)).data)


class CharacterSpellOfferView(APIView):
    @extend_schema(operation_id="characters_spell_offer", request=OfferAnswerSerializer,
                   responses={200: OfferAnswerResultSerializer, **ERRORS},
                   summary="Learn one of the offered spells, or decline with spell null; with a "
                           "full spellbook name the spell to forget in replace (invalid_offer, "
                           "spellbook_full, spell_unknown, spell_already_known).")
    def post(self, request, character_id: int):
        _playable(request, character_id)
        payload = OfferAnswerSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        answered = spell_offer_answer(user=request.user, character_id=character_id,
                                      offer_id=data["offer"], spell_id=data["spell"],
                                      replace_spell_id=data.get("replace"))
        character = _playable(request, character_id)
        return Response(OfferAnswerResultSerializer(
            {"answered": answered, "spellbook": _spellbook(character)}).data)


class CharacterCastView(APIView):
    @extend_schema(operation_id="characters_cast", request=CastSerializer,
                   responses={200: CastResultSerializer, **ERRORS},
                   summary="Cast a known spell on a cell (2 PA): d100 at most the magic skill + "
                           "faction bonus; cannot be dodged (spell_unknown, out_of_range, "
                           "invalid_target, target_protected, not_enough_pa, cannot_act).")
    def post(self, request, character_id: int):
        _playable(request, character_id)
        payload = CastSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        result = spell_cast(user=request.user, character_id=character_id,
                            spell_id=payload.validated_data["spell"],
                            x=payload.validated_data["x"], y=payload.validated_data["y"])
        return Response(CastResultSerializer(result).data)


urlpatterns = [
    path("characters/<int:character_id>/spells/", CharacterSpellsView.as_view(),
         name="api-character-spells"),
    path("characters/<int:character_id>/spells/offer/", CharacterSpellOfferView.as_view(),
         name="api-character-spell-offer"),
    path("characters/<int:character_id>/cast/", CharacterCastView.as_view(),
         name="api-character-cast"),
]
