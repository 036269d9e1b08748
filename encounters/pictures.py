"""The map's pictures (issue 21, item 1): the GM or a combatant's player gives its character a
portrait (drawn on the token instead of the initials, and beside the name in the map's list),
the GM gives the encounter a background (drawn under the grid); both read and written again by
campaigns.images (never the sent bytes), under random names."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import transaction

from campaigns.errors import ImageRefused
from campaigns.images import background_file, portrait_file
from campaigns.numbers import whole_number
from encounters.access import GM, PLAYER_OR_GM, Acting, opened
from encounters.changes import characters_changed
from encounters.errors import EncounterInvalid
from encounters.models import Combatant, Encounter

# A background's width on the ground, in whole metres: the form's default, and the widest one
# (positions stand within 10 000 m of the origin: gamerules.encounter.space).
DEFAULT_BACKGROUND_WIDTH_M = 30
MAX_BACKGROUND_WIDTH_M = 2000


def _forget(storage, name: str) -> None:
    """Delete a replaced picture's file (``name`` in ``storage``) once the change is committed
    (not if it rolls back)."""
    if name:
        transaction.on_commit(lambda: storage.delete(name))


def _replace(instance: Any, field: str, picture: Any, **also: Any) -> None:
    """Put ``picture`` (a File; None: no picture) in ``instance``'s image field ``field``,
    written with one UPDATE of that column (and of the columns ``also`` gives, set on
    ``instance`` too); the file it replaces deleted after the commit."""
    current = getattr(instance, field)
    old = current.name  # the FieldFile itself changes with save()
    if picture is None:
        setattr(instance, field, "")
    else:
        current.save(picture.name, picture, save=False)
    name = getattr(instance, field).name
    for column, value in also.items():
        setattr(instance, column, value)
    type(instance).objects.filter(pk=instance.pk).update(**{field: name}, **also)
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
    picture = None if clear else portrait_file(upload, max_bytes=settings.PORTRAIT_MAX_BYTES,
                                                    max_pixels=settings.PORTRAIT_MAX_PIXELS)
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


def background_width(raw: Any) -> int:
    """The background's width on the ground: ``raw`` (a form's text or a number) in whole
    metres, 1 to ``MAX_BACKGROUND_WIDTH_M``; empty or None: ``DEFAULT_BACKGROUND_WIDTH_M``.
    Raises EncounterInvalid("background_width")."""
    if raw is None or str(raw).strip() == "":
        return DEFAULT_BACKGROUND_WIDTH_M
    value = whole_number(str(raw), negative=False, digits=6)
    if value is None or not 1 <= value <= MAX_BACKGROUND_WIDTH_M:
        raise EncounterInvalid(code="background_width", most=MAX_BACKGROUND_WIDTH_M)
    return value


def _metres(picture: Any, width_m: int) -> tuple[Decimal, Decimal]:
    """(width, height) on the ground of ``picture`` (a written background): ``width_m`` wide,
    as high as its proportions say, to the centimetre (at least one)."""
    from PIL import Image

    with Image.open(picture) as image:
        w, h = image.size
    picture.seek(0)
    height = max(Decimal("0.01"), (Decimal(width_m) * h / w).quantize(Decimal("0.01")))
    return Decimal(width_m), height


def encounter_background_set(*, user, encounter_id: int, upload: Any = None,
                             clear: bool = False, width: Any = None) -> Encounter:
    """The GM gives the encounter's map a background: ``upload`` scaled down (campaigns.
    images.background_file), ``width`` metres wide on the ground (background_width: 30 m by
    default), as high as its proportions say, its lower left corner at (0, 0) m; or none with
    ``clear``. A step: locked, version bumped, pushed; the old file deleted after the commit.
    Raises ImageRefused, EncounterInvalid("background_width"), EncounterNotFound,
    EncounterForbidden("not_game_master")."""
    picture = None
    size: tuple[Decimal | None, Decimal | None] = (None, None)
    if not clear:
        width_m = background_width(width)
        picture = background_file(upload, max_bytes=settings.BACKGROUND_MAX_BYTES)
        size = _metres(picture, width_m)
    with opened(encounter_id, user, who=GM, state=None) as step:
        e = step.encounter
        _replace(e, "background", picture, background_width_m=size[0],
                 background_height_m=size[1])
        step.save()
        return e
