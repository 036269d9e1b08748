"""The map's pictures (issue 21, item 1): the GM or a combatant's player gives its character a
portrait (drawn on the token instead of the initials, and beside the name in the map's list),
the GM gives the encounter a background (drawn under the grid); both read and written again by
campaigns.images (never the sent bytes), under random names."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction

from campaigns.errors import ImageRefused
from campaigns.images import background_file, portrait_file
from encounters.access import GM, PLAYER_OR_GM, Acting, opened
from encounters.changes import characters_changed
from encounters.errors import EncounterInvalid
from encounters.models import Combatant, Encounter



def _forget(storage, name: str) -> None:
    """Delete a replaced picture's file (``name`` in ``storage``) once the change is committed
    (not if it rolls back)."""
    if name:
        transaction.on_commit(lambda: storage.delete(name))


def _replace(instance: Any, field: str, picture: Any) -> None:
    """Put ``picture`` (a File; None: no picture) in ``instance``'s image field ``field``,
    written with one UPDATE of that column; the file it replaces deleted after the commit."""
    current = getattr(instance, field)
    old = current.name  # the FieldFile itself changes with save()
    if picture is None:
        setattr(instance, field, "")
    else:
        current.save(picture.name, picture, save=False)
    name = getattr(instance, field).name
    type(instance).objects.filter(pk=instance.pk).update(**{field: name})
    if old != name:
        _forget(current.storage, old)


def combatant_portrait_set(*, user, encounter_id: int, combatant_id: int, upload: Any = None,
                           clear: bool = False) -> Combatant:
    """The GM or ``combatant_id``'s player gives its character a portrait: ``upload`` (an
    UploadedFile) thumbnailed (campaigns.images.portrait_file: a 128 px square PNG), or none
    with ``clear``. The character's encounters not ended have their versions bumped (their
    maps show it), pushed on commit; the old file is deleted after the commit. The picture is
    read before anything is locked. Raises ImageRefused ("image_missing", "image_too_big",
    "image_unreadable", "image_type", "portrait_needs_character"), EncounterNotFound,
    EncounterForbidden, EncounterInvalid("no_such_combatant")."""
    picture = None if clear else portrait_file(upload, max_bytes=settings.PORTRAIT_MAX_BYTES)
    with transaction.atomic():
        character_id = Combatant.objects.filter(pk=combatant_id, encounter_id=encounter_id) \
            .values_list("character_id", flat=True).first()
        if character_id is not None:
            characters_changed([character_id])  # first, as a step does (encounters.changes)
        with opened(encounter_id, user, who=PLAYER_OR_GM,
                    acting=Acting(combatant_id=combatant_id), state=None) as step:
            me = step.me
            if me is None:  # PLAYER_OR_GM sets it or raises
                raise EncounterInvalid(code="no_such_combatant")
            character = me.character
            if character is None:
                raise ImageRefused("portrait_needs_character", name=me.name)
            _replace(character, "portrait", picture)
            step.save()
            return me


def encounter_background_set(*, user, encounter_id: int, upload: Any = None,
                             clear: bool = False) -> Encounter:
    """The GM gives the encounter's map a background: ``upload`` scaled down (campaigns.
    images.background_file), or none with ``clear``. A step: locked, version bumped, pushed;
    the old file deleted after the commit. Raises ImageRefused, EncounterNotFound,
    EncounterForbidden("not_game_master")."""
    picture = None if clear else background_file(upload, max_bytes=settings.BACKGROUND_MAX_BYTES)
    with opened(encounter_id, user, who=GM, state=None) as step:
        e = step.encounter
        _replace(e, "background", picture)
        step.save()
        return e
