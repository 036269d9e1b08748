"""The board poll's version token: "nothing in view changed" in one cache read, no SQL.

The board fragment carries a token in its poll URL (``?v=<token>``). The token names the
campaign, the board and the square of version tiles its view overlaps (campaigns.versions),
says until when the fragment stays true by time alone, and signs (HMAC with ``SECRET_KEY``)
what the fragment was drawn from: the user and the character it was drawn for, the versions of
the campaign, the epoch, the character and those tiles, and the language. A poll whose token
still matches the current versions before that time answers 204, and htmx leaves the page
alone.

"In view" is everything the fragment shows, and every write to it bumps a counter: actions are
journaled (the tiles of the pieces named, the characters themselves, or the campaign), equipping
and learning a spell bump the character's tiles, the beat tasks and the admin bump the epoch.
Time is the other input: PA and PV regenerate in memory and the "next PA in N minutes" text
counts down, so a token expires at the first moment any of these would read differently, and
after MAX_AGE_S in any case (a safety net for a missed bump, e.g. Redis unreachable at commit).

The versions are read *before* the data: from the poll's own token (which names the campaign and
tiles), and a render whose view left those tiles (the character moved), or that had no token
(a page load, an action's answer), hands out a token without MAC, so that the next poll renders
once more, reading the versions first. A token also stands for the permission check of the
render that issued it: it is bound to the user, and another user's token never matches.

Shape: ``<campaign>-<board or 0>-<tx0>-<ty0>-<tx1>-<ty1>-<valid until, Unix s>-<hex MAC>``.
"""

from __future__ import annotations

import hashlib
import hmac
import time

from django.conf import settings

from campaigns.versions import tiles_of_box, versions_get
from ew1.regeneration import HOUR, unix

MAX_AGE_S = 120
MINUTE = 60
# A token: campaign, board, tx0, ty0, tx1, ty1, valid until (decimal numbers), then the MAC.
TOKEN_PARTS = 8
TOKEN_NUMBERS = 7
NUMBER_DIGITS_MAX = 12  # no id or Unix time here is longer; longer is a forged token
MAX_TILES = 64  # a token naming more tiles is refused (no view is that large)


def _mac(*, user_id: int, character_id: int, place: tuple[int, ...], versions: tuple[int, ...],
         language: str, valid_until: int) -> str:
    message = "|".join(map(str, ("board", user_id, character_id, *place, *versions, language,
                                 valid_until)))
    return hmac.new(settings.SECRET_KEY.encode(), message.encode(), hashlib.sha256).hexdigest()


def _parse(token: str) -> tuple[tuple[int, ...], int, str] | None:
    """(place: campaign, board, tx0, ty0, tx1, ty1; valid until; MAC) of a well-formed token."""
    parts = token.split("-")
    numbers_ok = all(p.isascii() and p.isdigit() and len(p) <= NUMBER_DIGITS_MAX
                     for p in parts[:TOKEN_NUMBERS])
    if len(parts) != TOKEN_PARTS or not numbers_ok:
        return None
    numbers = tuple(int(p) for p in parts[:TOKEN_NUMBERS])
    place = numbers[:6]
    if place[4] < place[2] or place[5] < place[3] or \
            (place[4] - place[2] + 1) * (place[5] - place[3] + 1) > MAX_TILES:
        return None
    return place, numbers[6], parts[7]


def read_versions_first(token: str | None, *, character_id: int):
    """(place, versions) for the place a poll's token names, read before the board's data
    (campaigns.versions); None without a token or a reachable cache."""
    parsed = _parse(token or "")
    if parsed is None:
        return None
    place = parsed[0]
    campaign_id, board_id, *tiles = place
    x0, y0, x1, y1 = tiles if board_id else (0, 0, 0, 0)  # a board's place has its four tiles
    try:
        return place, versions_get(campaign_id=campaign_id, character_id=character_id,
                                   board_id=board_id or None,
                                   tiles=(x0, y0, x1, y1) if board_id else None)
    except Exception:  # cache unreachable: render, never guess "unchanged"
        return None


def poll_unchanged(*, token: str | None, read_first, user_id: int, character_id: int,
                   language: str, now: float | None = None) -> bool:
    """True when ``token`` was issued to this user for this character, has not expired, and
    ``read_first`` (read_versions_first of the same token) still holds the versions it was drawn
    from. No I/O of its own."""
    parsed = _parse(token or "")
    if parsed is None or not parsed[2] or read_first is None or read_first[0] != parsed[0]:
        return False
    place, until, mac = parsed
    if (now if now is not None else time.time()) >= until:
        return False
    expected = _mac(user_id=user_id, character_id=character_id, place=place,
                    versions=read_first[1], language=language, valid_until=until)
    return hmac.compare_digest(expected, mac)


def _place_of(board) -> tuple[int, ...]:
    """(campaign, board, tiles) that ``board``'s view overlaps; board 0 off the board."""
    character = board.sheet.character
    if not board.rows:
        return (character.campaign_id, 0, 0, 0, 0, 0)
    first, last = board.rows[0][0], board.rows[-1][-1]
    return (character.campaign_id, character.board_id,
            *tiles_of_box(first.x, first.y, last.x, last.y))


def _within(inner: tuple[int, ...], outer: tuple[int, ...]) -> bool:
    if inner[:2] != outer[:2]:
        return False
    if inner[1] == 0:
        return True
    return outer[2] <= inner[2] and outer[3] <= inner[3] and inner[4] <= outer[4] \
        and inner[5] <= outer[5]


def valid_until(board) -> int:
    """Unix seconds when the fragment of ``board`` (a ew1.selectors.BoardView) first
    reads differently by time alone: the next PA or PV step of the character, the next PV step
    of a piece in view, the next minute of the "next PA in" countdown; MAX_AGE_S at most."""
    sheet_view = board.sheet
    now = unix(sheet_view.now)
    moments = [now + MAX_AGE_S]
    for accrual in (sheet_view.pa, sheet_view.pv):
        if accrual.next_at is not None:
            moments.append(accrual.next_at)
    if sheet_view.pa.next_at is not None and sheet_view.pa.next_at > now:
        left = sheet_view.pa.next_at - now  # the countdown changes when `left` crosses a minute
        moments.append(now + left % MINUTE)
    period = sheet_view.character.campaign.parameters.pv_regen_hours * HOUR
    for piece in board.in_view:
        sheet = piece.ew1
        if 0 <= sheet.pv < sheet.pv_max:
            moments.append(sheet.pv_anchor + period)
    return max(now + 1, min(moments))


def poll_token(*, board, user_id: int, language: str, read_first) -> str:
    """The token of the fragment of ``board``, drawn after ``read_first`` (read_versions_first).
    Without versions read first for a place that holds this view, a token without MAC naming
    this view's place: the next poll renders, and reads them first."""
    character = board.sheet.character
    place = _place_of(board)
    if read_first is None or not _within(place, read_first[0]):
        return "-".join(map(str, (*place, 0, "")))
    until = valid_until(board)
    mac = _mac(user_id=user_id, character_id=character.pk, place=read_first[0],
               versions=read_first[1], language=language, valid_until=until)
    return "-".join(map(str, (*read_first[0], until, mac)))
