"""REST API of the chat: a room's messages (paged, newest first) and posting to it, through the
same selectors and services as the pages. ``GET /api/campaigns/<id>/chat/`` and
``/api/encounters/<id>/chat/`` list what the caller reads (``?before=<message id>`` pages back,
``next`` names the following page); ``POST`` the same path posts (a ``/roll`` throws and
journals the dice); ``DELETE /api/chat/messages/<id>/`` is the GM's deletion. Refusals answer
``{"code", "detail", "params"}``: 404 ``not_found`` for a room the caller may not enter, 400
``chat_invalid`` / ``invalid_dice`` / ``invalid_roll``, 403 ``chat_refused``, 429
``rate_limited``. Mounted in config/api_urls.py."""

from __future__ import annotations

from django.conf import settings
from django.urls import path
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api import RollSerializer
from campaigns.api_base import ERRORS, READ_ERRORS, ErrorSerializer, StrictSerializer
from campaigns.numbers import INT_MAX
from chat import selectors, services
from chat.models import To


class CardSerializer(serializers.Serializer):
    """The journal entry a message shows (a free roll's, or one the GM shared)."""

    id = serializers.IntegerField(source="pk")
    kind = serializers.CharField()
    summary = serializers.JSONField()
    rolls = RollSerializer(many=True, source="rolls.all")


class MessageSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    author = serializers.CharField(source="author.username", allow_null=True, default=None)
    to = serializers.ChoiceField(choices=To.choices)
    recipient = serializers.CharField(source="recipient.username", allow_null=True,
                                      default=None)
    created_at = serializers.DateTimeField()
    deleted = serializers.BooleanField(help_text="Deleted by the game master: no text, no card.")
    text = serializers.SerializerMethodField()
    html = serializers.SerializerMethodField(help_text="The text as markdown, sanitised.")
    card = serializers.SerializerMethodField()

    def get_text(self, message) -> str | None:
        return None if message.deleted else message.body

    def get_html(self, message) -> str | None:
        return None if message.deleted else message.html

    @extend_schema_field(CardSerializer(allow_null=True))
    def get_card(self, message) -> dict | None:
        if message.deleted or message.entry is None:
            return None
        return CardSerializer(message.entry).data


class PageSerializer(serializers.Serializer):
    results = MessageSerializer(many=True, help_text="Oldest first, at most 50.")
    next = serializers.IntegerField(allow_null=True, help_text="The ``before`` of the older page.")


class PageQuery(StrictSerializer):
    before = serializers.IntegerField(required=False, min_value=1, max_value=INT_MAX)


class PostSerializer(StrictSerializer):
    text = serializers.CharField(max_length=100_000, trim_whitespace=False)
    to = serializers.ChoiceField(choices=To.choices, default=To.ALL)
    recipient = serializers.IntegerField(required=False, min_value=1, max_value=INT_MAX)


class _Room(APIView):
    room_key = ""  # the URL's id: campaign_id or encounter_id, as the service names it

    @extend_schema(parameters=[PageQuery], responses={200: PageSerializer, **READ_ERRORS})
    def get(self, request, **ids: int):
        query = PageQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        room = selectors.room_for(user=request.user, **{self.room_key: ids[self.room_key]})
        page = selectors.messages_page(room, before=query.validated_data.get("before"))
        return Response({"results": MessageSerializer(page.messages, many=True).data,
                         "next": page.older})

    @extend_schema(request=PostSerializer, responses={201: MessageSerializer, **ERRORS,
                                                      429: ErrorSerializer})
    def post(self, request, **ids: int):
        body = PostSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if len(data["text"]) > settings.CHAT_MESSAGE_MAX:  # the service's words, not DRF's
            data["text"] = data["text"][:settings.CHAT_MESSAGE_MAX + 1]
        room = ids[self.room_key]
        message = services.message_post(
            user=request.user, text=data["text"], to=data["to"],
            recipient_id=data.get("recipient"),
            campaign_id=room if self.room_key == "campaign_id" else None,
            encounter_id=room if self.room_key == "encounter_id" else None)
        return Response(MessageSerializer(message).data, status=201)


class CampaignChatView(_Room):
    room_key = "campaign_id"


class EncounterChatView(_Room):
    room_key = "encounter_id"


class MessageView(APIView):
    @extend_schema(request=None, responses={200: MessageSerializer, **ERRORS})
    def delete(self, request, message_id: int):
        message = services.message_delete(user=request.user, message_id=message_id)
        return Response(MessageSerializer(message).data)


urlpatterns = [
    path("campaigns/<int:campaign_id>/chat/", CampaignChatView.as_view(),
         name="api-campaign-chat"),
    path("encounters/<int:encounter_id>/chat/", EncounterChatView.as_view(),
         name="api-encounter-chat"),
    path("chat/messages/<int:message_id>/", MessageView.as_view(), name="api-chat-message"),
]
