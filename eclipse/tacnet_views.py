"""The TACNet's forms on the encounter pages (htmx, English and French): each calls an
eclipse.tacnet service and answers with the encounter's fragment (encounters.pages.respond).
Thin: form reading only."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.views.decorators.http import require_POST

from campaigns.errors import InvalidInput
from campaigns.numbers import posted_text, whole_number
from eclipse import tacnet
from encounters.errors import EncounterNotFound
from encounters.models import Encounter
from encounters.pages import respond


def _int(request, name: str) -> int | None:
    return whole_number(request.POST.get(name, ""), negative=False, digits=9)


def _required(request, name: str) -> int:
    value = _int(request, name)
    if value is None:
        raise InvalidInput()
    return value


def _campaign_of(encounter_id: int) -> int:
    campaign_id = (Encounter.objects.filter(pk=encounter_id)
                   .values_list("campaign_id", flat=True).first())
    if campaign_id is None:
        raise EncounterNotFound()
    return campaign_id


@login_required
@require_POST
def create(request, encounter_id: int):
    return respond(request, encounter_id, lambda: tacnet.tacnet_create(
        user=request.user, campaign_id=_campaign_of(encounter_id),
        name=posted_text(request.POST, "name"),
        open_to_players=request.POST.get("open_to_players") == "1"))


@login_required
@require_POST
def join(request, encounter_id: int):
    return respond(request, encounter_id, lambda: tacnet.tacnet_join(
        user=request.user, network_id=_required(request, "network"),
        character_id=_required(request, "character")))


@login_required
@require_POST
def leave(request, encounter_id: int):
    return respond(request, encounter_id, lambda: tacnet.tacnet_leave(
        user=request.user, network_id=_required(request, "network"),
        character_id=_required(request, "character")))


@login_required
@require_POST
def perceive(request, encounter_id: int):
    return respond(request, encounter_id, lambda: tacnet.tacnet_perceive(
        user=request.user, encounter_id=encounter_id, network_id=_required(request, "network"),
        opponent_id=_required(request, "opponent"), by_id=_int(request, "by") or None,
        note=posted_text(request.POST, "note")[:tacnet.NOTE_MAX]))


@login_required
@require_POST
def clear(request, encounter_id: int):
    return respond(request, encounter_id, lambda: tacnet.tacnet_clear(
        user=request.user, encounter_id=encounter_id, mark_id=_required(request, "mark")))
