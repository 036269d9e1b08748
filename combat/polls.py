"""The board poll's version token: "nothing in view changed" in one cache read, no SQL.

The board fragment carries a token in its poll URL (``?v=<token>``). The token names the
campaign, says until when the fragment stays true by time alone, and signs (HMAC with
``SECRET_KEY``) what the fragment was drawn from: the user and the character it was drawn for,
the campaign's version and the epoch (campaigns.versions), the language. A poll whose token
still matches the current versions before that time answers 204 and htmx leaves the page alone.

What is "in view" is everything the fragment shows, and every write to it bumps one of the
counters: actions are journaled (campaign version), equipping bumps the campaign, the beat tasks
and the admin bump the epoch. Time is the other input: PA and PV regenerate in memory and the
"next PA in N minutes" text counts down, so a token expires at the first moment any of these
would read differently, and after MAX_AGE_S in any case (a safety net for a missed bump, e.g.
Redis unreachable at commit time).

A token also stands for the permission check of the render that issued it: it is bound to the
user, and another user's forged token never matches. Shape: ``<campaign id>-<valid until, Unix
seconds>-<hex MAC>``; ``<campaign id>-0-`` when the render could not read the versions first
(it then holds no MAC and the next poll renders once more).
"""

from __future__ import annotations

import hashlib
import hmac
import time

from django.conf import settings

from campaigns.versions import versions_get
from characters.regeneration import HOUR, unix

MAX_AGE_S = 120
MINUTE = 60


def _mac(*, user_id: int, character_id: int, campaign_id: int, versions: tuple[int, int],
         language: str, valid_until: int) -> str:
    message = f"board|{user_id}|{character_id}|{campaign_id}|{versions[0]}|{versions[1]}|" \
              f"{language}|{valid_until}"
    return hmac.new(settings.SECRET_KEY.encode(), message.encode(), hashlib.sha256).hexdigest()


def _parse(token: str) -> tuple[int, int, str] | None:
    """(campaign id, valid until, MAC) of a well-formed token, else None."""
    parts = token.split("-")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts[:2]):
        return None
    return int(parts[0]), int(parts[1]), parts[2]


def poll_unchanged(*, token: str | None, read_first: tuple[int, tuple[int, int]] | None,
                   user_id: int, character_id: int, language: str,
                   now: float | None = None) -> bool:
    """True when ``token`` was issued to this user for this character, has not expired, and
    ``read_first`` (read_versions_first(token)) still holds the versions it was drawn from. No
    I/O of its own."""
    parsed = _parse(token or "")
    if parsed is None or not parsed[2] or read_first is None or read_first[0] != parsed[0]:
        return False
    campaign_id, until, mac = parsed
    if (now if now is not None else time.time()) >= until:
        return False
    expected = _mac(user_id=user_id, character_id=character_id, campaign_id=campaign_id,
                    versions=read_first[1], language=language, valid_until=until)
    return hmac.compare_digest(expected, mac)


def read_versions_first(token: str | None) -> tuple[int, tuple[int, int]] | None:
    """(campaign id, its versions) for the campaign a poll's token names, read before the
    board's data (see campaigns.versions); None without a token or a reachable cache."""
    parsed = _parse(token or "")
    if parsed is None:
        return None
    try:
        return parsed[0], versions_get(campaign_id=parsed[0])
    except Exception:
        return None


def valid_until(board) -> int:
    """Unix seconds when the fragment of ``board`` (a characters.selectors.BoardView) first
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


def poll_token(*, board, user_id: int, language: str,
               read_first: tuple[int, tuple[int, int]] | None) -> str:
    """The token of the fragment of ``board``, drawn after ``read_first`` (read_versions_first).
    Without versions read first for this very campaign, a token without MAC: the next poll
    renders, and reads them first."""
    character = board.sheet.character
    campaign_id = character.campaign_id
    if read_first is None or read_first[0] != campaign_id:
        return f"{campaign_id}-0-"
    versions = read_first[1]
    until = valid_until(board)
    mac = _mac(user_id=user_id, character_id=character.pk, campaign_id=campaign_id,
               versions=versions, language=language, valid_until=until)
    return f"{campaign_id}-{until}-{mac}"
