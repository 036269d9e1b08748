"""Uploaded pictures made safe to show (issue 21, item 1): a character's portrait, an
encounter's background. Every picture is read by Pillow and written again by it (never the
sent bytes): a portrait as a ``PORTRAIT_PX`` square PNG (the middle of the picture, scaled),
a background as a PNG or JPEG at most ``BACKGROUND_PX`` wide or high. Limits (settings):
``PORTRAIT_MAX_BYTES`` and ``BACKGROUND_MAX_BYTES`` sent, the types of ``KINDS``, at most
``MAX_PIXELS`` pixels (a decompression bomb is refused, not opened). Raises
campaigns.errors.ImageRefused with a key the pages and the API put into words.

Each file gets a random name (``uuid4``): a picture's address is not guessable from its
character or encounter, and a hidden combatant's portrait is never on a player's page."""

from __future__ import annotations

import contextlib
import io
import struct
import uuid
import warnings

from django.core.files.base import ContentFile

from campaigns.errors import ImageRefused

PORTRAIT_PX = 128
BACKGROUND_PX = 1600
KINDS = frozenset({"PNG", "JPEG", "GIF", "WEBP"})
MAX_PIXELS = 40_000_000


def _opened(upload, max_bytes: int):
    """The Pillow image of ``upload`` (a Django UploadedFile), loaded. Raises ImageRefused."""
    from PIL import Image, UnidentifiedImageError

    if upload is None:
        raise ImageRefused("image_missing")
    size = getattr(upload, "size", None) or 0
    if size > max_bytes:
        raise ImageRefused("image_too_big", size=-(-size // 1024), limit=max_bytes // 1024)
    data = upload.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise ImageRefused("image_too_big", size=-(-len(data) // 1024), limit=max_bytes // 1024)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            kind = image.format or "?"
            if kind not in KINDS:
                raise ImageRefused("image_type", kind=kind)
            if image.width * image.height > MAX_PIXELS:
                raise ImageRefused("image_unreadable")
            image.load()
    except ImageRefused:
        raise
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError,
            Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageRefused("image_unreadable") from None
    return image


def _upright(image):
    """``image`` turned in place as its EXIF orientation says (no copy of a big picture); as it
    is when the EXIF block does not parse (Pillow raises a SyntaxError, a struct.error, a
    TypeError... while reading it, or writing it back once turned): the pixels were read, only
    the orientation may be lost."""
    from PIL import ImageOps

    with contextlib.suppress(SyntaxError, struct.error, TypeError, ValueError, KeyError,
                             IndexError, OSError, ZeroDivisionError):
        ImageOps.exif_transpose(image, in_place=True)
    return image


def portrait_file(upload, *, max_bytes: int) -> ContentFile:
    """A ``PORTRAIT_PX`` square PNG of ``upload``'s middle (ImageOps.fit), named at random."""
    from PIL import ImageOps

    image = _upright(_opened(upload, max_bytes))
    if image.mode not in ("RGB", "RGBA"):  # Pillow resizes a palette picture pixel by pixel
        image = image.convert("RGBA")
    square = ImageOps.fit(image, (PORTRAIT_PX, PORTRAIT_PX)).convert("RGBA")
    out = io.BytesIO()
    square.save(out, format="PNG", optimize=True)
    return ContentFile(out.getvalue(), name=f"{uuid.uuid4().hex}.png")


def background_file(upload, *, max_bytes: int) -> ContentFile:
    """``upload`` at most ``BACKGROUND_PX`` on its longer side (its proportions kept): a JPEG
    for an opaque picture, a PNG for one with transparency, named at random."""
    image = _upright(_opened(upload, max_bytes))
    image.thumbnail((BACKGROUND_PX, BACKGROUND_PX))
    clear = image.mode in ("RGBA", "LA") or "transparency" in image.info
    out = io.BytesIO()
    if clear:
        image.convert("RGBA").save(out, format="PNG", optimize=True)
        ext = "png"
    else:
        image.convert("RGB").save(out, format="JPEG", quality=85)
        ext = "jpg"
    return ContentFile(out.getvalue(), name=f"{uuid.uuid4().hex}.{ext}")
